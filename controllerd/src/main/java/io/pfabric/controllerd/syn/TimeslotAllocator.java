package io.pfabric.controllerd.syn;

import java.util.Arrays;

/**
 * Fastpass's timeslot allocator (Perry et al., SIGCOMM 2014, §3): a batch of up to 64 upcoming slots at a time, each
 * a greedy maximal matching of sources to destinations over the {@link DemandTable}'s backlog, then a path for every
 * grant that crosses the spine layer.
 * <p>
 * At the start of a batch the active pairs are put in the order of the {@link Metric} (smallest value first, ties by
 * source then destination) with an LSD radix sort of keys that also carry the pair's record index when it fits, so
 * the matching touches only the compact per-record arrays. Each pair in that order then takes its earliest common
 * free slots of the batch, up to its backlog: {@code Long.numberOfTrailingZeros(srcFree[src] & dstFree[dst] & ...)},
 * one word operation per allocated cell. This is the same as filling the slots one after the other, each by a greedy matching
 * in the batch's order; the order is not re-evaluated within a batch (a batch of 1 slot re-evaluates every slot).
 * <p>
 * A grant between two leaves also takes one of the {@link LeafSpineFabric#pathCount()} paths out of the source leaf
 * and into the destination leaf; once a leaf has used them all in a slot, that slot is masked out for every other
 * pair crossing that leaf. Each slot's grants therefore form a bipartite leaf multigraph of degree at most the path
 * count, which {@link PathColourer} always colours: no grant goes without a spine.
 * <p>
 * Maximal: at the end of a batch no pair with backlog has a slot where its source, its destination and, across
 * leaves, both leaves' paths are all free. Nothing is allocated per slot or per grant; grants go to a
 * {@link GrantHandler}. Not thread-safe: demand is added between batches on the allocating thread.
 */
public final class TimeslotAllocator
{
    /**
     * Most slots per batch: one bit each in a long.
     */
    public static final int MAX_BATCH_SLOTS = 64;

    private static final int RADIX_BITS = 11;
    private static final int RADIX = 1 << RADIX_BITS;
    private static final long METRIC_RANGE = 1L << 30;

    private final LeafSpineFabric fabric;
    private final DemandTable demand;
    private final Metric metric;
    private final int batchSlots;
    private final long batchMask;
    private final int hostCount;
    private final int pathCount;
    private final int[] leafOfHost;

    private final long[] srcFree;
    private final long[] dstFree;
    private final int[] uplinkUsed;
    private final int[] downlinkUsed;
    private final long[] uplinkFull;
    private final long[] downlinkFull;

    private long[] order;
    private long[] orderScratch;
    private final int[] radixCount = new int[RADIX];

    private final int[] slotGrantCount;
    private final int[] slotGrantSrc;
    private final int[] slotGrantDst;
    private final int[] slotGrantEdge;
    private final PathColourer colourer;

    private final int recordBits;
    private int recordShift;
    private long nextSlot;

    /**
     * An allocator over a demand table.
     *
     * @param fabric     the hosts, leaves and paths.
     * @param demand     the backlog, for {@link LeafSpineFabric#hostCount()} hosts.
     * @param metric     the order pairs are served in.
     * @param batchSlots slots allocated per batch, 1 to {@value #MAX_BATCH_SLOTS}.
     * @param firstSlot  the first slot to allocate.
     */
    public TimeslotAllocator(
        final LeafSpineFabric fabric,
        final DemandTable demand,
        final Metric metric,
        final int batchSlots,
        final long firstSlot)
    {
        if (fabric.hostCount() != demand.hostCount())
        {
            throw new IllegalArgumentException("fabric has " + fabric.hostCount() + " hosts, demand table " +
                demand.hostCount());
        }
        if (batchSlots < 1 || batchSlots > MAX_BATCH_SLOTS)
        {
            throw new IllegalArgumentException("batchSlots must be 1 to 64, not " + batchSlots);
        }
        this.fabric = fabric;
        this.demand = demand;
        this.metric = metric;
        this.batchSlots = batchSlots;
        this.batchMask = 64 == batchSlots ? -1L : (1L << batchSlots) - 1;
        this.hostCount = fabric.hostCount();
        this.pathCount = fabric.pathCount();
        this.nextSlot = firstSlot;

        leafOfHost = new int[hostCount];
        for (int host = 0; host < hostCount; host++)
        {
            leafOfHost[host] = fabric.leafOf(host);
        }
        final int leafCount = fabric.leafCount();
        srcFree = new long[hostCount];
        dstFree = new long[hostCount];
        uplinkUsed = new int[leafCount * MAX_BATCH_SLOTS];
        downlinkUsed = new int[leafCount * MAX_BATCH_SLOTS];
        uplinkFull = new long[leafCount];
        downlinkFull = new long[leafCount];

        recordBits = Math.max(1, 32 - Integer.numberOfLeadingZeros(demand.maxActivePairs() - 1));
        order = new long[demand.maxActivePairs()];
        orderScratch = new long[demand.maxActivePairs()];

        slotGrantCount = new int[batchSlots];
        slotGrantSrc = new int[batchSlots * hostCount];
        slotGrantDst = new int[batchSlots * hostCount];
        slotGrantEdge = new int[hostCount];
        colourer = new PathColourer(leafCount, Math.max(1, pathCount), hostCount);
    }

