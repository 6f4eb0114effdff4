package io.pfabric.dataplane.queue;

import io.pfabric.common.wire.PfabricHeaderFlyweight;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A deliberately simple model of pFabric-EDF's queue: two {@link ReferencePfabricQueue}s of half the buffer each, the
 * deadline one (DEADLINE flag or priority 0) served first. It shares no code with {@link PfabricEdfQueue}.
 */
public final class ReferencePfabricEdfQueue
{
    private final ReferencePfabricQueue deadlines;
    private final ReferencePfabricQueue others;

    /**
     * A model with the same limits as a {@link PfabricEdfQueue} of this capacity.
     *
     * @param capacityLength bytes the whole buffer may hold.
     * @param maxFrameLength longest frame accepted.
     * @param dropHandler    told of every drop.
     */
    public ReferencePfabricEdfQueue(final long capacityLength, final int maxFrameLength, final DropHandler dropHandler)
    {
        deadlines = new ReferencePfabricQueue(capacityLength / 2, maxFrameLength, dropHandler);
        others = new ReferencePfabricQueue(capacityLength / 2, maxFrameLength, dropHandler);
    }

    /**
     * Offer a frame.
     *
     * @param src       holding the frame.
     * @param srcOffset of the frame.
     * @param length    of the frame.
     * @param priority  smaller is more urgent.
     * @param flowId    flow identity.
     * @param flags     its pFabric header's flags.
     * @return true if buffered.
     */
    public boolean enqueue(final DirectBuffer src, final int srcOffset, final int length, final long priority,
        final long flowId, final int flags)
    {
        final boolean deadline = 0 != (flags & PfabricHeaderFlyweight.FLAG_DEADLINE) || priority <= 0;
        return (deadline ? deadlines : others).enqueue(src, srcOffset, length, priority, flowId);
    }

    /**
     * Take the next frame.
     *
     * @param dst       to copy into.
     * @param dstOffset where to copy.
     * @return the frame length, or 0 if empty.
     */
    public int dequeue(final MutableDirectBuffer dst, final int dstOffset)
    {
        final int length = deadlines.dequeue(dst, dstOffset);
        return 0 != length ? length : others.dequeue(dst, dstOffset);
    }

    /**
     * Frames buffered.
     *
     * @return the count.
     */
    public int packetCount()
    {
        return deadlines.packetCount() + others.packetCount();
    }

    /**
     * Bytes buffered.
     *
     * @return the byte count.
     */
    public long byteCount()
    {
        return deadlines.byteCount() + others.byteCount();
    }
}
