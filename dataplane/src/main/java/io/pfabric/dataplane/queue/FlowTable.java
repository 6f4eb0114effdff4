package io.pfabric.dataplane.queue;

/**
 * Flow id to flow index, open addressing with linear probing and backward-shift deletion, sized once so that it never
 * grows: a buffer of n slots holds at most n flows. Each key sits beside its value, so a probe reads one cache line.
 */
final class FlowTable
{
    static final int MISSING = -1;

    private static final long GOLDEN_RATIO_64 = 0x9E37_79B9_7F4A_7C15L;

    private final long[] entries;
    private final int mask;
    private final int hashShift;

    FlowTable(final int maxEntries)
    {
        final int bits = Math.max(4, 64 - Long.numberOfLeadingZeros(2L * maxEntries - 1));
        final int capacity = 1 << bits;
        entries = new long[2 * capacity];
        for (int i = 1; i < entries.length; i += 2)
        {
            entries[i] = MISSING;
        }
        mask = capacity - 1;
        hashShift = 64 - bits;
    }

    /**
     * Where a key is, or the empty position where it would be inserted.
     */
    int find(final long key)
    {
        int position = home(key);
        while (MISSING != entries[2 * position + 1] && entries[2 * position] != key)
        {
            position = (position + 1) & mask;
        }
        return position;
    }

    int valueAt(final int position)
    {
        return (int)entries[2 * position + 1];
    }

    void insertAt(final int position, final long key, final int value)
    {
        entries[2 * position] = key;
        entries[2 * position + 1] = value;
    }

    void remove(final long key)
    {
        int hole = find(key);
        if (MISSING == entries[2 * hole + 1])
        {
            return;
        }
        int position = hole;
        while (true)
        {
            position = (position + 1) & mask;
            if (MISSING == entries[2 * position + 1])
            {
                break;
            }
            final int home = home(entries[2 * position]);
            final boolean canMove = hole <= position ?
                (home <= hole || home > position) :
                (home <= hole && home > position);
            if (canMove)
            {
                entries[2 * hole] = entries[2 * position];
                entries[2 * hole + 1] = entries[2 * position + 1];
                hole = position;
            }
        }
        entries[2 * hole + 1] = MISSING;
    }

    private int home(final long key)
    {
        return (int)((key * GOLDEN_RATIO_64) >>> hashShift);
    }
}
