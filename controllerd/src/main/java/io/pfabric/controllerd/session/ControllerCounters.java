package io.pfabric.controllerd.session;

/**
 * What a controller has done. Written by its thread only; other threads may read stale values.
 */
public final class ControllerCounters
{
    long demandEntries;
    long offerEntries;
    long invalidEntries;
    long batchesAllocated;
    long grantsAllocated;
    long grantsSent;
    long grantsDroppedLate;
    long grantMessagesSent;
    long heartbeatsSent;
    long normalizations;
    long normalizationIterations;
    long rateMessagesSent;
    volatile long maxRowRateBps;
    volatile long maxColumnRateBps;

    /**
     * @return DEMAND entries taken (SYN).
     */
    public long demandEntries()
    {
        return demandEntries;
    }

    /**
     * @return OFFER entries taken (ASY).
     */
    public long offerEntries()
    {
        return offerEntries;
    }

    /**
     * @return entries of accepted messages naming the sender itself or no host of the fabric, ignored.
     */
    public long invalidEntries()
    {
        return invalidEntries;
    }

    /**
     * @return allocation batches run (SYN).
     */
    public long batchesAllocated()
    {
        return batchesAllocated;
    }

    /**
     * @return slots granted by the allocator (SYN).
     */
    public long grantsAllocated()
    {
        return grantsAllocated;
    }

    /**
     * @return granted slots sent to hosts (SYN).
     */
    public long grantsSent()
    {
        return grantsSent;
    }

    /**
     * @return grants not sent because their slot had passed when the controller got to them (SYN).
     */
    public long grantsDroppedLate()
    {
        return grantsDroppedLate;
    }

    /**
     * @return GRANTS messages sent with at least one slot (SYN).
     */
    public long grantMessagesSent()
    {
        return grantMessagesSent;
    }

    /**
     * @return GRANTS messages of cumulative totals only (SYN).
     */
    public long heartbeatsSent()
    {
        return heartbeatsSent;
    }

    /**
     * @return rate normalizations run (ASY).
     */
    public long normalizations()
    {
        return normalizations;
    }

    /**
     * @return Sinkhorn iterations over every normalization (ASY).
     */
    public long normalizationIterations()
    {
        return normalizationIterations;
    }

    /**
     * @return RATES messages sent (ASY).
     */
    public long rateMessagesSent()
    {
        return rateMessagesSent;
    }

    /**
     * @return the largest sum of the rates one normalization granted a source, over every normalization (ASY).
     */
    public long maxRowRateBps()
    {
        return maxRowRateBps;
    }

    /**
     * @return the largest sum of the rates one normalization granted toward a destination, over every
     * normalization (ASY).
     */
    public long maxColumnRateBps()
    {
        return maxColumnRateBps;
    }
}
