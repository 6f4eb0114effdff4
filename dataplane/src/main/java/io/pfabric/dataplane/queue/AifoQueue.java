package io.pfabric.dataplane.queue;

import org.agrona.DirectBuffer;

/**
 * AIFO (Yu et al., SIGCOMM 2021): one FIFO that admits an arrival by where its rank stands among recent ranks, and
 * never reorders. A window holds the ranks of the last W sampled arrivals, one arrival in S sampled. With c bytes
 * buffered of a capacity C, an arrival is admitted while c is at most k × C (the headroom); beyond that only if the
 * fraction of ranks in the window strictly below its own is at most (C - c) / ((1 - k) × C). A refused arrival is
 * dropped as {@link DropReason#RANK_ADMISSION}; one that passes but does not fit, as {@link DropReason#TAIL_DROP}. An
 * arrival is sampled after its own admission is decided, whether or not it was admitted. The rank is the frame's
 * priority number; c and C are bytes, so that with full frames they are the paper's packet counts times the frame
 * length.
 */
public final class AifoQueue extends QueueDiscipline
{
    /**
     * Name on the command line.
     */
    public static final String NAME = "aifo";

    /**
     * Default buffer: C = 20 full frames, 30,000 bytes (AIFO's pFabric experiment).
     */
    public static final long DEFAULT_CAPACITY_LENGTH = 30_000;

    private final int[] ring;
    private final long[] window;
    private final double headroom;
    private final int sampleEvery;
    private final double headroomLength;
    private int head;
    private int tail;
    private int windowCount;
    private int windowNext;
    private int sinceSample;

    /**
     * An AIFO queue.
     *
     * @param capacityLength  C, bytes the buffer may hold.
     * @param maxFrameLength  longest frame accepted.
     * @param maxStoredLength most bytes of a frame stored.
     * @param headroom        k, in (0, 1).
     * @param windowRanks     W, ranks in the window, at least 1.
     * @param sampleEvery     S, one arrival in S sampled, at least 1.
     */
    public AifoQueue(final long capacityLength, final int maxFrameLength, final int maxStoredLength,
        final double headroom, final int windowRanks, final int sampleEvery)
    {
        super(capacityLength, maxFrameLength, maxStoredLength);
        if (!(headroom > 0 && headroom < 1))
        {
            throw new IllegalArgumentException("headroom k must be in (0, 1), got " + headroom);
        }
        if (windowRanks < 1 || sampleEvery < 1)
        {
            throw new IllegalArgumentException("windowRanks and sampleEvery must be at least 1, got " + windowRanks +
                " and " + sampleEvery);
        }
        this.headroom = headroom;
        this.sampleEvery = sampleEvery;
        this.headroomLength = headroom * capacityLength;
        ring = new int[slab.slotCount()];
        window = new long[windowRanks];
    }

    protected boolean learnsFromArrivals()
    {
        return true;
    }

    /**
     * {@inheritDoc}
     */
    public String name()
    {
        return NAME;
    }

    /**
     * Ranks in the window now.
     *
     * @return 0 to W.
     */
    public int windowCount()
    {
        return windowCount;
    }

    protected boolean onEnqueue(
        final DirectBuffer src, final int srcOffset, final int length, final long priority, final long flowId)
    {
        final boolean admitted = admits(priority);
        if (0 == sinceSample)
        {
            window[windowNext] = priority;
            windowNext = windowNext + 1 == window.length ? 0 : windowNext + 1;
            windowCount = Math.min(windowCount + 1, window.length);
        }
        sinceSample = sinceSample + 1 == sampleEvery ? 0 : sinceSample + 1;
        if (!admitted)
        {
            drop(src, srcOffset, length, DropReason.RANK_ADMISSION);
            return false;
        }
        if (!fits(length))
        {
            drop(src, srcOffset, length, DropReason.TAIL_DROP);
            return false;
        }
        ring[tail] = store(src, srcOffset, length);
        tail = tail + 1 == ring.length ? 0 : tail + 1;
        return true;
    }

    private boolean admits(final long priority)
    {
        if (byteCount <= headroomLength || 0 == windowCount)
        {
            return true;
        }
        int below = 0;
        for (int i = 0; i < windowCount; i++)
        {
            if (window[i] < priority)
            {
                below++;
            }
        }
        return (double)below / windowCount <= (capacityLength - byteCount) / ((1 - headroom) * capacityLength);
    }

    protected int removeNext()
    {
        final int slot = ring[head];
        head = head + 1 == ring.length ? 0 : head + 1;
        return slot;
    }
}
