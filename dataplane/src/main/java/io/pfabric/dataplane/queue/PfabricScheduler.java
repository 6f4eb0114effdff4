package io.pfabric.dataplane.queue;

import java.util.Arrays;

/**
 * pFabric's order over frames held in slots of a {@link PacketSlab} it does not own: which frame leaves next (the
 * earliest-arrived frame of the flow that owns the most urgent frame) and which is evicted next (the least urgent,
 * newest first among equals). {@link PfabricQueue} keeps one over its whole buffer; {@link PfabricClassQueue} one per
 * traffic class over a shared buffer. The owner stores and frees the slots and does the byte accounting.
 * <p>
 * Structure: each frame is in an {@link UrgencyIndex} keyed by (priority, arrival sequence) packed into one long, and
 * in a doubly linked FIFO of its flow, found through a {@link FlowTable}. Sized once for every slot of the slab.
 */
final class PfabricScheduler
{
    static final int SEQUENCE_BITS = 32;

    private static final long SEQUENCE_MASK = 0xFFFF_FFFFL;
    private static final int NONE = -1;

    private final PacketSlab slab;
    private final long sequenceLimit;
    private final long sequenceMask;
    private long nextSequence;

    private final PfabricQueue.Structure structure;
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
    private long byteCount;

    PfabricScheduler(final PacketSlab slab, final int sequenceBits, final PfabricQueue.Structure structure)
    {
        final int slots = slab.slotCount();
        if (sequenceBits > SEQUENCE_BITS || (1L << sequenceBits) <= slots)
        {
            throw new IllegalArgumentException("sequenceBits must be at most 32 and number more than " + slots);
        }
        this.slab = slab;
        sequenceLimit = 1L << sequenceBits;
        sequenceMask = sequenceLimit - 1;

        this.structure = structure;
        index = PfabricQueue.Structure.SORTED == structure ?
            new SortedUrgencyIndex(slots) : new HeapUrgencyIndex(slots);
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

    PfabricQueue.Structure structure()
    {
        return structure;
    }

    int size()
    {
        return index.size();
    }

    boolean isEmpty()
    {
        return 0 == index.size();
    }

    /**
     * Bytes of the frames in this order, by their whole lengths.
     */
    long byteCount()
    {
        return byteCount;
    }

    /**
     * Put a stored frame in the order, behind every frame added before it.
     */
    void add(final int slot, final long priority, final long flowId)
    {
        if (sequenceLimit == nextSequence)
        {
            renumber();
        }
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
        byteCount += slab.frameLength(slot);
    }

    /**
     * The slot that leaves next, still in the order. Only when not empty.
     */
    int next()
    {
        return flowHead[slotFlow[index.mostUrgent()]];
    }

    /**
     * Priority number of the most urgent frame. Only when not empty.
     */
    long mostUrgentPriority()
    {
        return UrgencyIndex.priority(slotKey[index.mostUrgent()]);
    }

    /**
     * Priority number of a slot in the order.
     */
    long priority(final int slot)
    {
        return UrgencyIndex.priority(slotKey[slot]);
    }

    /**
     * The slot evicted next, still in the order. Only when not empty.
     */
    int leastUrgent()
    {
        return index.leastUrgent();
    }

    /**
     * Priority number of the least urgent frame. Only when not empty.
     */
    long leastUrgentPriority()
    {
        return UrgencyIndex.priority(slotKey[index.leastUrgent()]);
    }

    /**
     * Whether the frames with a priority number above the given one hold at least the given bytes.
     */
    boolean lessUrgentBytesAtLeast(final long priority, final long bytes)
    {
        return index.lessUrgentBytesAtLeast(priority, bytes, slab);
    }

    /**
     * Take a slot out of the order; the owner frees it.
     */
    void remove(final int slot)
    {
        index.remove(slot, slotKey[slot]);
        byteCount -= slab.frameLength(slot);

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
     * Arrival sequence numbers are at most 32 bits inside the key; before they wrap, renumber the frames 0..n-1 in
     * arrival order, which keeps the index's order.
     */
    private void renumber()
    {
        final int count = index.size();
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
