package io.pfabric.dataplane.queue;

/**
 * The counters every egress queue keeps, each a 64-bit slot in {@link QueueCounters}.
 */
public enum QueueCounter
{
    /** Frames accepted into the buffer. */
    ENQUEUED_PACKETS("Frames enqueued"),
    /** Bytes accepted into the buffer. */
    ENQUEUED_BYTES("Bytes enqueued"),
    /** Frames that left the buffer for the wire. */
    DEQUEUED_PACKETS("Frames dequeued"),
    /** Bytes that left the buffer for the wire. */
    DEQUEUED_BYTES("Bytes dequeued"),
    /** Frames dropped by {@link DropReason#TAIL_DROP}. */
    TAIL_DROP_PACKETS("Frames tail-dropped"),
    /** Bytes dropped by {@link DropReason#TAIL_DROP}. */
    TAIL_DROP_BYTES("Bytes tail-dropped"),
    /** Frames dropped by {@link DropReason#PRIORITY_DROP_ARRIVAL}. */
    PRIORITY_DROP_ARRIVAL_PACKETS("Arrivals dropped as least urgent"),
    /** Bytes dropped by {@link DropReason#PRIORITY_DROP_ARRIVAL}. */
    PRIORITY_DROP_ARRIVAL_BYTES("Arrival bytes dropped as least urgent"),
    /** Frames dropped by {@link DropReason#PRIORITY_EVICTION}. */
    PRIORITY_EVICTION_PACKETS("Buffered frames evicted"),
    /** Bytes dropped by {@link DropReason#PRIORITY_EVICTION}. */
    PRIORITY_EVICTION_BYTES("Buffered bytes evicted"),
    /** Frames dropped by {@link DropReason#BAD_LENGTH}. */
    BAD_LENGTH_PACKETS("Frames dropped for bad length"),
    /** Bytes dropped by {@link DropReason#BAD_LENGTH}. */
    BAD_LENGTH_BYTES("Bytes dropped for bad length"),
    /** Frames dropped by {@link DropReason#CLASS_SHARE_EVICTION}. */
    CLASS_SHARE_EVICTION_PACKETS("Frames evicted for a class within its share"),
    /** Bytes dropped by {@link DropReason#CLASS_SHARE_EVICTION}. */
    CLASS_SHARE_EVICTION_BYTES("Bytes evicted for a class within its share"),
    /** Frames dropped by {@link DropReason#RANK_ADMISSION}. */
    RANK_ADMISSION_PACKETS("Arrivals refused for their rank quantile"),
    /** Bytes dropped by {@link DropReason#RANK_ADMISSION}. */
    RANK_ADMISSION_BYTES("Arrival bytes refused for their rank quantile"),
    /** Frames marked ECN Congestion Experienced. */
    ECN_MARKED_PACKETS("Frames marked ECN CE"),
    /** Frames that arrived above the marking threshold but were left unmarked: not IPv4, Not-ECT, or already CE. */
    ECN_UNMARKABLE_PACKETS("Frames above threshold left unmarked"),
    /** The most bytes ever held at once. */
    HIGH_WATER_BYTES("Buffer high-water bytes"),
    /** The most frames ever held at once. */
    HIGH_WATER_PACKETS("Buffer high-water frames"),
    /**
     * Frames sent while a more urgent frame (a strictly smaller priority number) waited in the same buffer: the rank
     * inversions by which SP-PIFO and AIFO measure how far a discipline is from a perfect priority queue.
     */
    RANK_INVERSION_PACKETS("Frames sent ahead of a more urgent one");

    private static final QueueCounter[] VALUES = values();

    private final String label;

    QueueCounter(final String label)
    {
        this.label = label;
    }

    /**
     * Human-readable label for dashboards and reports.
     *
     * @return the label.
     */
    public String label()
    {
        return label;
    }

    /**
     * The packet counter of a drop reason.
     *
     * @param reason of the drop.
     * @return the counter holding frames dropped for that reason.
     */
    public static QueueCounter dropPackets(final DropReason reason)
    {
        return VALUES[TAIL_DROP_PACKETS.ordinal() + 2 * reason.ordinal()];
    }

    /**
     * The byte counter of a drop reason.
     *
     * @param reason of the drop.
     * @return the counter holding bytes dropped for that reason.
     */
    public static QueueCounter dropBytes(final DropReason reason)
    {
        return VALUES[TAIL_DROP_BYTES.ordinal() + 2 * reason.ordinal()];
    }
}
