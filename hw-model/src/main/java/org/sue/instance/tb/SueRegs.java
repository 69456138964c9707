package org.sue.instance.tb;

/** Byte offsets of the registers of 'sue' (generated from its description by RegisterMapFiles; do not edit). */
public final class SueRegs {
    private SueRegs() {
    }

    // id
    public static final int ID_MAGIC = 0x0;
    public static final int ID_VERSION = 0x4;

    // build
    public static final int BUILD_XPU_DATA_WIDTH = 0x400;
    public static final int BUILD_BUS_WIDTH = 0x404;
    public static final int BUILD_DESTINATIONS = 0x408;
    public static final int BUILD_PORTS = 0x40c;
    public static final int BUILD_HEADER_FORMAT = 0x410;
    public static final int BUILD_VLAN = 0x414;
    public static final int BUILD_LLR = 0x418;
    public static final int BUILD_FLOW_CONTROL = 0x41c;
    public static final int BUILD_COMMAND_INTERFACE = 0x420;
    public static final int BUILD_PDU_LIMIT = 0x424;
    public static final int BUILD_RTO_CYCLES = 0x428;
    public static final int BUILD_WINDOW_PDUS = 0x42c;
    public static final int BUILD_STORE_BYTES = 0x430;
    public static final int BUILD_RAW_FRAME_BYTES = 0x434;
    public static final int BUILD_RAW_RX_BUFFER_BYTES = 0x438;

    // ctrl
    public static final int CTRL_LOCAL_XPU = 0x800;
    public static final int CTRL_LOCAL_PARTITION = 0x804;
    public static final int CTRL_LOCAL_IP = 0x808;
    public static final int CTRL_LOCAL_MAC = 0x80c;
    public static final int CTRL_LLR_ENABLE = 0x814;
    public static final int CTRL_VC_READY = 0x818;

    // hdr_table
    public static final int HDR_TABLE_INDEX = 0xc00;
    public static final int HDR_TABLE_ENTRY_0 = 0xc04;
    public static final int HDR_TABLE_ENTRY_1 = 0xc08;
    public static final int HDR_TABLE_ENTRY_2 = 0xc0c;
    public static final int HDR_TABLE_ENTRY_3 = 0xc10;
    public static final int HDR_TABLE_ENTRY_4 = 0xc14;
    public static final int HDR_TABLE_ENTRY_5 = 0xc18;
    public static final int HDR_TABLE_ENTRY_6 = 0xc1c;
    public static final int HDR_TABLE_ENTRY_7 = 0xc20;
    public static final int HDR_TABLE_ENTRY_8 = 0xc24;
    public static final int HDR_TABLE_ENTRY_9 = 0xc28;
    public static final int HDR_TABLE_ENTRY_10 = 0xc2c;
    public static final int HDR_TABLE_WRITE = 0xc30;

    // irq
    public static final int IRQ_STATUS = 0x1000;
    public static final int IRQ_ENABLE = 0x1004;

    // cmd
    public static final int CMD_CREDIT_ERROR = 0x1400;
    public static final int CMD_DROPS_RESERVED_VALID = 0x1404;
    public static final int CMD_DROPS_NO_CREDIT = 0x1408;
    public static final int CMD_DROPS_BAD_COMMAND = 0x140c;
    public static final int CMD_DROPS_BAD_DESTINATION = 0x1410;
    public static final int CMD_DROPS_TX_ERR = 0x1414;
    public static final int CMD_DROPS_OVERFLOW = 0x1418;
    public static final int CMD_DROPS_SEQUENCE = 0x141c;
    public static final int CMD_DROPS_RESET = 0x1420;
    public static final int CMD_COMMANDS_ACCEPTED = 0x1424;
    public static final int CMD_INTERNAL_ERROR = 0x1428;
    public static final int CMD_OVERFLOW_ERROR = 0x142c;
    public static final int CMD_DST_ERROR = 0x1430;

    // rx
    public static final int RX_CREDIT_ERROR = 0x1800;
    public static final int RX_DROPS_UNKNOWN_TYPE = 0x1804;
    public static final int RX_DROPS_DATA_ON_TYPE_WITHOUT_DATA = 0x1808;
    public static final int RX_DROPS_DATA_TOO_LONG = 0x180c;
    public static final int RX_DROPS_RUNS_PAST_PDU = 0x1810;
    public static final int RX_CONTEXT_SWITCHES = 0x1814;
    public static final int RX_COMMANDS_DELIVERED = 0x1818;
    public static final int RX_DROPS_RESET = 0x181c;

