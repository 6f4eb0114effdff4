package io.pfabric.common.packet;

import org.agrona.DirectBuffer;

/**
 * Receives frames from a {@link PacketPort}'s receive ring. The view is valid only during the call.
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
    void onPacket(DirectBuffer buffer, int offset, int length);
}
