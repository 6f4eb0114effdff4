package io.pfabric.switchd.queue;

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
 * Structure: every buffered frame is in two indexed 4-ary heaps keyed by (priority, arrival sequence) packed into one
 * long, one ordered most urgent first and one least urgent first, and in a doubly linked FIFO of its flow. Enqueue
 * and dequeue cost O(log n).
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

    private static final long SEQUENCE_MASK = 0xFFFF_FFFFL;
    private static final int SEQUENCE_BITS = 32;
    private static final int NONE = -1;

    private final long sequenceLimit;
    private final long sequenceMask;
    private long nextSequence;

    private final long[] slotKey;
    private final int[] slotFlow;
    private final int[] slotNext;
    private final int[] slotPrev;
    private final SlotHeap mostUrgent;
    private final SlotHeap leastUrgent;
    private final int[] searchStack;
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
        this(capacityLength, maxFrameLength, SEQUENCE_BITS);
    }

    PfabricQueue(final long capacityLength, final int maxFrameLength, final int sequenceBits)
    {
        super(capacityLength, maxFrameLength);
        final int slots = slab.slotCount();
        if (sequenceBits > SEQUENCE_BITS || (1L << sequenceBits) <= slots)
        {
            throw new IllegalArgumentException("sequenceBits must be at most 32 and number more than " + slots);
        }
        this.sequenceLimit = 1L << sequenceBits;
        this.sequenceMask = sequenceLimit - 1;
        slotKey = new long[slots];
        slotFlow = new int[slots];
        slotNext = new int[slots];
        slotPrev = new int[slots];
        mostUrgent = new SlotHeap(slots);
        leastUrgent = new SlotHeap(slots);
        searchStack = new int[slots];
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

        mostUrgent.add(slot, key);
        leastUrgent.add(slot, ~key);
        return true;
    }

    protected int removeNext()
    {
        final int slot = flowHead[slotFlow[mostUrgent.top()]];
        unlink(slot);
        return slot;
    }

    private boolean makeRoom(final int length, final long priority)
    {
        final int candidate = leastUrgent.top();
        if (priorityOf(candidate) <= priority)
        {
            return false;
        }
        final long deficit = byteCount + length - capacityLength;
        if (deficit > slab.frameLength(candidate) && !lessUrgentBytesAtLeast(priority, deficit))
        {
            return false;
        }
        do
        {
            final int victim = leastUrgent.top();
            unlink(victim);
            dropBuffered(victim, DropReason.PRIORITY_EVICTION);
        }
        while (!fits(length));
        return true;
    }

    /**
     * Whether the frames with a priority number above the given one hold at least the given bytes: a walk of the
     * max-heap that skips every subtree whose root is not less urgent, and stops once enough is found.
     */
    private boolean lessUrgentBytesAtLeast(final long priority, final long bytes)
    {
        final int size = leastUrgent.size();
        long found = 0;
        int top = 0;
        searchStack[top++] = 0;
        while (top > 0)
        {
            final int position = searchStack[--top];
            final int slot = leastUrgent.slotAt(position);
            if (priorityOf(slot) > priority)
            {
                found += slab.frameLength(slot);
                if (found >= bytes)
                {
                    return true;
                }
                final int first = (position << SlotHeap.ARITY_SHIFT) + 1;
                final int end = Math.min(first + (1 << SlotHeap.ARITY_SHIFT), size);
                for (int child = first; child < end; child++)
                {
                    searchStack[top++] = child;
                }
            }
        }
        return false;
    }

    private void unlink(final int slot)
    {
        mostUrgent.remove(slot);
        leastUrgent.remove(slot);

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

    private long priorityOf(final int slot)
    {
        return (slotKey[slot] ^ Long.MIN_VALUE) >>> 32;
    }

    /**
     * Arrival sequence numbers are 32 bits inside the key; before they wrap, renumber the buffered frames 0..n-1 in
     * arrival order, which keeps both heaps valid.
     */
    private void renumber()
    {
        final int count = packetCount;
        for (int i = 0; i < count; i++)
        {
            final int slot = mostUrgent.slotAt(i);
            renumberScratch[i] = (((slotKey[slot] & SEQUENCE_MASK) - (1L << 31)) << 32) | slot;
        }
        Arrays.sort(renumberScratch, 0, count);
        for (int i = 0; i < count; i++)
        {
            final int slot = (int)(renumberScratch[i] & SEQUENCE_MASK);
            final long key = (slotKey[slot] & ~SEQUENCE_MASK) | i;
            slotKey[slot] = key;
            mostUrgent.rekeyInPlace(slot, key);
            leastUrgent.rekeyInPlace(slot, ~key);
        }
        nextSequence = count;
    }
}
