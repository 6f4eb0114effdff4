package io.pfabric.switchd.queue;

import java.util.Arrays;

/**
 * Flow id to flow index, open addressing with linear probing and backward-shift deletion, sized once so that it never
 * grows: a buffer of n slots holds at most n flows.
 */
final class FlowTable
{
    static final int MISSING = -1;

    private static final long GOLDEN_RATIO_64 = 0x9E37_79B9_7F4A_7C15L;

    private final long[] keys;
    private final int[] values;
    private final int mask;
    private final int hashShift;

    FlowTable(final int maxEntries)
    {
        final int bits = Math.max(4, 64 - Long.numberOfLeadingZeros(4L * maxEntries - 1));
        final int capacity = 1 << bits;
        keys = new long[capacity];
        values = new int[capacity];
        Arrays.fill(values, MISSING);
        mask = capacity - 1;
        hashShift = 64 - bits;
    }

    /**
     * Where a key is, or the empty position where it would be inserted.
     */
    int find(final long key)
    {
        int position = home(key);
        while (MISSING != values[position] && keys[position] != key)
        {
            position = (position + 1) & mask;
        }
        return position;
    }

    int valueAt(final int position)
    {
        return values[position];
    }

    void insertAt(final int position, final long key, final int value)
    {
        keys[position] = key;
        values[position] = value;
    }

    void remove(final long key)
    {
        int hole = find(key);
        if (MISSING == values[hole])
        {
            return;
        }
        int position = hole;
        while (true)
        {
            position = (position + 1) & mask;
            if (MISSING == values[position])
            {
                break;
            }
            final int home = home(keys[position]);
            final boolean canMove = hole <= position ?
                (home <= hole || home > position) :
                (home <= hole && home > position);
            if (canMove)
            {
                keys[hole] = keys[position];
                values[hole] = values[position];
                hole = position;
            }
        }
        values[hole] = MISSING;
    }

    private int home(final long key)
    {
        return (int)((key * GOLDEN_RATIO_64) >>> hashShift);
    }
}
