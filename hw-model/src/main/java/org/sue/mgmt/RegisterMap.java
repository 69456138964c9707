package org.sue.mgmt;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.sue.core.Described;
import org.sue.core.Hw;

/**
 * A register map, described once: blocks of 32-bit registers, each register a list of fields with an access type,
 * a reset value and a description. The register block's RTL ({@link MgmtRegisters}), the docs, the C header, the
 * SystemRDL and the JSON description are all made from this one description.
 *
 * <p>Addresses: a block in slot {@code s} starts at {@code s * blockStride()}; blocks take consecutive slots unless
 * placed ({@link Builder#blockAt}); the stride is a power of two, at least 256 bytes and large enough for the largest
 * block, unless set ({@link Builder#stride}). A block's registers are at consecutive 4-byte offsets in the order they
 * were added. A map that places its blocks and sets its stride keeps every block's base across configurations. A register wider
 * than 32 bits (one field of up to 128 bits) takes consecutive words, least significant word first; how its words are
 * read and written together is {@link MgmtRegisters}'s atomicity rule.
 *
 * <p>Every map ends with the block {@code mgmt}, the register block's own counters ({@link #RO_WRITES},
 * {@link #DECODE_ERRORS}).
 */
public final class RegisterMap implements Described {
    /** Bits of a register word. */
    public static final int WORD_BITS = 32;
    /** Widest field (a wide register's one field). */
    public static final int MAX_FIELD_BITS = 128;
    /** The register block's own block and its counters (driven inside {@link MgmtRegisters}). */
    public static final String OWN_BLOCK = "mgmt";
    public static final String RO_WRITES = "ro_writes";
    public static final String DECODE_ERRORS = "decode_errors";

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*");

    /** One field: its bits in the register (a wide register's one field starts at 0), access, reset, meaning. */
    public record Field(String name, int lsb, int width, Access access, long reset, String description) {
        public Field {
            checkName("field", name);
            if (width < 1 || width > MAX_FIELD_BITS) {
                throw new IllegalArgumentException("field '" + name + "' width must be 1.." + MAX_FIELD_BITS
                        + ", got " + width);
            }
            if (lsb < 0 || (width <= WORD_BITS ? lsb + width > WORD_BITS : lsb != 0)) {
                throw new IllegalArgumentException("field '" + name + "' bits [" + (lsb + width - 1) + ":" + lsb
                        + "] do not fit a " + WORD_BITS + "-bit register (a wider field is alone, from bit 0)");
            }
            if (width < 64 && reset >>> width != 0 || reset != 0 && (access.sticky() || access == Access.WO
                    || access == Access.CNT)) {
                throw new IllegalArgumentException("field '" + name + "' reset value " + reset + " does not fit "
                        + width + " bits, or is not 0 for a " + access + " field");
            }
            if (width > WORD_BITS && access != Access.RO && access != Access.RW) {
                throw new IllegalArgumentException("field '" + name + "' wider than " + WORD_BITS
                        + " bits must be RO or RW");
            }
            checkDescription(name, description);
        }

        /** Bit mask of the field in its register word (fields of one word). */
        public long mask() {
            return (width >= 64 ? -1L : (1L << width) - 1) << lsb;
        }
    }

    /** One register: its byte offset in the map, its words (1 unless a wide field), fields and meaning. */
    public record Register(String block, String name, int offset, int words, List<Field> fields, String description) {
        public Register {
            fields = List.copyOf(fields);
        }

        /** Whether no software write changes it. */
        public boolean readOnly() {
            return fields.stream().noneMatch(f -> f.access().writable());
        }

        /** The name of the hardware port of {@code f}: block, register and field, without repeating a name. */
        public String portName(Field f) {
            String reg = block + "_" + name;
            return f.name().equals(name) ? reg : reg + "_" + f.name();
        }
    }

    /** One block: its name, base address, registers and what it is. */
    public record Block(String name, int base, List<Register> registers, String description) {
        public Block {
            registers = List.copyOf(registers);
        }
    }

