package io.pfabric.dataplane.queue;

import org.agrona.DirectBuffer;

import java.util.Arrays;

/**
 * Strict priority over FIFO bands sharing one tail-dropped buffer: how pFabric is approximated with the few priority
 * queues of a commodity switch (the paper's §6 deployment discussion).
 * <p>
 * With thresholds t0 &lt; t1 &lt; … &lt; t(n-2), band 0 holds priority numbers below t0, band i those in
 * [t(i-1), t(i)), and the last band everything from t(n-2) up. Dequeue serves the lowest non-empty band.
 */
public final class StrictPriorityQueue extends QueueDiscipline
{
    /**
     * Name on the command line.
     */
    public static final String NAME = "strict";

    /**
     * Default thresholds: eight bands split at remaining sizes of 10 KB, 20 KB, 50 KB, 100 KB, 1 MB, 10 MB and 100 MB.
     */
    public static final long[] DEFAULT_THRESHOLDS =
        { 10_000, 20_000, 50_000, 100_000, 1_000_000, 10_000_000, 100_000_000 };

    private static final int NONE = -1;

    private final long[] thresholds;
    private final int[] bandHead;
    private final int[] bandTail;
    private final int[] slotNext;

    /**
     * A strict-priority queue for frames up to a 1500-byte MTU.
     *
     * @param capacityLength bytes the buffer may hold, shared by all bands.
     * @param thresholds     strictly increasing priority numbers that split the bands.
     */
    public StrictPriorityQueue(final long capacityLength, final long[] thresholds)
    {
        this(capacityLength, DEFAULT_MAX_FRAME_LENGTH, thresholds);
    }

    /**
     * A strict-priority queue.
     *
     * @param capacityLength bytes the buffer may hold, shared by all bands.
     * @param maxFrameLength longest frame accepted.
     * @param thresholds     strictly increasing priority numbers that split the bands.
     */
    public StrictPriorityQueue(final long capacityLength, final int maxFrameLength, final long[] thresholds)
    {
        this(capacityLength, maxFrameLength, maxFrameLength, thresholds);
    }

    /**
     * A strict-priority queue that stores at most the first bytes of each frame.
     *
     * @param capacityLength  bytes the buffer may hold, shared by all bands.
     * @param maxFrameLength  longest frame accepted.
     * @param maxStoredLength most bytes of a frame stored.
     * @param thresholds      strictly increasing priority numbers that split the bands.
     */
    public StrictPriorityQueue(final long capacityLength, final int maxFrameLength, final int maxStoredLength,
        final long[] thresholds)
    {
        super(capacityLength, maxFrameLength, maxStoredLength);
        for (int i = 1; i < thresholds.length; i++)
        {
            if (thresholds[i] <= thresholds[i - 1])
            {
                throw new IllegalArgumentException("thresholds must strictly increase: " +
                    Arrays.toString(thresholds));
            }
        }
        this.thresholds = thresholds.clone();
        final int bands = thresholds.length + 1;
        bandHead = new int[bands];
        bandTail = new int[bands];
        Arrays.fill(bandHead, NONE);
        Arrays.fill(bandTail, NONE);
        slotNext = new int[slab.slotCount()];
    }

    /**
     * {@inheritDoc}
     */
    public String name()
    {
        return NAME;
    }

    /**
     * Number of bands.
     *
     * @return the band count.
     */
    public int bandCount()
    {
        return bandHead.length;
    }

    /**
     * The band a priority number falls in.
     *
     * @param priority number.
     * @return the band index, 0 the most urgent.
     */
    public int band(final long priority)
    {
        int band = 0;
        while (band < thresholds.length && priority >= thresholds[band])
        {
            band++;
        }
        return band;
    }

    protected boolean onEnqueue(
        final DirectBuffer src, final int srcOffset, final int length, final long priority, final long flowId)
    {
        if (!fits(length))
        {
            drop(src, srcOffset, length, DropReason.TAIL_DROP);
            return false;
        }
        final int slot = store(src, srcOffset, length);
        final int band = band(priority);
        slotNext[slot] = NONE;
        if (NONE == bandTail[band])
        {
            bandHead[band] = slot;
        }
        else
        {
            slotNext[bandTail[band]] = slot;
        }
        bandTail[band] = slot;
        return true;
    }

    protected int removeNext()
    {
        int band = 0;
        while (NONE == bandHead[band])
        {
            band++;
        }
        final int slot = bandHead[band];
        bandHead[band] = slotNext[slot];
        if (NONE == bandHead[band])
        {
            bandTail[band] = NONE;
        }
        return slot;
    }
}
