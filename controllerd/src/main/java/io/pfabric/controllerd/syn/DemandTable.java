package io.pfabric.controllerd.syn;

import java.util.Arrays;

/**
 * Per source-destination pair demand, in cells (one MTU each), as Fastpass keeps it: cumulative counts of cells
 * requested and allocated, so a repeated or reordered cumulative request does no harm (only an increase counts).
 * Counts are 32-bit and compared by difference, so they may wrap; a pair's backlog must stay below 2<sup>31</sup>.
 * <p>
 * Pairs with a backlog are <em>active</em> and hold a record with up to {@value #ARRIVAL_MARKS} arrival marks
 * (cumulative count, arrival slot), from which {@link Metric#OCF} reads the arrival slot of the oldest cell not yet
 * allocated. When more distinct arrival slots are outstanding, later cells are dated with the newest mark, that is,
 * treated as older than they are. An active pair's counts live in its record, so the allocator touches only the
 * records; the table also keeps 16 bytes per possible pair (indexed {@code src << hostBits | dst}): the requested
 * count and the record index in one long and the last served slot in the next, so that a pair's entry is one cache line
 * when its pair becomes active or drains, and about 70 bytes per record.
 */
public final class DemandTable
{
    /**
     * Arrival marks kept per active pair.
     */
    public static final int ARRIVAL_MARKS = 4;

    /**
     * Most hosts: 2<sup>24</sup> pair indexes.
     */
    public static final int MAX_HOST_COUNT = 4096;

    static final int NONE = -1;

    private final int hostCount;
    private final int hostBits;
    private final int hostMask;
    private final int maxActivePairs;

    private final long[] pairState;

    private final int[] recordPair;
    private final int[] recordRequested;
    private final int[] recordAllocated;
    private final long[] recordLastServed;
    private final int[] recordMarkCount;
    private final int[] markEndCells;
    private final long[] markSlot;
    private int activeCount;

    /**
     * An empty table.
     *
     * @param hostCount      hosts, 1 to {@value #MAX_HOST_COUNT}.
     * @param maxActivePairs most pairs with a backlog at once.
     */
    public DemandTable(final int hostCount, final int maxActivePairs)
    {
        if (hostCount < 1 || hostCount > MAX_HOST_COUNT)
        {
            throw new IllegalArgumentException("hostCount must be 1 to " + MAX_HOST_COUNT + ", not " + hostCount);
        }
        if (maxActivePairs < 1)
        {
            throw new IllegalArgumentException("maxActivePairs must be at least 1");
        }
        this.hostCount = hostCount;
        this.hostBits = Math.max(1, 32 - Integer.numberOfLeadingZeros(hostCount - 1));
        this.hostMask = (1 << hostBits) - 1;
        this.maxActivePairs = maxActivePairs;
        final int pairSpace = 1 << (2 * hostBits);
        pairState = new long[2 * pairSpace];
        for (int pair = 0; pair < pairSpace; pair++)
        {
            pairState[2 * pair] = packPairState(0, NONE);
            pairState[2 * pair + 1] = Long.MIN_VALUE;
        }
        recordPair = new int[maxActivePairs];
        recordRequested = new int[maxActivePairs];
        recordAllocated = new int[maxActivePairs];
        recordLastServed = new long[maxActivePairs];
        recordMarkCount = new int[maxActivePairs];
        markEndCells = new int[maxActivePairs * ARRIVAL_MARKS];
        markSlot = new long[maxActivePairs * ARRIVAL_MARKS];
    }

    /**
     * @return hosts.
     */
    public int hostCount()
    {
        return hostCount;
    }

    /**
     * @return most pairs with a backlog at once.
     */
    public int maxActivePairs()
    {
        return maxActivePairs;
    }

