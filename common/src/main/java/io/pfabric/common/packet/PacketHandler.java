package io.pfabric.common.packet;

import org.agrona.MutableDirectBuffer;

/**
 * Receives frames from a {@link PacketPort}'s receive ring. The view is valid only during the call and may be
 * modified in place (the ring frame belongs to this process until the call returns).
 */
@FunctionalInterface
public interface PacketHandler
{
    /**
     * A frame arrived.
     *
     * @param buffer holding the frame.
     * @param offset of the Ethernet header.
     * @param length of the frame, without FCS.
     */
    void onPacket(MutableDirectBuffer buffer, int offset, int length);
}