    // net
    public static final int NET_DROPS_RUNT = 0x1c00;
    public static final int NET_DROPS_BAD_FCS = 0x1c04;
    public static final int NET_DROPS_TRUNCATED = 0x1c08;
    public static final int NET_DROPS_UNKNOWN_ETHERTYPE = 0x1c0c;
    public static final int NET_DROPS_UNKNOWN_UDP_PORT = 0x1c10;
    public static final int NET_DROPS_BAD_IP_HEADER = 0x1c14;
    public static final int NET_DROPS_WRONG_DESTINATION = 0x1c18;
    public static final int NET_DROPS_OVERSIZE_PDU = 0x1c1c;
    public static final int NET_DROPS_BAD_UDP_CHECKSUM = 0x1c20;
    public static final int NET_DROPS_BAD_RCRC = 0x1c24;
    public static final int NET_DROPS_UNSUPPORTED_RH_VERSION = 0x1c28;
    public static final int NET_DROPS_PARTITION_MISMATCH = 0x1c2c;
    public static final int NET_DROPS_MAC_ERROR = 0x1c30;
    public static final int NET_FRAMES_GOOD = 0x1c34;
    public static final int NET_DROPS_OVERFLOW = 0x1c38;
    public static final int NET_INTERNAL_ERROR = 0x1c3c;
    public static final int NET_FIFO_DROPS_JUDGED = 0x1c40;

    // tp_tx
    public static final int TP_TX_INIT_BUSY = 0x2000;
    public static final int TP_TX_ACKS_RECEIVED = 0x2004;
    public static final int TP_TX_NACKS_RECEIVED = 0x2008;
    public static final int TP_TX_ACKS_IGNORED = 0x200c;
    public static final int TP_TX_TIMEOUTS = 0x2010;
    public static final int TP_TX_GO_BACK_WAITS = 0x2014;
    public static final int TP_TX_PROBES = 0x2018;
    public static final int TP_TX_DST_UNREACHABLE_0 = 0x201c;
    public static final int TP_TX_DST_UNREACHABLE_1 = 0x2020;
    public static final int TP_TX_DST_UNREACHABLE_2 = 0x2024;
    public static final int TP_TX_DST_UNREACHABLE_3 = 0x2028;
    public static final int TP_TX_DST_UNREACHABLE_4 = 0x202c;
    public static final int TP_TX_DST_UNREACHABLE_5 = 0x2030;
    public static final int TP_TX_DST_UNREACHABLE_6 = 0x2034;
    public static final int TP_TX_DST_UNREACHABLE_7 = 0x2038;
    public static final int TP_TX_DST_UNREACHABLE_8 = 0x203c;
    public static final int TP_TX_DST_UNREACHABLE_9 = 0x2040;
    public static final int TP_TX_DST_UNREACHABLE_10 = 0x2044;
    public static final int TP_TX_DST_UNREACHABLE_11 = 0x2048;
    public static final int TP_TX_DST_UNREACHABLE_12 = 0x204c;
    public static final int TP_TX_DST_UNREACHABLE_13 = 0x2050;
    public static final int TP_TX_DST_UNREACHABLE_14 = 0x2054;
    public static final int TP_TX_DST_UNREACHABLE_15 = 0x2058;
    public static final int TP_TX_DST_UNREACHABLE_16 = 0x205c;
    public static final int TP_TX_DST_UNREACHABLE_17 = 0x2060;
    public static final int TP_TX_DST_UNREACHABLE_18 = 0x2064;
    public static final int TP_TX_DST_UNREACHABLE_19 = 0x2068;
    public static final int TP_TX_DST_UNREACHABLE_20 = 0x206c;
    public static final int TP_TX_DST_UNREACHABLE_21 = 0x2070;
    public static final int TP_TX_DST_UNREACHABLE_22 = 0x2074;
    public static final int TP_TX_DST_UNREACHABLE_23 = 0x2078;
    public static final int TP_TX_DST_UNREACHABLE_24 = 0x207c;
    public static final int TP_TX_DST_UNREACHABLE_25 = 0x2080;
    public static final int TP_TX_DST_UNREACHABLE_26 = 0x2084;
    public static final int TP_TX_DST_UNREACHABLE_27 = 0x2088;
    public static final int TP_TX_DST_UNREACHABLE_28 = 0x208c;
    public static final int TP_TX_DST_UNREACHABLE_29 = 0x2090;
    public static final int TP_TX_DST_UNREACHABLE_30 = 0x2094;
    public static final int TP_TX_DST_UNREACHABLE_31 = 0x2098;
    public static final int TP_TX_DESTINATIONS_LOST = 0x209c;
    public static final int TP_TX_DESTINATIONS_BACK = 0x20a0;
    public static final int TP_TX_GO_BACK_RESTARTS = 0x20a4;
    public static final int TP_TX_NACKS_IGNORED = 0x20a8;
    public static final int TP_TX_RETRANSMITTED_PDUS = 0x20ac;
    public static final int TP_TX_PDUS_SENT = 0x20b0;
    public static final int TP_TX_PDUS_HELD_FOR_RETRANSMISSION = 0x20b4;
    public static final int TP_TX_PDUS_RELOCATED = 0x20b8;
    public static final int TP_TX_ACK_ONLY_SENT = 0x20bc;
    public static final int TP_TX_ACKS_PIGGYBACKED = 0x20c0;
    public static final int TP_TX_STORE_USED_BEATS = 0x20c4;
    public static final int TP_TX_STORE_RECORDS = 0x20c8;
    public static final int TP_TX_RETRANSMITTING_ANY = 0x20cc;