    /**
     * A cumulative request: the source has asked for {@code cumulativeCells} cells to the destination since the
     * start. Only the increase over the largest count seen so far is added.
     *
     * @param srcHost         the sender.
     * @param dstHost         the receiver.
     * @param cumulativeCells cells requested since the start, modulo 2<sup>32</sup>.
     * @param arrivalSlot     the slot the new cells arrived in.
     * @return the cells added, 0 for a stale or repeated request.
     * @throws IllegalStateException if the pair becomes active while {@link #maxActivePairs()} already are.
     */
    public int request(final int srcHost, final int dstHost, final int cumulativeCells, final long arrivalSlot)
    {
        final int pair = pair(srcHost, dstHost);
        final int increase = cumulativeCells - requestedOfPair(pair);
        if (increase <= 0)
        {
            return 0;
        }
        addToPair(pair, increase, arrivalSlot);
        return increase;
    }

    /**
     * New cells from the source to the destination.
     *
     * @param srcHost     the sender.
     * @param dstHost     the receiver.
     * @param cells       cells added, at least 1.
     * @param arrivalSlot the slot they arrived in.
     * @throws IllegalStateException if the pair becomes active while {@link #maxActivePairs()} already are.
     */
    public void add(final int srcHost, final int dstHost, final int cells, final long arrivalSlot)
    {
        if (cells <= 0)
        {
            throw new IllegalArgumentException("cells must be positive, not " + cells);
        }
        addToPair(pair(srcHost, dstHost), cells, arrivalSlot);
    }

    /**
     * @param srcHost the sender.
     * @param dstHost the receiver.
     * @return cells requested and not yet allocated.
     */
    public int backlogCells(final int srcHost, final int dstHost)
    {
        final int record = recordOfPair(pair(srcHost, dstHost));
        return NONE == record ? 0 : recordRequested[record] - recordAllocated[record];
    }

    /**
     * @param srcHost the sender.
     * @param dstHost the receiver.
     * @return cells requested since the start, modulo 2<sup>32</sup>.
     */
    public int requestedCells(final int srcHost, final int dstHost)
    {
        return requestedOfPair(pair(srcHost, dstHost));
    }

    /**
     * @param srcHost the sender.
     * @param dstHost the receiver.
     * @return cells allocated since the start, modulo 2<sup>32</sup>.
     */
    public int allocatedCells(final int srcHost, final int dstHost)
    {
        final int pair = pair(srcHost, dstHost);
        final int record = recordOfPair(pair);
        return NONE == record ? requestedOfPair(pair) : recordAllocated[record];
    }

    /**
     * @param srcHost the sender.
     * @param dstHost the receiver.
     * @return the last slot the pair was allocated, or {@link Long#MIN_VALUE} if never.
     */
    public long lastServedSlot(final int srcHost, final int dstHost)
    {
        final int pair = pair(srcHost, dstHost);
        final int record = recordOfPair(pair);
        return NONE == record ? pairState[2 * pair + 1] : recordLastServed[record];
    }

    /**
     * @param srcHost the sender.
     * @param dstHost the receiver.
     * @return the arrival slot of the pair's oldest cell not yet allocated, or {@link Long#MAX_VALUE} if it has none.
     */
    public long oldestArrivalSlot(final int srcHost, final int dstHost)
    {
        final int record = recordOfPair(pair(srcHost, dstHost));
        return NONE == record || 0 == recordMarkCount[record] ? Long.MAX_VALUE : markSlot[record * ARRIVAL_MARKS];
    }

    /**
     * @return pairs holding an active record (a backlog, or allocated to zero since the last batch).
     */
    public int activePairCount()
    {
        return activeCount;
    }

    int hostBits()
    {
        return hostBits;
    }

    int hostMask()
    {
        return hostMask;
    }

    int pairOfRecord(final int record)
    {
        return recordPair[record];
    }

    int recordOfPair(final int pair)
    {
        return (int)(pairState[2 * pair] >> 32);
    }

    int backlogOfRecord(final int record)
    {
        return recordRequested[record] - recordAllocated[record];
    }

