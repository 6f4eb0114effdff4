package io.pfabric.hostd.transport;

import java.util.Arrays;

/**
 * An indexed binary min-heap of flow slots by a long key: insert, change of key and removal of any slot in
 * O(log n), the minimum in O(1). The host scheduler keeps the flows that may send in it, keyed by priority then
 * arrival. Grows by doubling when a slot beyond its capacity is used.
 */
final class FlowHeap
{
    private static final int ABSENT = -1;

    private int[] heap;
    private long[] keys;
    private int[] positions;
    private int size;

    FlowHeap(final int initialCapacity)
    {
        final int capacity = Math.max(4, initialCapacity);
        heap = new int[capacity];
        keys = new long[capacity];
        positions = new int[capacity];
        Arrays.fill(positions, ABSENT);
    }

    int size()
    {
        return size;
    }

    boolean isEmpty()
    {
        return 0 == size;
    }

    boolean contains(final int slot)
    {
        return slot < positions.length && ABSENT != positions[slot];
    }

    int minSlot()
    {
        return heap[0];
    }

    long key(final int slot)
    {
        return keys[slot];
    }

    /**
     * Insert a slot, or move it to a new key if it is in the heap.
     */
    void upsert(final int slot, final long key)
    {
        ensureSlot(slot);
        final int position = positions[slot];
        if (ABSENT == position)
        {
            if (size == heap.length)
            {
                heap = Arrays.copyOf(heap, heap.length * 2);
            }
            keys[slot] = key;
            heap[size] = slot;
            positions[slot] = size;
            siftUp(size++);
            return;
        }
        final long old = keys[slot];
        keys[slot] = key;
        if (key < old)
        {
            siftUp(position);
        }
        else if (key > old)
        {
            siftDown(position);
        }
    }

    void remove(final int slot)
    {
        if (!contains(slot))
        {
            return;
        }
        final int position = positions[slot];
        positions[slot] = ABSENT;
        size--;
        if (position == size)
        {
            return;
        }
        final int last = heap[size];
        heap[position] = last;
        positions[last] = position;
        siftDown(position);
        siftUp(positions[last]);
    }

    private void ensureSlot(final int slot)
    {
        if (slot >= positions.length)
        {
            final int oldLength = positions.length;
            final int newLength = Math.max(slot + 1, oldLength * 2);
            positions = Arrays.copyOf(positions, newLength);
            Arrays.fill(positions, oldLength, newLength, ABSENT);
            keys = Arrays.copyOf(keys, newLength);
        }
    }

    private void siftUp(final int start)
    {
        int position = start;
        final int slot = heap[position];
        final long key = keys[slot];
        while (position > 0)
        {
            final int parent = (position - 1) >>> 1;
            final int parentSlot = heap[parent];
            if (keys[parentSlot] <= key)
            {
                break;
            }
            heap[position] = parentSlot;
            positions[parentSlot] = position;
            position = parent;
        }
        heap[position] = slot;
        positions[slot] = position;
    }

    private void siftDown(final int start)
    {
        int position = start;
        final int slot = heap[position];
        final long key = keys[slot];
        while (true)
        {
            final int left = 2 * position + 1;
            if (left >= size)
            {
                break;
            }
            final int right = left + 1;
            final int child = right < size && keys[heap[right]] < keys[heap[left]] ? right : left;
            if (keys[heap[child]] >= key)
            {
                break;
            }
            heap[position] = heap[child];
            positions[heap[child]] = position;
            position = child;
        }
        heap[position] = slot;
        positions[slot] = position;
    }
}