    // tp_rx
    public static final int TP_RX_ACCEPTED = 0x2400;
    public static final int TP_RX_OUT_OF_ORDER_DROPPED = 0x2404;
    public static final int TP_RX_DUPLICATES_DROPPED = 0x2408;
    public static final int TP_RX_ACK_ONLY_RECEIVED = 0x240c;
    public static final int TP_RX_UNKNOWN_SOURCE_DROPPED = 0x2410;
    public static final int TP_RX_ACKS_SENT = 0x2414;
    public static final int TP_RX_NACKS_SENT = 0x2418;

    // llr
    public static final int LLR_TX_STATE = 0x2800;
    public static final int LLR_TX_INIT_CTL_OS = 0x2804;
    public static final int LLR_RX_INIT_ECHO_CTL_OS = 0x2808;
    public static final int LLR_RX_ACK_CTL_OS = 0x280c;
    public static final int LLR_RX_NACK_CTL_OS = 0x2810;
    public static final int LLR_RX_ACK_NACK_SEQ_ERROR = 0x2814;
    public static final int LLR_TX_DISCARD = 0x2818;
    public static final int LLR_TX_OK = 0x281c;
    public static final int LLR_TX_POISONED = 0x2820;
    public static final int LLR_TX_REPLAY = 0x2824;
    public static final int LLR_TX_REINIT = 0x2828;
    public static final int LLR_RX_STATE = 0x282c;
    public static final int LLR_RX_INIT_CTL_OS = 0x2830;
    public static final int LLR_TX_INIT_ECHO_CTL_OS = 0x2834;
    public static final int LLR_TX_ACK_CTL_OS = 0x2838;
    public static final int LLR_TX_NACK_CTL_OS = 0x283c;
    public static final int LLR_RX_OK = 0x2840;
    public static final int LLR_RX_POISONED = 0x2844;
    public static final int LLR_RX_BAD = 0x2848;
    public static final int LLR_RX_EXPECTED_SEQ_GOOD = 0x284c;
    public static final int LLR_RX_EXPECTED_SEQ_POISONED = 0x2850;
    public static final int LLR_RX_EXPECTED_SEQ_BAD = 0x2854;
    public static final int LLR_RX_MISSING_SEQ = 0x2858;
    public static final int LLR_RX_DUPLICATE_SEQ = 0x285c;
    public static final int LLR_RX_REPLAY = 0x2860;

