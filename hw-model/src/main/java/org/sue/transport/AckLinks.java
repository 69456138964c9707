package org.sue.transport;

import org.sue.core.Expr;
import org.sue.core.Layout;
import org.sue.net.SueMeta;

/**
 * The payloads of the four links between a port's {@link TransportRx} and its {@link TransportTx}
 * (docs/protocol.md section 6):
 *
 * <ul>
 * <li>{@code peer_ack} (flow, receive to transmit): the {@code op}/{@code rpsn} of every PDU received from
 * {@code xpu} on {@code port};</li>
 * <li>{@code ack_query} (flow, transmit to receive): a PDU to {@code xpu} on {@code port} is being framed;</li>
 * <li>{@code ack_reply} (flow, receive to transmit, exactly one cycle after each query): the {@code op}/{@code rpsn}
 * it carries; the receiver counts the ACK or NACK as sent;</li>
 * <li>{@code ack_request} (stream, receive to transmit): send an ACK-only PDU to {@code xpu}.</li>
 * </ul>
 *
 * <p>An ACK-only PDU (section 6.3) is one beat whose first byte is 0x00 (an empty command list), {@code len}
 * {@value #ACK_ONLY_LEN}.
 */
public final class AckLinks {
    private AckLinks() {
    }

    public static final Layout PEER_ACK = Layout.of("peer_ack", Layout.bits("port", SueMeta.PORT.width()),
            Layout.bits("xpu", SueMeta.XPU_WIDTH), Layout.bits("op", SueMeta.OP.width()),
            Layout.bits("rpsn", SueMeta.PSN_WIDTH));
    public static final Layout ACK_QUERY = Layout.of("ack_query", Layout.bits("port", SueMeta.PORT.width()),
            Layout.bits("xpu", SueMeta.XPU_WIDTH));
    public static final Layout ACK_REPLY = Layout.of("ack_reply", Layout.bits("op", SueMeta.OP.width()),
            Layout.bits("rpsn", SueMeta.PSN_WIDTH));
    public static final Layout ACK_REQUEST = Layout.of("ack_request", Layout.bits("port", SueMeta.PORT.width()),
            Layout.bits("xpu", SueMeta.XPU_WIDTH));

    /** The length of an ACK-only PDU, bytes. */
    public static final int ACK_ONLY_LEN = 1;

    /** A PDU's first beat is an ACK-only PDU's: its first byte is 0x00. */
    static Expr ackOnly(Expr firstBeat) {
        return firstBeat.bits(Byte.SIZE - 1, 0).eq(0);
    }
}
