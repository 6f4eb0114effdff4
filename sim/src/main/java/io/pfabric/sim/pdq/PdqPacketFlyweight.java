package io.pfabric.sim.pdq;

import org.agrona.MutableDirectBuffer;

/**
 * A PDQ packet over a buffer: a 24-byte transport header (type, payload length, flow id, segment, a timestamp the
 * ACK echoes, the sender's RTT estimate), PDQ's 16-byte scheduling header (PDQ footnote 11: rate R_H, paused-by
 * P_H, deadline D_H and expected transmission time T_H, four bytes each; on an ACK D_H and T_H carry the
 * inter-probing time I_H and the RTT), the payload, and behind it the simulator's route record: the links the
 * forward packet crossed, which its ACK retraces. The route record is the simulator's, not on the wire:
 * {@link #wireLength()} ends before it.
 * <p>
 * Units: R_H in kb/s, P_H a link's id plus one (0 for none), D_H microseconds of absolute time (0 for no deadline),
 * T_H, I_H and the RTT nanoseconds, all saturating at {@link Integer#MAX_VALUE}.
 */
public final class PdqPacketFlyweight
{
    /**
     * Opens a flow, carrying the scheduling header so that data may follow one RTT later.
     */
    public static final byte TYPE_SYN = 1;
    /**
     * A data segment.
     */
    public static final byte TYPE_DATA = 2;
    /**
     * A paused flow's probe: the headers and no payload.
     */
    public static final byte TYPE_PROBE = 3;
    /**
     * Ends a flow: every link on its path forgets it.
     */
    public static final byte TYPE_TERM = 4;
    /**
     * The receiver's answer to any of the others, carrying the scheduling header back.
     */
    public static final byte TYPE_ACK = 5;

    /**
     * Bytes of the transport and scheduling headers.
     */
    public static final int HEADER_LENGTH = 40;
    /**
     * The most links a route record holds.
     */
    public static final int MAX_ROUTE_LINKS = 8;
    /**
     * Bytes of the route record.
     */
    public static final int ROUTE_LENGTH = 8 + 4 * MAX_ROUTE_LINKS;

    private static final int TYPE_OFFSET = 0;
    private static final int SELECTOR_OFFSET = 1;
    private static final int PAYLOAD_LENGTH_OFFSET = 2;
    private static final int FLOW_OFFSET = 4;
    private static final int SEQUENCE_OFFSET = 12;
    private static final int TIMESTAMP_OFFSET = 16;
    private static final int SENDER_RTT_OFFSET = 20;
    private static final int RATE_OFFSET = 24;
    private static final int PAUSED_BY_OFFSET = 28;
    private static final int DEADLINE_OFFSET = 32;
    private static final int EXPECTED_OFFSET = 36;
    private static final int ROUTE_COUNT = 0;
    private static final int ROUTE_CURSOR = 4;
    private static final int ROUTE_LINKS = 8;

    private MutableDirectBuffer buffer;
    private int offset;