    /**
     * @return the first slot of the next batch.
     */
    public long nextSlot()
    {
        return nextSlot;
    }

    /**
     * Leave the slots before a given one unallocated, as when the controller's clock has passed them: the next batch
     * starts there. Demand is kept.
     *
     * @param slot the first slot of the next batch, if later than {@link #nextSlot()}.
     */
    public void skipTo(final long slot)
    {
        if (slot > nextSlot)
        {
            nextSlot = slot;
        }
    }

    /**
     * @return slots per batch.
     */
    public int batchSlots()
    {
        return batchSlots;
    }

    /**
     * @return the order pairs are served in.
     */
    public Metric metric()
    {
        return metric;
    }

    /**
     * @return the fabric scheduled.
     */
    public LeafSpineFabric fabric()
    {
        return fabric;
    }

    /**
     * Allocate the next batch of slots, {@link #nextSlot()} onwards, and hand every grant to the handler, slot by slot
     * in slot order, and within a slot in the batch's metric order.
     *
     * @param handler receives the grants.
     * @return grants made.
     */
    public int allocateBatch(final GrantHandler handler)
    {
        final int active = demand.activePairCount();
        final long firstSlot = nextSlot;
        nextSlot += batchSlots;
        if (0 == active)
        {
            return 0;
        }
        Arrays.fill(srcFree, batchMask);
        Arrays.fill(dstFree, batchMask);
        if (pathCount > 0)
        {
            Arrays.fill(uplinkUsed, 0);
            Arrays.fill(downlinkUsed, 0);
            Arrays.fill(uplinkFull, 0L);
            Arrays.fill(downlinkFull, 0L);
        }
        Arrays.fill(slotGrantCount, 0);

        sortActivePairs(active, firstSlot);
        match(active, firstSlot);
        demand.compact();
        return emit(firstSlot, handler);
    }

    private void match(final int active, final long firstSlot)
    {
        final long[] order = this.order;
        final long[] srcFree = this.srcFree;
        final long[] dstFree = this.dstFree;
        final int pairMask = (1 << (2 * demand.hostBits())) - 1;
        final int hostBits = demand.hostBits();
        final int hostMask = demand.hostMask();
        final int pathCount = this.pathCount;
        final int recordShift = this.recordShift;
        final int recordMask = (1 << recordBits) - 1;
        for (int i = 0; i < active; i++)
        {
            final long key = order[i];
            final int pair = (int)(key >>> recordShift) & pairMask;
            final int src = pair >>> hostBits;
            final int dst = pair & hostMask;
            long avail = srcFree[src] & dstFree[dst];
            if (0 == avail)
            {
                continue;
            }
            final int srcLeaf = leafOfHost[src];
            final int dstLeaf = leafOfHost[dst];
            final boolean crossing = srcLeaf != dstLeaf;
            if (crossing)
            {
                avail &= ~(uplinkFull[srcLeaf] | downlinkFull[dstLeaf]);
            }
            final int record = 0 == recordShift ? demand.recordOfPair(pair) : (int)key & recordMask;
            final int backlog = demand.backlogOfRecord(record);
            int granted = 0;
            int slotIndex = 0;
            while (0 != avail && granted < backlog)
            {
                final long bit = avail & -avail;
                avail ^= bit;
                slotIndex = Long.numberOfTrailingZeros(bit);
                srcFree[src] ^= bit;
                dstFree[dst] ^= bit;
                if (crossing)
                {
                    if (++uplinkUsed[srcLeaf * MAX_BATCH_SLOTS + slotIndex] == pathCount)
                    {
                        uplinkFull[srcLeaf] |= bit;
                    }
                    if (++downlinkUsed[dstLeaf * MAX_BATCH_SLOTS + slotIndex] == pathCount)
                    {
                        downlinkFull[dstLeaf] |= bit;
                    }
                }
                final int n = slotGrantCount[slotIndex]++;
                slotGrantSrc[slotIndex * hostCount + n] = src;
                slotGrantDst[slotIndex * hostCount + n] = dst;
                granted++;
            }
            if (granted > 0)
            {
                demand.allocate(record, granted, firstSlot + slotIndex);
            }
        }
    }

