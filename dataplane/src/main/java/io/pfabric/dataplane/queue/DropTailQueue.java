package io.pfabric.dataplane.queue;

import org.agrona.DirectBuffer;

/**
 * First in, first out; an arrival that does not fit is dropped. The switch of the TCP baseline.
 */
public class DropTailQueue extends QueueDiscipline
{
    /**
     * Name on the command line.
     */
    public static final String NAME = "droptail";

    /**
     * Default buffer: 150 full frames, the TCP and DCTCP baselines of the pFabric simulations.
     */
    public static final long DEFAULT_CAPACITY_LENGTH = 225_000;

    private final int[] ring;
    private int head;
    private int tail;

    /**
     * A drop-tail queue for frames up to a 1500-byte MTU.
     *
     * @param capacityLength bytes the buffer may hold.
     */
    public DropTailQueue(final long capacityLength)
    {
        this(capacityLength, DEFAULT_MAX_FRAME_LENGTH);
    }

    /**
     * A drop-tail queue.
     *
     * @param capacityLength bytes the buffer may hold.
     * @param maxFrameLength longest frame accepted.
     */
    public DropTailQueue(final long capacityLength, final int maxFrameLength)
    {
        this(capacityLength, maxFrameLength, maxFrameLength);
    }

    /**
     * A drop-tail queue that stores at most the first bytes of each frame.
     *
     * @param capacityLength  bytes the buffer may hold.
     * @param maxFrameLength  longest frame accepted.
     * @param maxStoredLength most bytes of a frame stored.
     */
    public DropTailQueue(final long capacityLength, final int maxFrameLength, final int maxStoredLength)
    {
        super(capacityLength, maxFrameLength, maxStoredLength);
        ring = new int[slab.slotCount()];
    }

    /**
     * {@inheritDoc}
     */
    public String name()
    {
        return NAME;
    }

    protected boolean onEnqueue(
        final DirectBuffer src, final int srcOffset, final int length, final long priority, final long flowId)
    {
        if (!fits(length))
        {
            drop(src, srcOffset, length, DropReason.TAIL_DROP);
            return false;
        }
        final long occupancyBeforeLength = byteCount;
        final int slot = store(src, srcOffset, length);
        onAdmitted(slot, occupancyBeforeLength);
        ring[tail] = slot;
        tail = tail + 1 == ring.length ? 0 : tail + 1;
        return true;
    }

    protected int removeNext()
    {
        final int slot = ring[head];
        head = head + 1 == ring.length ? 0 : head + 1;
        return slot;
    }

    /**
     * Hook for a subclass to act on a frame just stored, before it is queued.
     *
     * @param slot                  holding the frame.
     * @param occupancyBeforeLength bytes buffered when the frame arrived, not counting it.
     */
    protected void onAdmitted(final int slot, final long occupancyBeforeLength)
    {
    }
}
