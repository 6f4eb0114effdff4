package io.pfabric.dataplane.queue;

/**
 * An indexed 4-ary min-heap of packet slots by a long key, with the keys stored inline so that a sift reads
 * contiguous memory. A slot can be removed from any position in O(log n).
 */
final class SlotHeap
{
    static final int ARITY_SHIFT = 2;

    private final long[] keys;
    private final int[] slots;
    private final int[] positions;
    private int size;

    SlotHeap(final int capacity)
    {
        keys = new long[capacity];
        slots = new int[capacity];
        positions = new int[capacity];
    }

    int size()
    {
        return size;
    }

    int slotAt(final int position)
    {
        return slots[position];
    }

    long keyAt(final int position)
    {
        return keys[position];
    }

    int top()
    {
        return slots[0];
    }

    long topKey()
    {
        return keys[0];
    }

    long keyOf(final int slot)
    {
        return keys[positions[slot]];
    }

    void add(final int slot, final long key)
    {
        siftUp(size++, slot, key);
    }

    void remove(final int slot)
    {
        final int position = positions[slot];
        final int last = --size;
        if (position != last)
        {
            final int movedSlot = slots[last];
            final long movedKey = keys[last];
            if (position > 0 && keys[(position - 1) >>> ARITY_SHIFT] > movedKey)
            {
                siftUp(position, movedSlot, movedKey);
            }
            else
            {
                siftDown(position, movedSlot, movedKey);
            }
        }
    }

    /**
     * Replace a slot's key with one that orders the same against every other key in the heap.
     */
    void rekeyInPlace(final int slot, final long key)
    {
        keys[positions[slot]] = key;
    }

    private void siftUp(final int position, final int slot, final long key)
    {
        int hole = position;
        while (hole > 0)
        {
            final int parent = (hole - 1) >>> ARITY_SHIFT;
            final long parentKey = keys[parent];
            if (parentKey <= key)
            {
                break;
            }
            final int parentSlot = slots[parent];
            keys[hole] = parentKey;
            slots[hole] = parentSlot;
            positions[parentSlot] = hole;
            hole = parent;
        }
        keys[hole] = key;
        slots[hole] = slot;
        positions[slot] = hole;
    }

    private void siftDown(final int position, final int slot, final long key)
    {
        final int size = this.size;
        final long[] keys = this.keys;
        int hole = position;
        int first;
        while ((first = (hole << ARITY_SHIFT) + 1) < size)
        {
            int child = first;
            long childKey = keys[first];
            final int end = Math.min(first + 4, size);
            for (int i = first + 1; i < end; i++)
            {
                final long candidate = keys[i];
                if (candidate < childKey)
                {
                    child = i;
                    childKey = candidate;
                }
            }
            if (key <= childKey)
            {
                break;
            }
            final int childSlot = slots[child];
            keys[hole] = childKey;
            slots[hole] = childSlot;
            positions[childSlot] = hole;
            hole = child;
        }
        keys[hole] = key;
        slots[hole] = slot;
        positions[slot] = hole;
    }
}
