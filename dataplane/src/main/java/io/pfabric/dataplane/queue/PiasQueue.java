package io.pfabric.dataplane.queue;

/**
 * The PIAS switch (Bai et al., NSDI 2015): strict-priority FIFO queues chosen by the DSCP the sending host wrote (queue
 * = min(DSCP, N - 1), DSCP 0 the most urgent), each marking ECN Congestion Experienced on an ECN-capable IPv4 arrival
 * that finds more than K bytes in its own queue. Hosts tag their packets by the bytes their flow has sent and run
 * DCTCP; the switch needs no flow sizes. One buffer shared first come first served ({@link BandQueue} with no
 * reserves).
 */
public final class PiasQueue extends BandQueue
{
    /**
     * Name on the command line.
     */
    public static final String NAME = "pias";

    /**
     * Default buffer: TCP's 225,000 bytes.
     */
    public static final long DEFAULT_CAPACITY_LENGTH = 225_000;

    private final long markingThresholdLength;

    /**
     * A PIAS queue.
     *
     * @param capacityLength         bytes the buffer may hold.
     * @param maxFrameLength         longest frame accepted.
     * @param maxStoredLength        most bytes of a frame stored (its Ethernet and IPv4 headers at least, for the mark).
     * @param queueCount             number of queues.
     * @param markingThresholdLength K per queue, in bytes.
     */
    public PiasQueue(final long capacityLength, final int maxFrameLength, final int maxStoredLength,
        final int queueCount, final long markingThresholdLength)
    {
        super(capacityLength, maxFrameLength, maxStoredLength, queueCount, 0);
        if (markingThresholdLength < 0)
        {
            throw new IllegalArgumentException("markingThresholdLength must not be negative: " + markingThresholdLength);
        }
        this.markingThresholdLength = markingThresholdLength;
    }

    /**
     * {@inheritDoc}
     */
    public String name()
    {
        return NAME;
    }

    /**
     * The marking threshold K of each queue.
     *
     * @return K in bytes.
     */
    public long markingThresholdLength()
    {
        return markingThresholdLength;
    }

    /**
     * {@inheritDoc}
     */
    public boolean marksFrames()
    {
        return true;
    }

    protected int bandOf(final long priority)
    {
        return Math.min(arrivalDscp(), bandCount() - 1);
    }

    protected void onAdmitted(final int slot, final int band, final long bandLengthBeforeBytes)
    {
        if (bandLengthBeforeBytes > markingThresholdLength)
        {
            EcnQueue.mark(slab, slot, counters);
        }
    }
}
