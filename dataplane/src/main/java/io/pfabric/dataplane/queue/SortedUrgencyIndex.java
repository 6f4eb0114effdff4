package io.pfabric.dataplane.queue;

/**
 * Keys in one array sorted from least to most urgent, so the most urgent frame is removed from the end without
 * moving anything and an arrival more urgent than everything buffered is appended. Other insertions and removals move
 * the entries after them: cheap for the few tens of frames of a pFabric buffer, linear in the buffer's frames.
 */
final class SortedUrgencyIndex extends UrgencyIndex
{
    private final long[] keys;
    private final int[] slots;
    private int size;

    SortedUrgencyIndex(final int capacity)
    {
        keys = new long[capacity];
        slots = new int[capacity];
    }

    int size()
    {
        return size;
    }

    void add(final int slot, final long key)
    {
        int index = size;
        if (index > 0 && keys[index - 1] < key)
        {
            index = -(find(key) + 1);
            System.arraycopy(keys, index, keys, index + 1, size - index);
            System.arraycopy(slots, index, slots, index + 1, size - index);
        }
        keys[index] = key;
        slots[index] = slot;
        size++;
    }

    void remove(final int slot, final long key)
    {
        final int last = size - 1;
        if (keys[last] != key)
        {
            final int index = find(key);
            System.arraycopy(keys, index + 1, keys, index, last - index);
            System.arraycopy(slots, index + 1, slots, index, last - index);
        }
        size = last;
    }

    int mostUrgent()
    {
        return slots[size - 1];
    }

    int leastUrgent()
    {
        return slots[0];
    }

    boolean lessUrgentBytesAtLeast(final long priority, final long bytes, final PacketSlab slab)
    {
        long found = 0;
        for (int i = 0; i < size && priority(keys[i]) > priority; i++)
        {
            found += slab.frameLength(slots[i]);
            if (found >= bytes)
            {
                return true;
            }
        }
        return false;
    }

    int slotAt(final int index)
    {
        return slots[index];
    }

    void rekeyInPlace(final int slot, final long oldKey, final long newKey)
    {
        keys[find(oldKey)] = newKey;
    }

    /**
     * Binary search in the descending keys: the index of the key, or -(insertion point + 1).
     */
    private int find(final long key)
    {
        int low = 0;
        int high = size - 1;
        while (low <= high)
        {
            final int middle = (low + high) >>> 1;
            final long middleKey = keys[middle];
            if (middleKey > key)
            {
                low = middle + 1;
            }
            else if (middleKey < key)
            {
                high = middle - 1;
            }
            else
            {
                return middle;
            }
        }
        return -(low + 1);
    }
}