    // cbfc
    public static final int CBFC_S_CU_0 = 0x2c00;
    public static final int CBFC_S_CC_0 = 0x2c04;
    public static final int CBFC_S_CF_0 = 0x2c08;
    public static final int CBFC_RESERVED_0 = 0x2c0c;
    public static final int CBFC_S_CU_WATERMARK_0 = 0x2c10;
    public static final int CBFC_S_CU_1 = 0x2c14;
    public static final int CBFC_S_CC_1 = 0x2c18;
    public static final int CBFC_S_CF_1 = 0x2c1c;
    public static final int CBFC_RESERVED_1 = 0x2c20;
    public static final int CBFC_S_CU_WATERMARK_1 = 0x2c24;
    public static final int CBFC_S_CU_2 = 0x2c28;
    public static final int CBFC_S_CC_2 = 0x2c2c;
    public static final int CBFC_S_CF_2 = 0x2c30;
    public static final int CBFC_RESERVED_2 = 0x2c34;
    public static final int CBFC_S_CU_WATERMARK_2 = 0x2c38;
    public static final int CBFC_S_CU_3 = 0x2c3c;
    public static final int CBFC_S_CC_3 = 0x2c40;
    public static final int CBFC_S_CF_3 = 0x2c44;
    public static final int CBFC_RESERVED_3 = 0x2c48;
    public static final int CBFC_S_CU_WATERMARK_3 = 0x2c4c;
    public static final int CBFC_S_P_CU = 0x2c50;
    public static final int CBFC_CF_UPDATES_RECEIVED = 0x2c54;
    public static final int CBFC_CF_UPDATE_ERRORS = 0x2c58;
    public static final int CBFC_CREDIT_OVERDRAWS = 0x2c5c;
    public static final int CBFC_CC_PHASE = 0x2c60;
    public static final int CBFC_CC_UPDATES_SENT = 0x2c64;
    public static final int CBFC_CC_UPDATES_RECEIVED = 0x2c68;
    public static final int CBFC_CC_FRAMES_DROPPED = 0x2c6c;
    public static final int CBFC_R_CC_0 = 0x2c70;
    public static final int CBFC_R_CF_0 = 0x2c74;
    public static final int CBFC_R_CC_1 = 0x2c78;
    public static final int CBFC_R_CF_1 = 0x2c7c;
    public static final int CBFC_R_CC_2 = 0x2c80;
    public static final int CBFC_R_CF_2 = 0x2c84;
    public static final int CBFC_R_CC_3 = 0x2c88;
    public static final int CBFC_R_CF_3 = 0x2c8c;
    public static final int CBFC_CC_CREDITS_RECOVERED = 0x2c90;
    public static final int CBFC_CF_UPDATES_SENT = 0x2c94;

    // mac
    public static final int MAC_CONTROL_FRAMES = 0x3400;

    // raw_tx
    public static final int RAW_TX_DATA = 0x3c00;
    public static final int RAW_TX_SEND = 0x3c04;
    public static final int RAW_TX_WORDS_DROPPED = 0x3c08;
    public static final int RAW_TX_REJECTED = 0x3c0c;
    public static final int RAW_TX_FRAMES = 0x3c10;
    public static final int RAW_TX_BUSY = 0x3c14;

    // raw_rx
    public static final int RAW_RX_FILTER_0 = 0x4000;
    public static final int RAW_RX_FILTER_1 = 0x4004;
    public static final int RAW_RX_FILTER_2 = 0x4008;
    public static final int RAW_RX_FILTER_3 = 0x400c;
    public static final int RAW_RX_HEAD = 0x4010;
    public static final int RAW_RX_DATA = 0x4014;
    public static final int RAW_RX_SKIP = 0x4018;
    public static final int RAW_RX_FRAMES = 0x401c;
    public static final int RAW_RX_BAD = 0x4020;
    public static final int RAW_RX_FULL = 0x4024;
    public static final int RAW_RX_INTERNAL_ERROR = 0x4028;
    public static final int RAW_RX_FRAMES_HELD = 0x402c;

    // port
    public static final int PORT_UP = 0x4400;
    public static final int PORT_WENT_DOWN = 0x4404;
    public static final int PORT_CAME_UP = 0x4408;

    // mgmt
    public static final int MGMT_RO_WRITES = 0x7c00;
    public static final int MGMT_DECODE_ERRORS = 0x7c04;
}
