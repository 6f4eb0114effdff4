package io.pfabric.dataplane.queue;

/**
 * Why an egress queue dropped a frame. Each reason has its own packet and byte counters in {@link QueueCounters}.
 */
public enum DropReason
{
    /**
     * A FIFO queue (droptail, ecn, strict, sp-pifo, aifo, pias) had no room for the arriving frame.
     */
    TAIL_DROP,

    /**
     * pFabric: the arriving frame did not fit and no buffered frame was less urgent than it, so the arrival was
     * dropped.
     */
    PRIORITY_DROP_ARRIVAL,

    /**
     * pFabric: a buffered frame was pushed out to make room for a more urgent arrival.
     */
    PRIORITY_EVICTION,

    /**
     * The frame was empty, longer than a packet slot, or longer than the whole buffer.
     */
    BAD_LENGTH,

    /**
     * Traffic classes: a buffered frame of a class over its share of the buffer was pushed out to make room for an
     * arrival of a class within its share ({@link PfabricClassQueue}).
     */
    CLASS_SHARE_EVICTION,

    /**
     * AIFO: the buffer held more than its headroom and the arrival's rank stood too high among the recent ranks for
     * the room left ({@link AifoQueue}).
     */
    RANK_ADMISSION;

    private static final DropReason[] VALUES = values();

    /**
     * The reason with the given ordinal, without allocating.
     *
     * @param ordinal of the reason.
     * @return the reason.
     */
    public static DropReason of(final int ordinal)
    {
        return VALUES[ordinal];
    }
}
