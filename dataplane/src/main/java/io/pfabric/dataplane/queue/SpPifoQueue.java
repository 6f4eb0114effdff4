package io.pfabric.dataplane.queue;

/**
 * SP-PIFO (Alcoz et al., NSDI 2020): a PIFO approximated by strict-priority FIFO queues whose bounds adapt to the
 * ranks that arrive. Each queue has a bound, all 0 at first. An arrival of rank r joins the least urgent queue whose
 * bound is at most r, and that bound becomes r; an arrival more urgent than every bound joins the most urgent queue and
 * every bound drops by the difference between that queue's bound and r. The bounds move on every arrival, before the
 * buffer decides whether it fits, as in a switch whose pipeline maps packets ahead of the queues. The rank is the
 * frame's priority number. By default the queues split the buffer equally with no sharing (SP-PIFO's pFabric
 * experiment: eight queues of ten packets); {@link BandQueue} says how a buffer with reserves is shared.
 */
public final class SpPifoQueue extends BandQueue
{
    /**
     * Name on the command line.
     */
    public static final String NAME = "sp-pifo";

    /**
     * Default buffer: eight queues of ten full frames, 120,000 bytes.
     */
    public static final long DEFAULT_CAPACITY_LENGTH = 120_000;

    private final long[] bounds;

    /**
     * An SP-PIFO queue whose queues split the buffer equally.
     *
     * @param capacityLength  bytes the buffer may hold.
     * @param maxFrameLength  longest frame accepted.
     * @param maxStoredLength most bytes of a frame stored.
     * @param queueCount      number of queues.
     */
    public SpPifoQueue(final long capacityLength, final int maxFrameLength, final int maxStoredLength,
        final int queueCount)
    {
        this(capacityLength, maxFrameLength, maxStoredLength, queueCount, capacityLength / Math.max(queueCount, 1));
    }

    /**
     * An SP-PIFO queue.
     *
     * @param capacityLength  bytes the buffer may hold.
     * @param maxFrameLength  longest frame accepted.
     * @param maxStoredLength most bytes of a frame stored.
     * @param queueCount      number of queues.
     * @param reservedLength  bytes each queue holds of its own; the rest of the buffer is shared.
     */
    public SpPifoQueue(final long capacityLength, final int maxFrameLength, final int maxStoredLength,
        final int queueCount, final long reservedLength)
    {
        super(capacityLength, maxFrameLength, maxStoredLength, queueCount, reservedLength);
        bounds = new long[queueCount];
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
     * A queue's bound now.
     *
     * @param band the queue, 0 the most urgent.
     * @return the bound.
     */
    public long bound(final int band)
    {
        return bounds[band];
    }

    protected int bandOf(final long priority)
    {
        for (int band = bounds.length - 1; band > 0; band--)
        {
            if (priority >= bounds[band])
            {
                bounds[band] = priority;
                return band;
            }
        }
        final long cost = bounds[0] - priority;
        if (cost > 0)
        {
            for (int band = 0; band < bounds.length; band++)
            {
                bounds[band] -= cost;
            }
        }
        else
        {
            bounds[0] = priority;
        }
        return 0;
    }
}
