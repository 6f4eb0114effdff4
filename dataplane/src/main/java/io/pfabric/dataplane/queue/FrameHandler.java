package io.pfabric.dataplane.queue;

import org.agrona.DirectBuffer;

/**
 * Receives the frame a {@link QueueDiscipline} hands to the wire, as a view of its slot: the bytes are valid only
 * during the call. A port writes them straight into its transmit ring, so the frame is copied once on the way out.
 */
@FunctionalInterface
public interface FrameHandler
{
    /**
     * The next frame for the wire.
     *
     * @param buffer holding the frame.
     * @param offset of the frame in the buffer.
     * @param length of the frame in bytes (of which only the stored bytes are there, for a frame enqueued with
     *               fewer).
     */
    void onFrame(DirectBuffer buffer, int offset, int length);
}
