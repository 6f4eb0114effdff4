package io.pfabric.sim;

/**
 * The length a data packet is accounted at by queues and pacers, in place of the frame's own length: the
 * packet-size mix of a scenario whose transport carries fixed-size segments.
 */
@FunctionalInterface
public interface PacketSizer
{
    /**
     * @param flowId      the flow.
     * @param offsetBytes the segment's offset in the flow.
     * @return bytes, without FCS, preamble and gap.
     */
    int frameLength(long flowId, long offsetBytes);
}
