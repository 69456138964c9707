package org.sue.cmd;

import org.sue.core.Layout;
import org.sue.net.SueMeta;

/**
 * The tuser of one packed command on its way from {@link CommandIngress} to the {@link PackingBuffer}
 * ({@link #LAYOUT}, least significant first): destination XPU, VC, packed bytes, whether it has data.
 */
public record CommandUser(boolean hasData, int bytes, int vc, int dst) {
    /** Width of the packed-bytes field: a command has at most {@link PackedCommand#MAX_PACKED_BYTES} (274). */
    public static final int BYTES_WIDTH = 9;

    public static final Layout LAYOUT = Layout.of("command_user", Layout.bits("dst", SueMeta.XPU_WIDTH),
            Layout.bits("vc", SueMeta.VC_WIDTH), Layout.bits("bytes", BYTES_WIDTH), Layout.bits("has_data", 1));
    public static final int WIDTH = LAYOUT.width();
    public static final Layout.Field DST = LAYOUT.field("dst");
    public static final Layout.Field VC = LAYOUT.field("vc");
    public static final Layout.Field BYTES = LAYOUT.field("bytes");
    public static final Layout.Field HAS_DATA = LAYOUT.field("has_data");

    public long pack() {
        return LAYOUT.pack(this).longValue();
    }

    public static CommandUser unpack(long user) {
        return LAYOUT.unpack(user, CommandUser.class);
    }
}
