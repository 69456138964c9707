-- Wireshark dissector for Scale Up Ethernet (SUE) frames as this project writes them (docs/protocol.md).
-- Load: wireshark -X lua_script:tools/wireshark/sue.lua FILE.pcap   (or copy it into the personal plugins folder)
-- Registered on the SUE UDP port (IPv4 and IPv6) and on the AFH Gen1 and Gen2 EtherTypes; all of them, and the
-- command table (which the wire does not carry), are preferences under Protocols > SUE. AFH Gen2 compressed frames
-- have no Ethernet header: the model writes their captures as link type USER0 (147), decoded here too.

local sue = Proto("sue", "Scale Up Ethernet")

sue.prefs.udp_port = Pref.uint("UDP port", 0x5355, "SUE's UDP destination port (NetConfig.udpDstPort)")
sue.prefs.gen1_ethertype = Pref.uint("AFH Gen1 EtherType", 0x88B5, "NetConfig.afhGen1EtherType")
sue.prefs.gen1_second = Pref.uint("AFH Gen1 second EtherType", 0, "0: none (NetConfig.afhGen1SecondEtherType)")
sue.prefs.gen1_shim = Pref.bool("AFH Gen1 shim", false, "the 8-byte shim follows the EtherType(s)")
sue.prefs.gen2_ethertype = Pref.uint("AFH Gen2 EtherType", 0x88B6, "NetConfig.afhGen2EtherType")
sue.prefs.fcs_in_capture = Pref.bool("AFH captures keep the FCS", true,
    "for a damaged AFH frame, whose R-CRC cannot tell: the last 4 bytes are the FCS (as the model's pcaps)")
sue.prefs.commands = Pref.string("Command table", "1:8,2:8,3:4,4:14",
    "type:control bytes, comma separated (CommandTable; the default is CommandTable.example())")

local ops = { [0] = "none", [1] = "ACK", [2] = "NACK", [3] = "reserved" }
local f = {
    ver = ProtoField.uint16("sue.ver", "Version", base.DEC, nil, 0xC000),
    op = ProtoField.uint16("sue.op", "Op", base.DEC, ops, 0x3000),
    port = ProtoField.uint16("sue.port", "Connection port", base.DEC, nil, 0x0C00),
    xpuid = ProtoField.uint16("sue.xpuid", "Source XPU", base.DEC, nil, 0x03FF),
    psn = ProtoField.uint16("sue.psn", "PSN", base.DEC),
    vc = ProtoField.uint16("sue.vc", "VC", base.DEC, nil, 0xC000),
    partition = ProtoField.uint16("sue.partition", "Partition", base.DEC, nil, 0x03FF),
    rpsn = ProtoField.uint16("sue.rpsn", "RPSN", base.DEC),
    ack_only = ProtoField.bool("sue.ack_only", "ACK-only PDU"),
    cmd = ProtoField.none("sue.cmd", "Command"),
    cmd_type = ProtoField.uint8("sue.cmd.type", "Type", base.DEC),
    cmd_len = ProtoField.uint16("sue.cmd.data_len", "Data length", base.DEC),
    cmd_control = ProtoField.bytes("sue.cmd.control", "Control"),
    cmd_data = ProtoField.bytes("sue.cmd.data", "Data"),
    padding = ProtoField.bytes("sue.padding", "Padding"),
    rcrc = ProtoField.uint32("sue.rcrc", "R-CRC", base.HEX),
    rcrc_status = ProtoField.string("sue.rcrc.status", "R-CRC status"),
    second = ProtoField.uint16("sue.afh1.second_ethertype", "Second EtherType", base.HEX),
    shim_ver = ProtoField.uint8("sue.afh1.version", "Shim version", base.DEC, nil, 0xF0),
    shim_hops = ProtoField.uint8("sue.afh1.hops", "Hop count", base.DEC, nil, 0x0F),
    shim_entropy = ProtoField.uint8("sue.afh1.entropy", "Entropy", base.DEC),
    shim_src = ProtoField.uint16("sue.afh1.src_xpu", "Source XPU address", base.DEC),
    shim_dst = ProtoField.uint16("sue.afh1.dst_xpu", "Destination XPU address", base.DEC),
    gen2_flags = ProtoField.uint8("sue.afh2.flags", "Flags", base.HEX),
    gen2_hops = ProtoField.uint8("sue.afh2.hops", "Hop count", base.DEC),
    gen2_dst = ProtoField.uint32("sue.afh2.dst_xpu", "Destination XPU address", base.DEC),
    gen2_entropy = ProtoField.uint8("sue.afh2.entropy", "Entropy", base.DEC),
    gen2_src = ProtoField.uint32("sue.afh2.src_xpu", "Source XPU address", base.DEC),
    gen2c_dst = ProtoField.uint16("sue.afh2c.dst_xpu", "Destination XPU address", base.DEC),
    gen2c_src = ProtoField.uint16("sue.afh2c.src_xpu", "Source XPU address", base.DEC),
    vlan_pcp = ProtoField.uint16("sue.vlan.pcp", "802.1Q PCP", base.DEC, nil, 0xE000),
    vlan_vid = ProtoField.uint16("sue.vlan.vid", "802.1Q VID", base.DEC, nil, 0x0FFF),
    ethertype = ProtoField.uint16("sue.ethertype", "EtherType", base.HEX),
    fcs = ProtoField.uint32("sue.fcs", "FCS", base.HEX),
    fcs_status = ProtoField.string("sue.fcs.status", "FCS status"),
}
sue.fields = f

