package io.pfabric.hostd.transport;

import io.pfabric.common.wire.PfabricHeaderFlyweight;

/**
 * What a {@link FlowSender} wants sent next, filled in by {@link FlowSender#nextPacket(long, OutboundPacket)}: one
 * mutable instance is reused for every packet.
 */
public final class OutboundPacket
{
    int type;
    long offsetBytes;
    int payloadLength;
    long priority;
    boolean deadline;
    boolean fin;

    /**
     * {@link PfabricHeaderFlyweight#TYPE_DATA} or {@link PfabricHeaderFlyweight#TYPE_PROBE}.
     *
     * @return the packet type.
     */
    public int type()
    {
        return type;
    }

    /**
     * Where the payload sits in the flow.
     *
     * @return byte offset.
     */
    public long offsetBytes()
    {
        return offsetBytes;
    }

    /**
     * Payload bytes: a whole segment for data (the last one may be shorter), 1 for a probe.
     *
     * @return the length.
     */
    public int payloadLength()
    {
        return payloadLength;
    }

    /**
     * The priority number the packet carries.
     *
     * @return 0 to 2^32 - 1, smaller is more urgent.
     */
    public long priority()
    {
        return priority;
    }

    /**
     * Whether the priority is a deadline (the DEADLINE flag).
     *
     * @return true for a packet of a deadline flow not demoted.
     */
    public boolean deadline()
    {
        return deadline;
    }

    /**
     * Whether this is the flow's last segment.
     *
     * @return true for the last segment.
     */
    public boolean fin()
    {
        return fin;
    }
}