    long metricValue(final int record, final Metric metric)
    {
        return switch (metric)
        {
            case OCF -> markSlot[record * ARRIVAL_MARKS];
            case SRJF -> recordRequested[record] - recordAllocated[record];
            case MMF -> recordLastServed[record];
        };
    }

    void allocate(final int record, final int cells, final long lastSlot)
    {
        final int allocated = recordAllocated[record] + cells;
        recordAllocated[record] = allocated;
        recordLastServed[record] = lastSlot;
        final int base = record * ARRIVAL_MARKS;
        int marks = recordMarkCount[record];
        int spent = 0;
        while (spent < marks && markEndCells[base + spent] - allocated <= 0)
        {
            spent++;
        }
        if (spent > 0)
        {
            marks -= spent;
            for (int i = 0; i < marks; i++)
            {
                markEndCells[base + i] = markEndCells[base + spent + i];
                markSlot[base + i] = markSlot[base + spent + i];
            }
            recordMarkCount[record] = marks;
        }
    }

    /**
     * Drop the records of pairs left with no backlog; records move, so only between batches.
     */
    void compact()
    {
        int record = 0;
        while (record < activeCount)
        {
            if (recordRequested[record] - recordAllocated[record] > 0)
            {
                record++;
                continue;
            }
            final int pair = recordPair[record];
            pairState[2 * pair] = packPairState(recordRequested[record], NONE);
            pairState[2 * pair + 1] = recordLastServed[record];
            final int last = --activeCount;
            if (record != last)
            {
                final int movedPair = recordPair[last];
                recordPair[record] = movedPair;
                pairState[2 * movedPair] = packPairState(recordRequested[last], record);
                recordRequested[record] = recordRequested[last];
                recordAllocated[record] = recordAllocated[last];
                recordLastServed[record] = recordLastServed[last];
                recordMarkCount[record] = recordMarkCount[last];
                final int to = record * ARRIVAL_MARKS;
                final int from = last * ARRIVAL_MARKS;
                for (int i = 0; i < ARRIVAL_MARKS; i++)
                {
                    markEndCells[to + i] = markEndCells[from + i];
                    markSlot[to + i] = markSlot[from + i];
                }
            }
        }
    }

    private void addToPair(final int pair, final int cells, final long arrivalSlot)
    {
        final long state = pairState[2 * pair];
        final int previous = (int)state;
        int record = (int)(state >> 32);
        if (NONE == record)
        {
            if (activeCount == maxActivePairs)
            {
                throw new IllegalStateException("more than " + maxActivePairs + " active pairs");
            }
            record = activeCount++;
            recordPair[record] = pair;
            recordAllocated[record] = previous;
            recordLastServed[record] = pairState[2 * pair + 1];
            recordMarkCount[record] = 0;
        }
        final int requested = previous + cells;
        pairState[2 * pair] = packPairState(requested, record);
        recordRequested[record] = requested;

        final int base = record * ARRIVAL_MARKS;
        final int marks = recordMarkCount[record];
        if (marks > 0 && (markSlot[base + marks - 1] == arrivalSlot || marks == ARRIVAL_MARKS))
        {
            markEndCells[base + marks - 1] = requested;
        }
        else
        {
            markEndCells[base + marks] = requested;
            markSlot[base + marks] = arrivalSlot;
            recordMarkCount[record] = marks + 1;
        }
    }

    private int requestedOfPair(final int pair)
    {
        return (int)pairState[2 * pair];
    }

    private static long packPairState(final int requestedCells, final int record)
    {
        return (long)record << 32 | (requestedCells & 0xFFFF_FFFFL);
    }

    private int pair(final int srcHost, final int dstHost)
    {
        if (srcHost < 0 || srcHost >= hostCount || dstHost < 0 || dstHost >= hostCount)
        {
            throw new IndexOutOfBoundsException("hosts must be 0 to " + (hostCount - 1) + ": " + srcHost + ", " +
                dstHost);
        }
        return srcHost << hostBits | dstHost;
    }
}