local e_bad_rcrc = ProtoExpert.new("sue.rcrc.bad", "Bad R-CRC", expert.group.CHECKSUM, expert.severity.ERROR)
local e_malformed = ProtoExpert.new("sue.cmd.malformed", "Malformed command", expert.group.MALFORMED,
    expert.severity.ERROR)
local e_bad_fcs = ProtoExpert.new("sue.fcs.bad", "Bad FCS", expert.group.CHECKSUM, expert.severity.ERROR)
sue.experts = { e_bad_rcrc, e_malformed, e_bad_fcs }

local eth_dst = Field.new("eth.dst")
local eth_src = Field.new("eth.src")

-- CRC-32 of IEEE 802.3 (reflected, init and final XOR 0xFFFFFFFF), as the R-CRC (section 3)
local crc_table = {}
for i = 0, 255 do
    local c = i
    for _ = 1, 8 do
        if bit32.band(c, 1) == 1 then
            c = bit32.bxor(bit32.rshift(c, 1), 0xEDB88320)
        else
            c = bit32.rshift(c, 1)
        end
    end
    crc_table[i] = c
end

local function crc32(tvb, offset, length)
    local c = 0xFFFFFFFF
    local bytes = tvb:bytes(offset, length)
    for i = 0, length - 1 do
        c = bit32.bxor(crc_table[bit32.band(bit32.bxor(c, bytes:get_index(i)), 0xFF)], bit32.rshift(c, 8))
    end
    return bit32.bxor(c, 0xFFFFFFFF)
end

-- A CRC-32 carried least significant byte first at `at`, over the bytes from `from` to it: the value and its status
local function add_crc(tree, tvb, from, at, field, status, expert_bad, name)
    local wire = tvb(at, 4):le_uint()
    local computed = crc32(tvb, from, at - from)
    tree:add(field, tvb(at, 4), wire, nil, "(little endian)")
    if wire == computed then
        tree:add(status, "Good")
    else
        tree:add(status, "Bad"):add_proto_expert_info(expert_bad,
            string.format("%s 0x%08x, computed 0x%08x", name, wire, computed))
    end
end

local function control_bytes()
    local t = {}
    for type, bytes in string.gmatch(sue.prefs.commands, "(%d+)%s*:%s*(%d+)") do
        t[tonumber(type)] = tonumber(bytes)
    end
    return t
end

