package io.pfabric.dataplane.queue;

import org.agrona.DirectBuffer;

/**
 * Called by a {@link QueueDiscipline} for every frame it drops, while the frame's bytes are still readable.
 * Implementations run on the packet path: they must not allocate or block.
 */
@FunctionalInterface
public interface DropHandler
{
    /**
     * A handler that ignores drops; they are still counted.
     */
    DropHandler NONE = (buffer, offset, length, reason) -> {};

    /**
     * A frame was dropped.
     *
     * @param buffer holding the dropped frame.
     * @param offset of the frame in the buffer.
     * @param length of the frame in bytes (of which only the stored bytes are there, for a frame enqueued with
     *               fewer).
     * @param reason for the drop.
     */
    void onDrop(DirectBuffer buffer, int offset, int length, DropReason reason);
}
