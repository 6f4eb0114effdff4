package io.pfabric.dataplane.queue;

import java.util.Arrays;

/**
 * Strict priority over FIFO queues chosen by priority thresholds: how pFabric is approximated with the few priority
 * queues of a commodity switch (the pFabric paper's §6). With thresholds t0 &lt; t1 &lt; … &lt; t(n-2), queue 0 holds
 * priority numbers below t0, queue i those in [t(i-1), t(i)), and the last queue everything from t(n-2) up. The
 * queues share the port's buffer as {@link BandQueue} says: §6.2 reserves 15 KB per queue of a 225 KB buffer.
 */
public final class StrictPriorityQueue extends BandQueue
{
    /**
     * Name on the command line.
     */
    public static final String NAME = "strict";

    /**
     * Default thresholds: eight queues split at remaining sizes of 10 KB, 20 KB, 50 KB, 100 KB, 1 MB, 10 MB and 100 MB.
     */
    public static final long[] DEFAULT_THRESHOLDS =
        { 10_000, 20_000, 50_000, 100_000, 1_000_000, 10_000_000, 100_000_000 };

    /**
     * Buffer of a port in §6.2: 225 KB (150 full frames).
     */
    public static final long DEFAULT_CAPACITY_LENGTH = 225_000;

    /**
     * Bytes reserved per queue in §6.2: 15 KB (10 full frames).
     */
    public static final long DEFAULT_RESERVED_LENGTH = 15_000;

    private final long[] thresholds;

    /**
     * A strict-priority queue for frames up to a 1500-byte MTU, its buffer shared in full.
     *
     * @param capacityLength bytes the buffer may hold, shared by all queues.
     * @param thresholds     strictly increasing priority numbers that split the queues.
     */
    public StrictPriorityQueue(final long capacityLength, final long[] thresholds)
    {
        this(capacityLength, DEFAULT_MAX_FRAME_LENGTH, thresholds);
    }

    /**
     * A strict-priority queue, its buffer shared in full.
     *
     * @param capacityLength bytes the buffer may hold, shared by all queues.
     * @param maxFrameLength longest frame accepted.
     * @param thresholds     strictly increasing priority numbers that split the queues.
     */
    public StrictPriorityQueue(final long capacityLength, final int maxFrameLength, final long[] thresholds)
    {
        this(capacityLength, maxFrameLength, maxFrameLength, thresholds, 0);
    }

    /**
     * A strict-priority queue that stores at most the first bytes of each frame.
     *
     * @param capacityLength  bytes the buffer may hold.
     * @param maxFrameLength  longest frame accepted.
     * @param maxStoredLength most bytes of a frame stored.
     * @param thresholds      strictly increasing priority numbers that split the queues.
     * @param reservedLength  bytes each queue holds of its own; the rest of the buffer is shared.
     */
    public StrictPriorityQueue(final long capacityLength, final int maxFrameLength, final int maxStoredLength,
        final long[] thresholds, final long reservedLength)
    {
        super(capacityLength, maxFrameLength, maxStoredLength, checked(thresholds).length + 1, reservedLength);
        this.thresholds = thresholds.clone();
    }

    /**
     * The reserve per queue of §6.2 for a buffer: 15 KB, unless the buffer cannot hold every queue's, then none.
     *
     * @param capacityLength the buffer, bytes.
     * @param queueCount     queues sharing it.
     * @return bytes reserved per queue.
     */
    public static long reservedLengthFor(final long capacityLength, final int queueCount)
    {
        return DEFAULT_RESERVED_LENGTH * queueCount <= capacityLength ? DEFAULT_RESERVED_LENGTH : 0;
    }

    private static long[] checked(final long[] thresholds)
    {
        for (int i = 1; i < thresholds.length; i++)
        {
            if (thresholds[i] <= thresholds[i - 1])
            {
                throw new IllegalArgumentException("thresholds must strictly increase: " +
                    Arrays.toString(thresholds));
            }
        }
        return thresholds;
    }

    /**
     * {@inheritDoc}
     */
    public String name()
    {
        return NAME;
    }

    /**
     * The thresholds.
     *
     * @return a copy.
     */
    public long[] thresholds()
    {
        return thresholds.clone();
    }

    /**
     * The queue a priority number falls in.
     *
     * @param priority number.
     * @return the queue index, 0 the most urgent.
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

    protected int bandOf(final long priority)
    {
        return band(priority);
    }
}