-- RH, packed commands, padding and R-CRC: the SUE PDU from `offset` to `stop` (exclusive); returns `stop`
local function dissect_pdu(tvb, pinfo, tree, offset, stop)
    local length = stop - offset
    if length < 12 then
        tree:add_proto_expert_info(e_malformed, "too short for an RH and an R-CRC")
        return stop
    end
    local rh = tree:add(sue, tvb(offset, 8), "Reliability header")
    rh:add(f.ver, tvb(offset, 2))
    rh:add(f.op, tvb(offset, 2))
    rh:add(f.port, tvb(offset, 2))
    rh:add(f.xpuid, tvb(offset, 2))
    rh:add(f.psn, tvb(offset + 2, 2))
    rh:add(f.vc, tvb(offset + 4, 2))
    rh:add(f.partition, tvb(offset + 4, 2))
    rh:add(f.rpsn, tvb(offset + 6, 2))
    local crc_at = stop - 4
    local pos = offset + 8
    local table = control_bytes()
    local commands = 0
    if tvb(pos, 1):uint() == 0 then
        tree:add(f.ack_only, tvb(pos, 1), true)
    end
    while pos < crc_at and tvb(pos, 1):uint() ~= 0 do
        local type = tvb(pos, 1):uint()
        local control = table[type]
        if control == nil or pos + 4 > crc_at then
            tree:add_proto_expert_info(e_malformed, control == nil and ("type " .. type .. " is not in the command table")
                or "command header runs past the PDU")
            return stop
        end
        local data_len = tvb(pos + 2, 2):uint()
        local size = 4 + control + data_len
        if pos + size > crc_at then
            tree:add_proto_expert_info(e_malformed, "command runs past the PDU")
            return stop
        end
        local padded = size + (size % 2)
        if pos + padded > crc_at then
            padded = size
        end
        local c = tree:add(f.cmd, tvb(pos, padded))
        c:set_text("Command type " .. type .. ", " .. control .. " control bytes, " .. data_len .. " data bytes")
        c:add(f.cmd_type, tvb(pos, 1))
        c:add(f.cmd_len, tvb(pos + 2, 2))
        if control > 0 then
            c:add(f.cmd_control, tvb(pos + 4, control))
        end
        if data_len > 0 then
            c:add(f.cmd_data, tvb(pos + 4 + control, data_len))
        end
        pos = pos + padded
        commands = commands + 1
    end
    if pos < crc_at then
        tree:add(f.padding, tvb(pos, crc_at - pos))
    end
    add_crc(tree, tvb, offset, crc_at, f.rcrc, f.rcrc_status, e_bad_rcrc, "R-CRC")
    pinfo.cols.protocol = "SUE"
    local rhw = tvb(offset, 2):uint()
    pinfo.cols.info = string.format("SUE xpu %d psn %d vc %d %s %d, %d command(s)", bit32.band(rhw, 0x3FF),
        tvb(offset + 2, 2):uint(), bit32.rshift(tvb(offset + 4, 1):uint(), 6), ops[bit32.rshift(rhw, 12) % 4],
        tvb(offset + 6, 2):uint(), commands)
    return stop
end

-- Where an EtherType-carried PDU ends: the AFH formats carry no length, and a capture may keep the frame's FCS
-- after the R-CRC. The R-CRC of a good PDU matches at exactly one of the two places; if neither matches (a damaged
-- PDU), the preference says whether captures keep the FCS.
local function afh_stop(tvb, offset)
    local n = tvb:len()
    if n - offset >= 12 and tvb(n - 4, 4):le_uint() == crc32(tvb, offset, n - 4 - offset) then
        return n
    end
    if n - offset >= 16 and tvb(n - 8, 4):le_uint() == crc32(tvb, offset, n - 8 - offset) then
        return n - 4
    end
    return sue.prefs.fcs_in_capture and n - 4 or n
end

function sue.dissector(tvb, pinfo, tree)
    return dissect_pdu(tvb, pinfo, tree:add(sue, tvb()), 0, tvb:len())
end