    private int emit(final long firstSlot, final GrantHandler handler)
    {
        int total = 0;
        for (int slotIndex = 0; slotIndex < batchSlots; slotIndex++)
        {
            final int count = slotGrantCount[slotIndex];
            final int base = slotIndex * hostCount;
            if (pathCount > 0)
            {
                colourer.reset();
                for (int n = 0; n < count; n++)
                {
                    final int srcLeaf = leafOfHost[slotGrantSrc[base + n]];
                    final int dstLeaf = leafOfHost[slotGrantDst[base + n]];
                    int edge = PathColourer.REFUSED;
                    if (srcLeaf != dstLeaf)
                    {
                        edge = colourer.add(srcLeaf, dstLeaf);
                        if (PathColourer.REFUSED == edge)
                        {
                            throw new IllegalStateException("slot " + (firstSlot + slotIndex) +
                                " has more crossing grants at a leaf than paths");
                        }
                    }
                    slotGrantEdge[n] = edge;
                }
            }
            final long slot = firstSlot + slotIndex;
            for (int n = 0; n < count; n++)
            {
                final int edge = pathCount > 0 ? slotGrantEdge[n] : PathColourer.REFUSED;
                final int spine = PathColourer.REFUSED == edge ?
                    GrantHandler.NO_SPINE : fabric.spineOfPath(colourer.colour(edge));
                handler.onGrant(slot, slotGrantSrc[base + n], slotGrantDst[base + n], spine);
            }
            total += count;
        }
        return total;
    }

    private void sortActivePairs(final int active, final long firstSlot)
    {
        final Metric metric = this.metric;
        final long[] order = this.order;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int record = 0; record < active; record++)
        {
            long value = demand.metricValue(record, metric);
            if (Metric.SRJF == metric)
            {
                value = Math.min(value, METRIC_RANGE);
            }
            else
            {
                value = Math.max(firstSlot - METRIC_RANGE, Math.min(firstSlot + METRIC_RANGE, value));
            }
            order[record] = value;
            min = Math.min(min, value);
            max = Math.max(max, value);
        }
        final int pairBits = 2 * demand.hostBits();
        final int metricBits = 64 - Long.numberOfLeadingZeros(max - min);
        recordShift = metricBits + pairBits + recordBits <= 63 ? recordBits : 0;
        final int shift = pairBits + recordShift;
        for (int record = 0; record < active; record++)
        {
            final long embedded = 0 == recordShift ? 0 : record;
            order[record] =
                (order[record] - min) << shift | (long)demand.pairOfRecord(record) << recordShift | embedded;
        }
        radixSort(active, recordShift, shift + metricBits);
    }

    private void radixSort(final int length, final int fromBit, final int toBit)
    {
        final int[] count = radixCount;
        for (int shift = fromBit; shift < toBit; shift += RADIX_BITS)
        {
            final long[] from = order;
            final long[] to = orderScratch;
            Arrays.fill(count, 0);
            for (int i = 0; i < length; i++)
            {
                count[(int)(from[i] >>> shift) & (RADIX - 1)]++;
            }
            int sum = 0;
            for (int digit = 0; digit < RADIX; digit++)
            {
                final int c = count[digit];
                count[digit] = sum;
                sum += c;
            }
            for (int i = 0; i < length; i++)
            {
                final long key = from[i];
                to[count[(int)(key >>> shift) & (RADIX - 1)]++] = key;
            }
            order = to;
            orderScratch = from;
        }
    }
}