    /**
     * View a packet.
     *
     * @param buffer holding it.
     * @param offset of its transport header.
     * @return this.
     */
    public PdqPacketFlyweight wrap(final MutableDirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    /**
     * Saturate a non-negative value to a four-byte field.
     *
     * @param value the value.
     * @return it, at most {@link Integer#MAX_VALUE}.
     */
    public static int saturate(final long value)
    {
        return (int)Math.min(Integer.MAX_VALUE, Math.max(0, value));
    }

    /**
     * Bytes on the wire: headers and payload, without the route record.
     *
     * @return bytes.
     */
    public int wireLength()
    {
        return HEADER_LENGTH + payloadLength();
    }

    /**
     * Bytes the packet occupies in its buffer, route record included.
     *
     * @return bytes.
     */
    public int bufferLength()
    {
        return wireLength() + ROUTE_LENGTH;
    }

    /**
     * Whether it travels from sender to receiver (anything but an ACK).
     *
     * @return true if forward.
     */
    public boolean isForward()
    {
        return TYPE_ACK != type();
    }

    /**
     * @return the packet's type.
     */
    public byte type()
    {
        return buffer.getByte(offset + TYPE_OFFSET);
    }

    /**
     * @param type the packet's type.
     * @return this.
     */
    public PdqPacketFlyweight type(final byte type)
    {
        buffer.putByte(offset + TYPE_OFFSET, type);
        return this;
    }

    /**
     * On an ACK, the type of the packet it answers; on a forward packet, 0 or the path it asks for plus one.
     *
     * @return the selector.
     */
    public int selector()
    {
        return buffer.getByte(offset + SELECTOR_OFFSET) & 0xFF;
    }

    /**
     * @param selector see {@link #selector()}.
     * @return this.
     */
    public PdqPacketFlyweight selector(final int selector)
    {
        buffer.putByte(offset + SELECTOR_OFFSET, (byte)selector);
        return this;
    }

    /**
     * @return payload bytes, 0 but for data.
     */
    public int payloadLength()
    {
        return buffer.getShort(offset + PAYLOAD_LENGTH_OFFSET) & 0xFFFF;
    }

    /**
     * @param length payload bytes.
     * @return this.
     */
    public PdqPacketFlyweight payloadLength(final int length)
    {
        buffer.putShort(offset + PAYLOAD_LENGTH_OFFSET, (short)length);
        return this;
    }

    /**
     * @return the flow.
     */
    public long flowId()
    {
        return buffer.getLong(offset + FLOW_OFFSET);
    }

    /**
     * @param flowId the flow.
     * @return this.
     */
    public PdqPacketFlyweight flowId(final long flowId)
    {
        buffer.putLong(offset + FLOW_OFFSET, flowId);
        return this;
    }

    /**
     * @return the segment a data packet carries or an ACK acknowledges.
     */
    public int sequence()
    {
        return buffer.getInt(offset + SEQUENCE_OFFSET);
    }

    /**
     * @param sequence see {@link #sequence()}.
     * @return this.
     */
    public PdqPacketFlyweight sequence(final int sequence)
    {
        buffer.putInt(offset + SEQUENCE_OFFSET, sequence);
        return this;
    }

    /**
     * @return the low 32 bits of the sender's clock when it sent the packet (an ACK echoes it).
     */
    public int timestamp()
    {
        return buffer.getInt(offset + TIMESTAMP_OFFSET);
    }

    /**
     * @param timestamp see {@link #timestamp()}.
     * @return this.
     */
    public PdqPacketFlyweight timestamp(final int timestamp)
    {
        buffer.putInt(offset + TIMESTAMP_OFFSET, timestamp);
        return this;
    }

    /**
     * @return the sender's RTT_S in nanoseconds, which the receiver returns in the ACK's T_H.
     */
    public int senderRttNs()
    {
        return buffer.getInt(offset + SENDER_RTT_OFFSET);
    }

    /**
     * @param rttNs see {@link #senderRttNs()}.
     * @return this.
     */
    public PdqPacketFlyweight senderRttNs(final int rttNs)
    {
        buffer.putInt(offset + SENDER_RTT_OFFSET, rttNs);
        return this;
    }

    /**
     * @return R_H, kb/s.
     */
    public int rateKbps()
    {
        return buffer.getInt(offset + RATE_OFFSET);
    }

    /**
     * @param rateKbps R_H.
     * @return this.
     */
    public PdqPacketFlyweight rateKbps(final int rateKbps)
    {
        buffer.putInt(offset + RATE_OFFSET, rateKbps);
        return this;
    }

    /**
     * @return P_H: the id plus one of the link that paused the flow, 0 for none.
     */
    public int pausedBy()
    {
        return buffer.getInt(offset + PAUSED_BY_OFFSET);
    }

    /**
     * @param pausedBy P_H.
     * @return this.
     */
    public PdqPacketFlyweight pausedBy(final int pausedBy)
    {
        buffer.putInt(offset + PAUSED_BY_OFFSET, pausedBy);
        return this;
    }

    /**
     * @return D_H, the deadline in microseconds of absolute time, 0 for none; on an ACK I_H in nanoseconds.
     */
    public int deadlineField()
    {
        return buffer.getInt(offset + DEADLINE_OFFSET);
    }

    /**
     * @param value D_H, or I_H on an ACK.
     * @return this.
     */
    public PdqPacketFlyweight deadlineField(final int value)
    {
        buffer.putInt(offset + DEADLINE_OFFSET, value);
        return this;
    }

    /**
     * @return T_H, the expected transmission time in nanoseconds; on an ACK the RTT in nanoseconds.
     */
    public int expectedField()
    {
        return buffer.getInt(offset + EXPECTED_OFFSET);
    }

    /**
     * @param value T_H, or the RTT on an ACK.
     * @return this.
     */
    public PdqPacketFlyweight expectedField(final int value)
    {
        buffer.putInt(offset + EXPECTED_OFFSET, value);
        return this;
    }

    /**
     * Start an empty route record behind the payload.
     *
     * @return this.
     */
    public PdqPacketFlyweight clearRoute()
    {
        final int route = offset + wireLength();
        buffer.putInt(route + ROUTE_COUNT, 0);
        buffer.putInt(route + ROUTE_CURSOR, 0);
        return this;
    }

    /**
     * Record a link the packet is about to cross.
     *
     * @param linkId the link.
     */
    public void appendLink(final int linkId)
    {
        final int route = offset + wireLength();
        final int count = buffer.getInt(route + ROUTE_COUNT);
        if (count >= MAX_ROUTE_LINKS)
        {
            throw new IllegalStateException("a PDQ route holds at most " + MAX_ROUTE_LINKS + " links");
        }
        buffer.putInt(route + ROUTE_LINKS + 4 * count, linkId);
        buffer.putInt(route + ROUTE_COUNT, count + 1);
        buffer.putInt(route + ROUTE_CURSOR, count + 1);
    }

    /**
     * @return how many links the route record holds.
     */
    public int routeCount()
    {
        return buffer.getInt(offset + wireLength() + ROUTE_COUNT);
    }

    /**
     * @return how many of the route's links an ACK has yet to retrace.
     */
    public int routeCursor()
    {
        return buffer.getInt(offset + wireLength() + ROUTE_CURSOR);
    }

    /**
     * @param cursor see {@link #routeCursor()}.
     */
    public void routeCursor(final int cursor)
    {
        buffer.putInt(offset + wireLength() + ROUTE_CURSOR, cursor);
    }

    /**
     * @param index from 0, the sender's first link.
     * @return the link.
     */
    public int routeLink(final int index)
    {
        return buffer.getInt(offset + wireLength() + ROUTE_LINKS + 4 * index);
    }

    /**
     * Copy another packet's route record into this one's, rewound so that it is retraced from its last link.
     *
     * @param from the packet whose route to copy.
     */
    public void copyRoute(final PdqPacketFlyweight from)
    {
        final int count = from.routeCount();
        final int route = offset + wireLength();
        buffer.putInt(route + ROUTE_COUNT, count);
        buffer.putInt(route + ROUTE_CURSOR, count);
        for (int i = 0; i < count; i++)
        {
            buffer.putInt(route + ROUTE_LINKS + 4 * i, from.routeLink(i));
        }
    }
}