    private final String name;
    private final List<Block> blocks;
    private final int blockStride;

    private RegisterMap(String name, List<Block> blocks, int blockStride) {
        this.name = name;
        this.blocks = List.copyOf(blocks);
        this.blockStride = blockStride;
    }

    public static Builder builder(String name) {
        checkName("map", name);
        return new Builder(name);
    }

    public String name() {
        return name;
    }

    public List<Block> blocks() {
        return blocks;
    }

    /** Bytes between two blocks' bases. */
    public int blockStride() {
        return blockStride;
    }

    /** Bytes the map spans (a power of two). */
    public int span() {
        return 1 << Hw.log2Up((long) blockStride * (blocks.get(blocks.size() - 1).base() / blockStride + 1));
    }

    public List<Register> registers() {
        return blocks.stream().flatMap(b -> b.registers().stream()).toList();
    }

    public Register register(String block, String register) {
        return find(block, register).orElseThrow(() -> new IllegalArgumentException("no register " + block + "."
                + register + " in " + name));
    }

    /** Whether the map has register {@code block.register} (a configuration's map may lack one). */
    public boolean has(String block, String register) {
        return find(block, register).isPresent();
    }

    private java.util.Optional<Register> find(String block, String register) {
        return registers().stream().filter(r -> r.block().equals(block) && r.name().equals(register)).findFirst();
    }

    @Override
    public String moduleTag() {
        return name;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(name);
        for (Register r : registers()) {
            s.append(';').append(r.block()).append('.').append(r.name()).append('@').append(r.offset());
            for (Field f : r.fields()) {
                s.append(',').append(f.name()).append(':').append(f.lsb()).append('+').append(f.width()).append(':')
                        .append(f.access()).append('=').append(f.reset());
            }
        }
        return s.toString();
    }

