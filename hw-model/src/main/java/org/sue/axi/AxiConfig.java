package org.sue.axi;

import java.util.ArrayList;
import java.util.List;
import org.sue.cmd.CommandBeat;
import org.sue.cmd.CommandTable;
import org.sue.core.Bound;
import org.sue.core.ConfigException;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Tag;
import org.sue.net.SueMeta;

/**
 * One AXI4 slave/master pair of the command interface (docs/protocol.md section 13): the widths of its channels, how
 * a request finds its destination XPU, and how many transactions one ID may have outstanding. Every layout the pair's
 * blocks and their testbenches use is built here, once: the channels ({@link #ax}, {@link #w}), the commands the
 * transactions travel as ({@link #requestControl}, {@link #commandTable}) and the blocks' own streams.
 *
 * @param dataWidth      AXI data bits, equal to the XPU data width N of the FIFO interface underneath
 * @param addrWidth      AxADDR bits
 * @param idWidth        AxID bits; one outstanding counter per ID and direction (registers)
 * @param userWidth      AxUSER bits, carried to the far side (0: none)
 * @param destinations   XPUs the instance reaches; a request to a higher XPU id is answered DECERR at once
 * @param dstFromUser    the destination XPU is AxUSER[9:0] (else AxADDR[dstLsb + 9 : dstLsb])
 * @param dstLsb         the address bit where the destination XPU id starts (with {@code dstFromUser} false)
 * @param maxOutstanding transactions one ID may have outstanding in one direction
 */
