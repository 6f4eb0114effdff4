package io.pfabric.dataplane.queue;

import org.agrona.DirectBuffer;

/**
 * pFabric's switch queue (Alizadeh et al., SIGCOMM 2013, §4.1): priority scheduling and priority dropping on a tiny
 * byte-bounded buffer.
 * <ul>
 *     <li>Dequeue: find the frame with the smallest priority number (earliest arrival among equals) and send the
 *     earliest-arrived frame of that frame's flow. A flow's later frames carry smaller remaining sizes; without this
 *     rule the flow would overtake and strand its own early frames.</li>
 *     <li>Enqueue when the frame does not fit: if no buffered frame has a larger priority number than the arrival,
 *     the arrival is dropped. Otherwise the buffered frames with the largest priority number are evicted, newest first
 *     among equals, until the arrival fits. Only frames strictly less urgent than the arrival are ever evicted, and
 *     nothing is evicted unless that frees enough room.</li>
 * </ul>
 * Structure: the order is a {@link PfabricScheduler}: each buffered frame is in an {@link UrgencyIndex} keyed by
 * (priority, arrival sequence) packed into one long, and in a doubly linked FIFO of its flow. By default buffers of
 * up to {@link #SORTED_INDEX_MAX_FULL_FRAMES} full frames keep the keys in one sorted array and larger ones in two
 * 4-ary heaps ({@link Structure}; {@code pfabric bench queue} measures both).
 */
public final class PfabricQueue extends QueueDiscipline
{
    /**
     * Name on the command line.
     */
    public static final String NAME = "pfabric";

    /**
     * Default buffer: 24 full frames, about two bandwidth-delay products at 10 Gb/s (the paper's setting).
     */
    public static final long DEFAULT_CAPACITY_LENGTH = 36_000;

    /**
     * Largest buffer, in frames of the maximum length, kept in a sorted array rather than heaps by default.
     */
    public static final int SORTED_INDEX_MAX_FULL_FRAMES = 32;

    /**
     * How the buffered frames are ordered by urgency.
     */
    public enum Structure
    {
        /**
         * One array sorted by urgency: fastest for small buffers; an insertion or removal away from the most urgent
         * end moves the entries after it.
         */
        SORTED,

        /**
         * Two indexed 4-ary heaps, most urgent first and least urgent first: O(log n) whatever the order of arrivals.
         */
        HEAPS;

        /**
         * The default for a buffer: {@link #SORTED} up to {@link #SORTED_INDEX_MAX_FULL_FRAMES} frames of the maximum
         * length, else {@link #HEAPS}.
         *
         * @param capacityLength bytes the buffer may hold.
         * @param maxFrameLength longest frame accepted.
         * @return the structure.
         */
        public static Structure forBuffer(final long capacityLength, final int maxFrameLength)
        {
            return capacityLength / maxFrameLength <= SORTED_INDEX_MAX_FULL_FRAMES ? SORTED : HEAPS;
        }
    }

    private final PfabricScheduler scheduler;

    /**
     * A pFabric queue of the given capacity for frames up to a 1500-byte MTU.
     *
     * @param capacityLength bytes the buffer may hold.
     */
    public PfabricQueue(final long capacityLength)
    {
        this(capacityLength, DEFAULT_MAX_FRAME_LENGTH);
    }

    /**
     * A pFabric queue.
     *
     * @param capacityLength bytes the buffer may hold.
     * @param maxFrameLength longest frame accepted.
     */
    public PfabricQueue(final long capacityLength, final int maxFrameLength)
    {
        this(capacityLength, maxFrameLength, Structure.forBuffer(capacityLength, maxFrameLength));
    }

    /**
     * A pFabric queue with a chosen structure; both give the same departures and drops.
     *
     * @param capacityLength bytes the buffer may hold.
     * @param maxFrameLength longest frame accepted.
     * @param structure      how frames are ordered by urgency.
     */
    public PfabricQueue(final long capacityLength, final int maxFrameLength, final Structure structure)
    {
        this(capacityLength, maxFrameLength, maxFrameLength, PfabricScheduler.SEQUENCE_BITS, structure);
    }

    /**
     * A pFabric queue that stores at most the first bytes of each frame, with the structure that suits its size.
     *
     * @param capacityLength  bytes the buffer may hold.
     * @param maxFrameLength  longest frame accepted.
     * @param maxStoredLength most bytes of a frame stored.
     */
    public PfabricQueue(final long capacityLength, final int maxFrameLength, final int maxStoredLength)
    {
        this(capacityLength, maxFrameLength, maxStoredLength, PfabricScheduler.SEQUENCE_BITS,
            Structure.forBuffer(capacityLength, maxFrameLength));
    }

    PfabricQueue(
        final long capacityLength, final int maxFrameLength, final int sequenceBits, final Structure structure)
    {
        this(capacityLength, maxFrameLength, maxFrameLength, sequenceBits, structure);
    }

    private PfabricQueue(final long capacityLength, final int maxFrameLength, final int maxStoredLength,
        final int sequenceBits, final Structure structure)
    {
        super(capacityLength, maxFrameLength, maxStoredLength, true);
        scheduler = new PfabricScheduler(slab, sequenceBits, structure);
    }

    /**
     * {@inheritDoc}
     */
    public String name()
    {
        return NAME;
    }

    /**
     * How the frames are ordered by urgency.
     *
     * @return the structure.
     */
    public Structure structure()
    {
        return scheduler.structure();
    }

    protected boolean onEnqueue(
        final DirectBuffer src, final int srcOffset, final int length, final long priority, final long flowId)
    {
        if (!fits(length) && !makeRoom(length, priority))
        {
            drop(src, srcOffset, length, DropReason.PRIORITY_DROP_ARRIVAL);
            return false;
        }

        final int slot = store(src, srcOffset, length);
        scheduler.add(slot, priority, flowId);
        return true;
    }

    protected int removeNext()
    {
        final int slot = scheduler.next();
        final long priority = scheduler.priority(slot);
        scheduler.remove(slot);
        if (!scheduler.isEmpty() && scheduler.mostUrgentPriority() < priority)
        {
            counters.add(QueueCounter.RANK_INVERSION_PACKETS, 1);
        }
        return slot;
    }

    private boolean makeRoom(final int length, final long priority)
    {
        if (scheduler.leastUrgentPriority() <= priority)
        {
            return false;
        }
        final long deficit = byteCount + length - capacityLength;
        if (deficit > slab.frameLength(scheduler.leastUrgent()) && !scheduler.lessUrgentBytesAtLeast(priority, deficit))
        {
            return false;
        }
        do
        {
            final int victim = scheduler.leastUrgent();
            scheduler.remove(victim);
            dropBuffered(victim, DropReason.PRIORITY_EVICTION);
        }
        while (!fits(length));
        return true;
    }
}