-- AFH Gen1: optional second EtherType and shim before the RH
local gen1 = Proto("sue_afh1", "SUE AFH Gen1")
function gen1.dissector(tvb, pinfo, tree)
    local t = tree:add(sue, tvb(), "Scale Up Ethernet, AFH Gen1")
    local offset = 0
    if sue.prefs.gen1_second ~= 0 then
        t:add(f.second, tvb(0, 2))
        offset = 2
    end
    if sue.prefs.gen1_shim then
        local s = t:add(sue, tvb(offset, 8), "Shim")
        s:add(f.shim_ver, tvb(offset, 1))
        s:add(f.shim_hops, tvb(offset, 1))
        s:add(f.shim_entropy, tvb(offset + 1, 1))
        s:add(f.shim_src, tvb(offset + 2, 2))
        s:add(f.shim_dst, tvb(offset + 4, 2))
        offset = offset + 8
    end
    return dissect_pdu(tvb, pinfo, t, offset, afh_stop(tvb, offset))
end

-- AFH Gen2, normal format: the 802c addresses sit where Ethernet's DA and SA are
local gen2 = Proto("sue_afh2", "SUE AFH Gen2")
function gen2.dissector(tvb, pinfo, tree)
    local t = tree:add(sue, tvb(), "Scale Up Ethernet, AFH Gen2")
    local da, sa = eth_dst(), eth_src()
    if da and sa then
        local d, s = da.range, sa.range
        local a = t:add(sue, "Addresses (in the Ethernet DA/SA)")
        a:add(f.gen2_flags, d(0, 1))
        a:add(f.gen2_hops, d(1, 1))
        a:add(f.gen2_dst, d(2, 4))
        a:add(f.gen2_entropy, s(1, 1))
        a:add(f.gen2_src, s(2, 4))
    end
    return dissect_pdu(tvb, pinfo, t, 0, afh_stop(tvb, 0))
end

-- AFH Gen2, compressed format, as a whole frame (link type USER0): flags, 16-bit XPU addresses, optional 802.1Q
-- tag, EtherType, the PDU and the FCS, which the model's captures keep. Other frames of such a capture (MAC Control:
-- CBFC's CC_Update, PFC) are Ethernet frames with their FCS.
local gen2c = Proto("sue_afh2c", "SUE AFH Gen2 compressed")
local eth_withfcs = Dissector.get("eth_withfcs")
function gen2c.dissector(tvb, pinfo, tree)
    local n = tvb:len()
    if n < 8 + 12 + 4 or tvb(0, 1):uint() ~= 0x42 or tvb(3, 1):uint() ~= 0x42 then
        return eth_withfcs:call(tvb, pinfo, tree)
    end
    local t = tree:add(sue, tvb(), "Scale Up Ethernet, AFH Gen2 compressed")
    local a = t:add(sue, tvb(0, 6), "Addresses")
    a:add(f.gen2_flags, tvb(0, 1))
    a:add(f.gen2c_dst, tvb(1, 2))
    a:add(f.gen2_flags, tvb(3, 1))
    a:add(f.gen2c_src, tvb(4, 2))
    pinfo.cols.src = "xpu " .. tvb(4, 2):uint()
    pinfo.cols.dst = "xpu " .. tvb(1, 2):uint()
    local offset = 6
    if tvb(6, 2):uint() == 0x8100 then
        local tag = t:add(sue, tvb(6, 4), "802.1Q tag")
        tag:add(f.vlan_pcp, tvb(8, 2))
        tag:add(f.vlan_vid, tvb(8, 2))
        offset = 10
    end
    t:add(f.ethertype, tvb(offset, 2))
    dissect_pdu(tvb, pinfo, t, offset + 2, n - 4)
    add_crc(t, tvb, 0, n - 4, f.fcs, f.fcs_status, e_bad_fcs, "FCS")
    return n
end
DissectorTable.get("wtap_encap"):add((wtap_encaps or wtap).USER0, gen2c)

local current = {}
function sue.init() -- (re)registers on the preferences' port and EtherTypes
    local udp, eth = DissectorTable.get("udp.port"), DissectorTable.get("ethertype")
    if current.port then
        udp:remove(current.port, sue)
        eth:remove(current.gen1, gen1)
        eth:remove(current.gen2, gen2)
    end
    current = { port = sue.prefs.udp_port, gen1 = sue.prefs.gen1_ethertype, gen2 = sue.prefs.gen2_ethertype }
    udp:add(current.port, sue)
    eth:add(current.gen1, gen1)
    eth:add(current.gen2, gen2)
end