public record AxiConfig(@Tag("n") int dataWidth, @Tag("a") int addrWidth, @Tag("i") int idWidth,
                        @Tag("u") int userWidth, @Tag("d") int destinations, @Tag("du") boolean dstFromUser,
                        @Tag("dl") int dstLsb, @Tag("o") int maxOutstanding) {
    private static final String NAME = "AxiConfig";
    public static final Bound DATA_WIDTH = Bound.powerOfTwo(256, 1024).because("the XPU data width");
    public static final Bound ADDR_WIDTH = Bound.of(32, 64);
    public static final Bound ID_WIDTH = Bound.of(1, 8).because("an outstanding counter per ID is a register");
    public static final Bound USER_WIDTH = Bound.of(0, 16);
    public static final Bound MAX_OUTSTANDING = Bound.of(1, 15);

    /** AxBURST. */
    public static final int FIXED = 0;
    public static final int INCR = 1;
    public static final int WRAP = 2;
    /** xRESP. */
    public static final int OKAY = 0;
    public static final int EXOKAY = 1;
    public static final int SLVERR = 2;
    public static final int DECERR = 3;

    /** Command types of the AXI form (docs/protocol.md 13.2) [ours]. */
    public static final int WRITE = 1;
    public static final int WRITE_STROBED = 2;
    public static final int READ = 3;
    public static final int WRITE_RESPONSE = 4;
    public static final int READ_RESPONSE = 5;

    /** Requests travel on VC0, responses on VC1 (SUE spec 3.2.2). */
    public static final int REQUEST_VC = 0;
    public static final int RESPONSE_VC = 1;
    /**
     * Bits of an ID's epoch above AxID in the commands' ID (docs/protocol.md 13.3): bumped when the transport gives
     * up on the destination of the ID's outstanding transactions, so that their late responses are told apart.
     */
    public static final int EPOCH_BITS = 2;
    /** AxLEN + 1 of a burst told in one record: up to 256 beats. */
    public static final int BEATS_WIDTH = 9;
    /** Bits of the request control besides address, ID and user: len, size, burst, lock, cache, prot, qos, region, last. */
    static final int REQUEST_FIXED_BITS = 8 + 3 + 2 + 1 + 4 + 3 + 4 + 4 + 1;
    /** Bits a command's control can carry (docs/protocol.md 4.1). */
    static final int CONTROL_BITS = 16 * CommandTable.MAX_CONTROL_UNITS;

    public AxiConfig {
        DATA_WIDTH.check(NAME, "dataWidth", dataWidth);
        ADDR_WIDTH.check(NAME, "addrWidth", addrWidth);
        ID_WIDTH.check(NAME, "idWidth", idWidth);
        USER_WIDTH.check(NAME, "userWidth", userWidth);
        SueMeta.DESTINATIONS.check(NAME, "destinations", destinations);
        MAX_OUTSTANDING.check(NAME, "maxOutstanding", maxOutstanding);
        if (addrWidth + idWidth + userWidth + REQUEST_FIXED_BITS + EPOCH_BITS > CONTROL_BITS) {
            throw new ConfigException(NAME, "{addrWidth} + {idWidth} + {userWidth} must be at most "
                    + (CONTROL_BITS - REQUEST_FIXED_BITS - EPOCH_BITS) + " (a request's control is at most "
                    + CONTROL_BITS
                    + " bits), got " + (addrWidth + idWidth + userWidth));
        }
        if (dstFromUser && userWidth < SueMeta.XPU_WIDTH) {
            throw new ConfigException(NAME, "{userWidth} must be at least " + SueMeta.XPU_WIDTH
                    + " when {dstFromUser} is set (the destination is AxUSER[9:0]), got " + userWidth);
        }
        if (!dstFromUser && (dstLsb < 0 || dstLsb + SueMeta.XPU_WIDTH > addrWidth)) {
            throw new ConfigException(NAME, "{dstLsb} must be 0.." + (addrWidth - SueMeta.XPU_WIDTH)
                    + " (the destination is AxADDR[dstLsb + 9 : dstLsb] within {addrWidth}), got " + dstLsb);
        }
    }

    /** 48-bit addresses (the destination in bits 36..45: 64 GiB per XPU), 4-bit IDs, no user, 8 outstanding per ID. */
    public static AxiConfig defaults(int dataWidth, int destinations) {
        return new AxiConfig(dataWidth, 48, 4, 0, destinations, false, 36, 8);
    }

    /** Bytes of one data beat. */
    public int beatBytes() {
        return dataWidth / 8;
    }

    /** Beats of one command's data (256 bytes): a burst travels in parts of at most this many beats. */
    public int partBeats() {
        return CommandTable.MAX_DATA_BYTES / beatBytes();
    }

    /** AxSIZE of a full-width beat. */
    public int fullSize() {
        return Hw.log2Up(beatBytes());
    }

    /** Width of an outstanding count per ID. */
    public int countWidth() {
        return Hw.log2Up(maxOutstanding + 1);
    }

    /** AW and AR: the AXI4 address channel's fields, AxUSER last when there is one. */
    public Layout ax() {
        return ax(idWidth);
    }

    /** {@link #ax()} with an AxID of {@code idWidth} bits (the far master's remapped IDs). */
    public Layout ax(int idWidth) {
        List<Layout.Spec> f = new ArrayList<>(List.of(Layout.bits("addr", addrWidth), Layout.bits("id", idWidth),
                Layout.bits("len", 8), Layout.bits("size", 3), Layout.bits("burst", 2), Layout.bits("lock", 1),
                Layout.bits("cache", 4), Layout.bits("prot", 3), Layout.bits("qos", 4), Layout.bits("region", 4)));
        if (userWidth > 0) {
            f.add(Layout.bits("user", userWidth));
        }
        return Layout.of("ax", f);
    }

    /** W: data, strobes, last. */
    public Layout w() {
        return Layout.of("w", Layout.bits("data", dataWidth), Layout.bits("strb", dataWidth / 8),
                Layout.bits("last", 1));
    }

    /** B: ID and response. */
    public Layout b() {
        return b(idWidth);
    }

    /** {@link #b()} with a BID of {@code idWidth} bits. */
    public Layout b(int idWidth) {
        return Layout.of("b", Layout.bits("id", idWidth), Layout.bits("resp", 2));
    }

    /** R: data, ID, response, last. */
    public Layout r() {
        return r(idWidth);
    }

    /** Bits of the ID the commands carry: the ID's epoch, then AxID. */
    public int commandIdWidth() {
        return EPOCH_BITS + idWidth;
    }

    /** {@link #r()} with an RID of {@code idWidth} bits. */
    public Layout r(int idWidth) {
        return Layout.of("r", Layout.bits("data", dataWidth), Layout.bits("id", idWidth), Layout.bits("resp", 2),
                Layout.bits("last", 1));
    }

    /**
     * The control of a WRITE_RESPONSE command (one per WRITE or WRITE_STROBED part): the request's command ID, the part's
     * BRESP, and whether the part was the burst's last (the requester merges the parts' responses up to it).
     */
    public Layout writeResponseControl() {
        return Layout.of("write_response_control", Layout.bits("id", commandIdWidth()), Layout.bits("resp", 2),
                Layout.bits("last", 1));
    }

    /**
     * The control of a READ_RESPONSE command (one per READ part; its data the part's R beats): the request's command ID,
     * whether the part is the burst's last, and the response of each beat, beat k in bits [2k+1:2k].
     */
    public Layout readResponseControl() {
        return Layout.of("read_response_control", Layout.bits("id", commandIdWidth()), Layout.bits("last", 1),
                Layout.bits("resp", 2 * partBeats()));
    }

    /**
     * The control of a WRITE or READ command: one part of a burst as the far master issues it (its address, its
     * AxLEN, INCR for a WRAP part), its command ID ({@link #commandIdWidth}), the request's other fields unchanged, and
     * whether it is the burst's last part.
     */
    public Layout requestControl() {
        List<Layout.Spec> f = new ArrayList<>(ax(commandIdWidth()).fields().stream()
                .map(x -> Layout.bits(x.name(), x.width())).toList());
        f.add(Layout.bits("last", 1));
        return Layout.of("request_control", f);
    }

    /** A part of a burst between the blocks of one side: the request control, its destination and its answer. */
    public Layout part() {
        return Layout.of("part", Layout.nested("control", requestControl()), Layout.bits("dst", SueMeta.XPU_WIDTH),
                Layout.bits("resp", 2));
    }

    /** A request answered by SUE itself (DECERR, SLVERR): B, or {@code beats} R beats, with this response. */
    public Layout localResponse() {
        return Layout.of("local_response", Layout.bits("write", 1), Layout.bits("id", idWidth),
                Layout.bits("resp", 2), Layout.bits("beats", BEATS_WIDTH));
    }

    /** A response the response side has begun to give: its direction (write: a B) and ID. */
    public Layout committed() {
        return Layout.of("committed", Layout.bits("write", 1), Layout.bits("id", idWidth));
    }

    /** A command beat toward or from the FIFO interface ({@link CommandBeat}). */
    public Layout commandBeat() {
        return CommandBeat.layout(dataWidth);
    }

    /** Control units (2 bytes) of a WRITE or READ command. */
    public int requestUnits() {
        return (requestControl().width() + 15) / 16;
    }

    /** Bytes of the strobes of one part's beats: one bit a data byte. */
    public int strobeBytes(int beats) {
        return beats * beatBytes() / 8;
    }

    /** Beats of a WRITE_STROBED command: its first data beat carries the strobes, so one fewer than a part. */
    public int strobedBeats() {
        return partBeats() - 1;
    }

    /** The command types of the AXI form, with this pair's control lengths. */
    public CommandTable commandTable() {
        int responseUnits = (writeResponseControl().width() + 15) / 16;
        int readResponseUnits = (readResponseControl().width() + 15) / 16;
        return new CommandTable().define(WRITE, requestUnits(), true).define(WRITE_STROBED, requestUnits(), true)
                .define(READ, requestUnits(), false).define(WRITE_RESPONSE, responseUnits, false)
                .define(READ_RESPONSE, readResponseUnits, true);
    }
}
