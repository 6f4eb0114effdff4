package io.pfabric.dataplane.queue;

/**
 * Two indexed 4-ary heaps over the same frames, one most urgent first and one least urgent first: O(log n) for every
 * insertion and removal, whatever the order of arrivals. A frame more urgent than every other is kept beside the
 * most-urgent heap rather than in it, until a still more urgent one arrives: the arrival that is sent next, pFabric's
 * common case, then costs that heap nothing, neither a sift to its top nor one back down when it leaves.
 */
final class HeapUrgencyIndex extends UrgencyIndex
{
    private static final int NONE = -1;

    private final SlotHeap mostUrgentFirst;
    private final SlotHeap leastUrgentFirst;
    private final int[] searchStack;
    private int frontSlot = NONE;
    private long frontKey;

    HeapUrgencyIndex(final int capacity)
    {
        mostUrgentFirst = new SlotHeap(capacity);
        leastUrgentFirst = new SlotHeap(capacity);
        searchStack = new int[capacity];
    }

    int size()
    {
        return leastUrgentFirst.size();
    }

    void add(final int slot, final long key)
    {
        leastUrgentFirst.add(slot, ~key);
        if (NONE == frontSlot)
        {
            if (0 == mostUrgentFirst.size() || key < mostUrgentFirst.topKey())
            {
                frontSlot = slot;
                frontKey = key;
            }
            else
            {
                mostUrgentFirst.add(slot, key);
            }
        }
        else if (key < frontKey)
        {
            mostUrgentFirst.add(frontSlot, frontKey);
            frontSlot = slot;
            frontKey = key;
        }
        else
        {
            mostUrgentFirst.add(slot, key);
        }
    }

    void remove(final int slot, final long key)
    {
        if (slot == frontSlot)
        {
            frontSlot = NONE;
        }
        else
        {
            mostUrgentFirst.remove(slot);
        }
        leastUrgentFirst.remove(slot);
    }

    int mostUrgent()
    {
        return NONE != frontSlot ? frontSlot : mostUrgentFirst.top();
    }

    int leastUrgent()
    {
        return leastUrgentFirst.top();
    }

    /**
     * A walk of the least-urgent-first heap that skips every subtree whose root is not less urgent than the given
     * priority, and stops once enough bytes are found.
     */
    boolean lessUrgentBytesAtLeast(final long priority, final long bytes, final PacketSlab slab)
    {
        final int size = leastUrgentFirst.size();
        long found = 0;
        int top = 0;
        searchStack[top++] = 0;
        while (top > 0)
        {
            final int position = searchStack[--top];
            if (priority(~leastUrgentFirst.keyAt(position)) > priority)
            {
                found += slab.frameLength(leastUrgentFirst.slotAt(position));
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

    int slotAt(final int index)
    {
        return leastUrgentFirst.slotAt(index);
    }

    void rekeyInPlace(final int slot, final long oldKey, final long newKey)
    {
        if (slot == frontSlot)
        {
            frontKey = newKey;
        }
        else
        {
            mostUrgentFirst.rekeyInPlace(slot, newKey);
        }
        leastUrgentFirst.rekeyInPlace(slot, ~newKey);
    }
}