    private static void checkName(String what, String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(what + " name '" + name + "' must be lower case letters, digits and"
                    + " '_', starting with a letter");
        }
    }

    private static void checkDescription(String name, String description) {
        if (description == null || description.isBlank()) {
            throw new IllegalArgumentException("'" + name + "' needs a description");
        }
    }

    /** Builds a map block by block, register by register. */
    public static final class Builder {
        private final String name;
        private final Map<String, PendingBlock> blocks = new LinkedHashMap<>();
        private PendingBlock current;
        private int nextSlot;
        private int ownSlot = -1;
        private int stride;

        private Builder(String name) {
            this.name = name;
        }

        private record PendingBlock(String name, int slot, String description, List<PendingRegister> registers) { }

        private record PendingRegister(String name, String description, List<Field> fields) { }

        /** Starts a block in the next slot; the registers added next belong to it. */
        public Builder block(String blockName, String description) {
            return blockAt(nextSlot, blockName, description);
        }

        /** Starts a block in slot {@code slot} (after every slot used so far). */
        public Builder blockAt(int slot, String blockName, String description) {
            if (slot < nextSlot) {
                throw new IllegalArgumentException("block '" + blockName + "' slot " + slot + " is taken: slots from "
                        + nextSlot + " are free");
            }
            checkName("block", blockName);
            checkDescription(blockName, description);
            if (blocks.containsKey(blockName) || blockName.equals(OWN_BLOCK)) {
                throw new IllegalArgumentException("block '" + blockName + "' is already in map " + name);
            }
            current = new PendingBlock(blockName, slot, description, new ArrayList<>());
            blocks.put(blockName, current);
            nextSlot = slot + 1;
            return this;
        }

        /** Bytes between two blocks' bases (a power of two, at least 256), instead of what the largest block needs. */
        public Builder stride(int bytes) {
            if (bytes < 256 || Integer.bitCount(bytes) != 1) {
                throw new IllegalArgumentException("stride must be a power of two of at least 256 bytes, got " + bytes);
            }
            stride = bytes;
            return this;
        }

        /** The slot of block {@code mgmt} (default: the one after the last block). */
        public Builder ownBlockAt(int slot) {
            ownSlot = slot;
            return this;
        }

        /** A register of one field of the register's name (bits from 0; wider than 32 takes several words). */
        public Builder value(String regName, int width, Access access, long reset, String description) {
            return register(regName, description, new Field(regName, 0, width, access, reset, description));
        }

        /** A register of the given fields. */
        public Builder register(String regName, String description, Field... fields) {
            if (current == null) {
                throw new IllegalStateException("register '" + regName + "' added before any block");
            }
            checkName("register", regName);
            checkDescription(regName, description);
            if (fields.length == 0) {
                throw new IllegalArgumentException("register '" + regName + "' needs a field");
            }
            long used = 0;
            Set<String> names = new HashSet<>();
            for (Field f : fields) {
                if (f.access() == Access.CNT && (fields.length > 1 || f.width() != WORD_BITS)) {
                    throw new IllegalArgumentException("register '" + regName + "': a CNT field is a whole register"
                            + " of " + WORD_BITS + " bits");
                }
                if (f.width() > WORD_BITS && fields.length > 1) {
                    throw new IllegalArgumentException("register '" + regName + "': a field wider than "
                            + WORD_BITS + " bits must be the register's only field");
                }
                if (f.width() <= WORD_BITS && (used & f.mask()) != 0 || !names.add(f.name())) {
                    throw new IllegalArgumentException("register '" + regName + "': field '" + f.name()
                            + "' overlaps or repeats another field");
                }
                used |= f.width() <= WORD_BITS ? f.mask() : 0;
            }
            if (current.registers().stream().anyMatch(r -> r.name().equals(regName))) {
                throw new IllegalArgumentException("register '" + regName + "' is already in block "
                        + current.name());
            }
            current.registers().add(new PendingRegister(regName, description, List.of(fields)));
            return this;
        }

        public RegisterMap build() {
            int own = ownSlot >= 0 ? ownSlot : nextSlot;
            if (own < nextSlot) {
                throw new IllegalArgumentException("block " + OWN_BLOCK + " slot " + own + " is taken: slots from "
                        + nextSlot + " are free");
            }
            String count = "Writes to a read-only register (ignored), saturating";
            String decode = "Reads and writes of an address no register holds (answered DECERR), saturating";
            PendingBlock mine = new PendingBlock(OWN_BLOCK, own, "The management port's own counters", List.of(
                    new PendingRegister(RO_WRITES, count, List.of(new Field(RO_WRITES, 0, WORD_BITS, Access.RO, 0,
                            count))),
                    new PendingRegister(DECODE_ERRORS, decode, List.of(new Field(DECODE_ERRORS, 0, WORD_BITS,
                            Access.RO, 0, decode)))));
            List<PendingBlock> all = new ArrayList<>(blocks.values());
            all.add(mine);
            int largest = all.stream().mapToInt(b -> b.registers().stream().mapToInt(r -> words(r)).sum()).max()
                    .orElse(1);
            int needed = Math.max(256, 1 << Hw.log2Up(4L * largest));
            if (stride != 0 && stride < needed) {
                throw new IllegalArgumentException("map " + name + ": a block of " + largest + " words needs a stride"
                        + " of " + needed + " bytes, set " + stride);
            }
            int s = stride != 0 ? stride : needed;
            List<Block> built = new ArrayList<>();
            for (PendingBlock p : all) {
                int offset = p.slot() * s;
                List<Register> regs = new ArrayList<>();
                for (PendingRegister r : p.registers()) {
                    regs.add(new Register(p.name(), r.name(), offset, words(r), r.fields(), r.description()));
                    offset += 4 * words(r);
                }
                built.add(new Block(p.name(), p.slot() * s, regs, p.description()));
            }
            return new RegisterMap(name, built, s);
        }

        private static int words(PendingRegister r) {
            return (r.fields().get(0).width() + WORD_BITS - 1) / WORD_BITS;
        }
    }
}
