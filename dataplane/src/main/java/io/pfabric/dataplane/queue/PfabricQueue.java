package io.pfabric.dataplane.queue;

import org.agrona.DirectBuffer;

import java.util.Arrays;

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
 * Structure: each buffered frame is in an {@link UrgencyIndex} keyed by (priority, arrival sequence) packed into one
 * long, and in a doubly linked FIFO of its flow, found through a {@link FlowTable}. By default buffers of up to
 * {@link #SORTED_INDEX_MAX_FULL_FRAMES} full frames keep the keys in one sorted array and larger ones in two 4-ary
 * heaps ({@link Structure}; {@code pfabric bench queue} measures both).
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

    private static final long SEQUENCE_MASK = 0xFFFF_FFFFL;
    private static final int SEQUENCE_BITS = 32;
    private static final int NONE = -1;

    private final long sequenceLimit;
    private final long sequenceMask;
    private long nextSequence;

    private final Structure structure;
    private final UrgencyIndex index;
    private final long[] slotKey;
    private final int[] slotFlow;
    private final int[] slotNext;
    private final int[] slotPrev;
    private final long[] renumberScratch;

    private final FlowTable flowIndexById;
    private final int[] flowHead;
    private final int[] flowTail;
    private final long[] flowIdOfFlow;
    private final int[] freeFlows;
    private int freeFlowCount;

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
        this(capacityLength, maxFrameLength, maxFrameLength, SEQUENCE_BITS, structure);
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
        this(capacityLength, maxFrameLength, maxStoredLength, SEQUENCE_BITS,
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
        super(capacityLength, maxFrameLength, maxStoredLength);
        final int slots = slab.slotCount();
        if (sequenceBits > SEQUENCE_BITS || (1L << sequenceBits) <= slots)
        {
            throw new IllegalArgumentException("sequenceBits must be at most 32 and number more than " + slots);
        }
        sequenceLimit = 1L << sequenceBits;
        sequenceMask = sequenceLimit - 1;

        this.structure = structure;
        index = Structure.SORTED == structure ? new SortedUrgencyIndex(slots) : new HeapUrgencyIndex(slots);
        slotKey = new long[slots];
        slotFlow = new int[slots];
        slotNext = new int[slots];
        slotPrev = new int[slots];
        renumberScratch = new long[slots];

        flowIndexById = new FlowTable(slots);
        flowHead = new int[slots];
        flowTail = new int[slots];
        flowIdOfFlow = new long[slots];
        freeFlows = new int[slots];
        for (int i = 0; i < slots; i++)
        {
            freeFlows[i] = slots - 1 - i;
        }
        freeFlowCount = slots;
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
        return structure;
    }

    protected boolean onEnqueue(
        final DirectBuffer src, final int srcOffset, final int length, final long priority, final long flowId)
    {
        if (!fits(length) && !makeRoom(length, priority))
        {
            drop(src, srcOffset, length, DropReason.PRIORITY_DROP_ARRIVAL);
            return false;
        }

        if (sequenceLimit == nextSequence)
        {
            renumber();
        }
        final int slot = store(src, srcOffset, length);
        final long key = ((priority << 32) | (nextSequence++ & sequenceMask)) ^ Long.MIN_VALUE;
        slotKey[slot] = key;

        final int tablePosition = flowIndexById.find(flowId);
        int flow = flowIndexById.valueAt(tablePosition);
        if (FlowTable.MISSING == flow)
        {
            flow = freeFlows[--freeFlowCount];
            flowIndexById.insertAt(tablePosition, flowId, flow);
            flowIdOfFlow[flow] = flowId;
            flowHead[flow] = slot;
            slotPrev[slot] = NONE;
        }
        else
        {
            final int tail = flowTail[flow];
            slotNext[tail] = slot;
            slotPrev[slot] = tail;
        }
        slotNext[slot] = NONE;
        flowTail[flow] = slot;
        slotFlow[slot] = flow;

        index.add(slot, key);
        return true;
    }

    protected int removeNext()
    {
        final int slot = flowHead[slotFlow[index.mostUrgent()]];
        unlink(slot);
        return slot;
    }

    private boolean makeRoom(final int length, final long priority)
    {
        final int candidate = index.leastUrgent();
        if (UrgencyIndex.priority(slotKey[candidate]) <= priority)
        {
            return false;
        }
        final long deficit = byteCount + length - capacityLength;
        if (deficit > slab.frameLength(candidate) && !index.lessUrgentBytesAtLeast(priority, deficit, slab))
        {
            return false;
        }
        do
        {
            final int victim = index.leastUrgent();
            unlink(victim);
            dropBuffered(victim, DropReason.PRIORITY_EVICTION);
        }
        while (!fits(length));
        return true;
    }

    private void unlink(final int slot)
    {
        index.remove(slot, slotKey[slot]);

        final int flow = slotFlow[slot];
        final int prev = slotPrev[slot];
        final int next = slotNext[slot];
        if (NONE == prev)
        {
            flowHead[flow] = next;
        }
        else
        {
            slotNext[prev] = next;
        }
        if (NONE == next)
        {
            flowTail[flow] = prev;
        }
        else
        {
            slotPrev[next] = prev;
        }
        if (NONE == prev && NONE == next)
        {
            flowIndexById.remove(flowIdOfFlow[flow]);
            freeFlows[freeFlowCount++] = flow;
        }
    }

    /**
     * Arrival sequence numbers are 32 bits inside the key; before they wrap, renumber the buffered frames 0..n-1 in
     * arrival order, which keeps the index's order.
     */
    private void renumber()
    {
        final int count = packetCount;
        for (int i = 0; i < count; i++)
        {
            final int slot = index.slotAt(i);
            renumberScratch[i] = (((slotKey[slot] & SEQUENCE_MASK) - (1L << 31)) << 32) | slot;
        }
        Arrays.sort(renumberScratch, 0, count);
        for (int i = 0; i < count; i++)
        {
            final int slot = (int)(renumberScratch[i] & SEQUENCE_MASK);
            final long oldKey = slotKey[slot];
            final long newKey = (oldKey & ~SEQUENCE_MASK) | i;
            slotKey[slot] = newKey;
            index.rekeyInPlace(slot, oldKey, newKey);
        }
        nextSequence = count;
    }
}
