package org.sue.cmd.model;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.sue.cmd.CommandIngress;
import org.sue.cmd.CommandTable;

/**
 * Plain-Java reference of {@link CommandIngress}, beat by beat with no timing: which commands are handed on (their
 * packed bytes, destination, VC), which are dropped and why, and whether the XPU held the credits it used. It follows
 * the rules of the interface as docs/protocol.md section 11 and the class comment of {@link CommandIngress} state them; the
 * credits the XPU gets back are given to it as they are seen on {@code tx_credit} ({@link #returned}). Staging
 * overflow depends on timing and is not modelled: a run compared with this reference must not overflow.
 */
public final class CommandIngressReference {
    /** One cycle of the interface. {@code control}: the 18 tx_control bytes; {@code data}: the tx_data bytes. */
    public record Beat(int valid, int cycle, int vc, int xpuid, byte[] control, byte[] data, boolean err) {
    }

    /** A command handed to the packing buffer. */
    public record Accepted(int dst, int vc, boolean hasData, byte[] packed) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Accepted a && a.dst == dst && a.vc == vc && a.hasData == hasData
                    && Arrays.equals(a.packed, packed);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(packed) * 31 + dst * 4 + vc;
        }

        @Override
        public String toString() {
            return "Accepted[dst=" + dst + ", vc=" + vc + ", hasData=" + hasData + ", " + packed.length + " bytes]";
        }
    }

    public enum Drop { RESERVED_VALID, NO_CREDIT, BAD_COMMAND, BAD_DESTINATION, TX_ERR, OVERFLOW, SEQUENCE, RESET }

    private final CommandIngress.Config config;
    private final int beatBytes;
    private final XpuCredits credits;
    private final List<Accepted> accepted = new ArrayList<>();
    private final Map<Drop, Long> drops = new EnumMap<>(Drop.class);
    private boolean creditError;
    // the command in progress
    private boolean inCommand;
    private boolean skipping;
    private int expect;
    private int dataLeft;
    private int cmdDst;
    private int cmdVc;
    private boolean cmdHasData;
    private ByteArrayOutputStream packed;

    public CommandIngressReference(CommandIngress.Config config) {
        this.config = config;
        this.beatBytes = config.dataWidth() / 8;
        this.credits = new XpuCredits(config.cmdCredits(), config.dataCredits());
        for (Drop d : Drop.values()) {
            drops.put(d, 0L);
        }
    }

    public List<Accepted> accepted() {
        return accepted;
    }

    public long drops(Drop d) {
        return drops.get(d);
    }

    public boolean creditError() {
        return creditError;
    }

    /** Credits the XPU got back this cycle (-1: none of that kind). */
    public void returned(int cmdVc, int dataVc) {
        credits.give(cmdVc, dataVc);
    }

    /** tx_reset_in: the unfinished command is dropped; afterwards the XPU holds its initial credits. */
    public void reset() {
        if (inCommand) {
            drop(Drop.RESET);
            inCommand = false;
        }
        skipping = false;
        credits.reset();
    }

    public void cycle(Beat b) {
        if (b.valid() == 0) {
            return;
        }
        if (b.cycle() != 0) {
            continuation(b);
            return;
        }
        if (inCommand) { // a new command while data beats are owed
            drop(Drop.SEQUENCE);
            inCommand = false;
        }
        skipping = true; // unless the command starts below
        if (b.valid() == 3) {
            drop(Drop.RESERVED_VALID);
            return;
        }
        boolean withData = b.valid() == 2;
        if (!credits.take(b.vc(), withData)) {
            creditError = true;
            drop(Drop.NO_CREDIT);
            return;
        }
        int type = b.control()[0] & 0xff;
        int len = (b.control()[1] & 0xff) << 8 | (b.control()[2] & 0xff);
        CommandTable t = config.table();
        if (!t.defined(type) || len > CommandTable.MAX_DATA_BYTES || len > 0 && !t.hasData(type)
                || withData != (len > 0)) {
            drop(Drop.BAD_COMMAND);
            return;
        }
        if (b.xpuid() >= config.destinations()) {
            drop(Drop.BAD_DESTINATION);
            return;
        }
        if (b.err()) {
            drop(Drop.TX_ERR);
            return;
        }
        skipping = false;
        packed = new ByteArrayOutputStream();
        packed.write(type);
        packed.write(0);
        packed.write(len >> 8);
        packed.write(len);
        packed.write(b.control(), 3, t.controlBytes(type));
        cmdDst = b.xpuid();
        cmdVc = b.vc();
        cmdHasData = len > 0;
        dataLeft = len;
        expect = 1;
        inCommand = true;
        takeData(b.data());
    }

    private void continuation(Beat b) {
        if (!inCommand) {
            if (!skipping) {
                drop(Drop.SEQUENCE);
                skipping = true;
            }
            return;
        }
        inCommand = false;
        skipping = true;
        if (b.valid() == 3) {
            drop(Drop.RESERVED_VALID);
        } else if (b.cycle() != expect || b.valid() != 2) {
            drop(Drop.SEQUENCE);
        } else if (b.err()) {
            drop(Drop.TX_ERR);
        } else {
            skipping = false;
            inCommand = true;
            expect++;
            takeData(b.data());
        }
    }

    private void takeData(byte[] beat) {
        int n = Math.min(beatBytes, dataLeft);
        packed.write(beat, 0, n);
        dataLeft -= n;
        if (dataLeft == 0) {
            inCommand = false;
            if (packed.size() % 2 != 0) {
                packed.write(0);
            }
            accepted.add(new Accepted(cmdDst, cmdVc, cmdHasData, packed.toByteArray()));
        }
    }

    private void drop(Drop d) {
        drops.merge(d, 1L, Long::sum);
    }
}
