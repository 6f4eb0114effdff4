package io.pfabric.controllerd.syn;

import java.util.Arrays;

/**
 * Fastpass's timeslot allocator (Perry et al., SIGCOMM 2014, §3): a batch of up to 64 upcoming slots at a time, each
 * a greedy maximal matching of sources to destinations over the {@link DemandTable}'s backlog, then a path for every
 * grant that crosses the spine layer.
 * <p>
 * At the start of a batch the active pairs are put in the order of the {@link Metric} (smallest value first, ties by
 * source then destination) with an LSD radix sort of keys that also carry the pair's record index (metric values
 * clamped to 2<sup>30</sup> slots either side of the batch are keyed next to the nearest unclamped value, so MMF's
 * never-served pairs do not widen the key), so the matching touches only the compact per-record arrays and never the
 * table of all pairs. Each pair in that order then takes its earliest common free slots of the batch, up to its
 * backlog: {@code Long.numberOfTrailingZeros(srcFree[src] & dstFree[dst] & ...)}, one word operation per allocated
 * cell. This is the same as filling the slots one after the other, each by a greedy matching in the batch's order;
 * the order is not re-evaluated within a batch (a batch of 1 slot re-evaluates every slot).
 * <p>
 * A grant between two leaves also takes one of the {@link LeafSpineFabric#pathCount()} paths out of the source leaf
 * and into the destination leaf, chosen as it is made from per-leaf, per-slot masks of the paths used: the lowest
 * path free at both leaves. Once a leaf has used every path in a slot, that slot is masked out for every other pair
 * crossing that leaf, so each slot's grants form a bipartite leaf multigraph of degree at most the path count. A grant
 * that finds no path free at both leaves (the leaves' free paths differ) reserves one free path at each leaf and
 * marks its slot; before such a slot's grants are handed out, {@link PathColourer} takes the slot's other grants with
 * their paths and colours the marked ones by alternating-path recolouring, which always succeeds at that degree: no
 * grant goes without a spine.
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
    private static final int PATH_SHIFT = 24;
    private static final int PAIR_MASK = (1 << PATH_SHIFT) - 1;
    private static final int WITHIN_LEAF = 127;
    private static final int UNCOLOURED = 126;

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
    private final long allColours;
    private final long[] uplinkColours;
    private final long[] downlinkColours;
    private final long[] uplinkFull;
    private final long[] downlinkFull;

    private long[] order;
    private long[] orderScratch;
    private final int[] radixCount = new int[RADIX];

    private final int[] slotGrantCount;
    private final int[] slotGrantPair;
    private final int[] slotGrantEdge;
    private final int[] uncolouredGrants;
    private long uncolouredSlots;
    private final int[] spineOfPath;
    private final PathColourer colourer;

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
        allColours = 64 == pathCount ? -1L : (1L << pathCount) - 1;
        uplinkColours = new long[leafCount * MAX_BATCH_SLOTS];
        downlinkColours = new long[leafCount * MAX_BATCH_SLOTS];
        uplinkFull = new long[leafCount];
        downlinkFull = new long[leafCount];

        order = new long[demand.maxActivePairs()];
        orderScratch = new long[demand.maxActivePairs()];

        slotGrantCount = new int[batchSlots];
        slotGrantPair = new int[batchSlots * hostCount];
        slotGrantEdge = new int[hostCount];
        uncolouredGrants = new int[hostCount];
        spineOfPath = new int[Math.max(1, pathCount)];
        for (int path = 0; path < pathCount; path++)
        {
            spineOfPath[path] = fabric.spineOfPath(path);
        }
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
            Arrays.fill(uplinkColours, 0L);
            Arrays.fill(downlinkColours, 0L);
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
        final int[] leafOfHost = this.leafOfHost;
        final long allColours = this.allColours;
        final long[] uplinkColours = this.uplinkColours;
        final long[] downlinkColours = this.downlinkColours;
        final long[] uplinkFull = this.uplinkFull;
        final long[] downlinkFull = this.downlinkFull;
        final int[] slotGrantCount = this.slotGrantCount;
        final int[] slotGrantPair = this.slotGrantPair;
        final DemandTable demand = this.demand;
        final int hostCount = this.hostCount;
        final int hostBits = demand.hostBits();
        final int hostMask = demand.hostMask();
        final int pairMask = (1 << (2 * hostBits)) - 1;
        final int recordShift = this.recordShift;
        long uncolouredSlots = 0;
        final int recordMask = (1 << recordShift) - 1;
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
                if (0 == avail)
                {
                    continue;
                }
            }
            final int record = 0 == recordShift ? demand.recordOfPair(pair) : (int)key & recordMask;
            final int backlog = demand.backlogOfRecord(record);
            long taken = 0;
            int granted = 0;
            int slotIndex = 0;
            while (0 != avail && granted < backlog)
            {
                final long bit = avail & -avail;
                avail ^= bit;
                taken |= bit;
                slotIndex = Long.numberOfTrailingZeros(bit);
                int path = WITHIN_LEAF;
                if (crossing)
                {
                    final int up = srcLeaf * MAX_BATCH_SLOTS + slotIndex;
                    final int down = dstLeaf * MAX_BATCH_SLOTS + slotIndex;
                    long upColours = uplinkColours[up];
                    long downColours = downlinkColours[down];
                    final long common = ~(upColours | downColours) & allColours;
                    if (0 != common)
                    {
                        final long colour = common & -common;
                        upColours |= colour;
                        downColours |= colour;
                        path = Long.numberOfTrailingZeros(colour);
                    }
                    else
                    {
                        upColours |= Long.lowestOneBit(~upColours & allColours);
                        downColours |= Long.lowestOneBit(~downColours & allColours);
                        path = UNCOLOURED;
                        uncolouredSlots |= bit;
                    }
                    uplinkColours[up] = upColours;
                    downlinkColours[down] = downColours;
                    if (upColours == allColours)
                    {
                        uplinkFull[srcLeaf] |= bit;
                    }
                    if (downColours == allColours)
                    {
                        downlinkFull[dstLeaf] |= bit;
                    }
                }
                slotGrantPair[slotIndex * hostCount + slotGrantCount[slotIndex]++] = path << PATH_SHIFT | pair;
                granted++;
            }
            if (granted > 0)
            {
                srcFree[src] ^= taken;
                dstFree[dst] ^= taken;
                demand.allocate(record, granted, firstSlot + slotIndex);
            }
        }
        this.uncolouredSlots = uncolouredSlots;
    }

    private int emit(final long firstSlot, final GrantHandler handler)
    {
        final int[] slotGrantPair = this.slotGrantPair;
        final int[] spineOfPath = this.spineOfPath;
        final int hostBits = demand.hostBits();
        final int hostMask = demand.hostMask();
        int total = 0;
        for (int slotIndex = 0; slotIndex < batchSlots; slotIndex++)
        {
            final int count = slotGrantCount[slotIndex];
            final int base = slotIndex * hostCount;
            final long slot = firstSlot + slotIndex;
            if (0 != (uncolouredSlots & 1L << slotIndex))
            {
                colourSlot(slot, base, count);
                final PathColourer colourer = this.colourer;
                final int[] slotGrantEdge = this.slotGrantEdge;
                for (int n = 0; n < count; n++)
                {
                    final int entry = slotGrantPair[base + n];
                    final int pair = entry & PAIR_MASK;
                    final int spine = WITHIN_LEAF == entry >>> PATH_SHIFT ?
                        GrantHandler.NO_SPINE : spineOfPath[colourer.colour(slotGrantEdge[n])];
                    handler.onGrant(slot, pair >>> hostBits, pair & hostMask, spine);
                }
                total += count;
                continue;
            }
            for (int n = 0; n < count; n++)
            {
                final int entry = slotGrantPair[base + n];
                final int pair = entry & PAIR_MASK;
                final int path = entry >>> PATH_SHIFT;
                final int spine = WITHIN_LEAF == path ? GrantHandler.NO_SPINE : spineOfPath[path];
                handler.onGrant(slot, pair >>> hostBits, pair & hostMask, spine);
            }
            total += count;
        }
        return total;
    }

    private void colourSlot(final long slot, final int base, final int count)
    {
        final int[] slotGrantPair = this.slotGrantPair;
        final int[] slotGrantEdge = this.slotGrantEdge;
        final int[] uncolouredGrants = this.uncolouredGrants;
        final int[] leafOfHost = this.leafOfHost;
        final PathColourer colourer = this.colourer;
        final int hostBits = demand.hostBits();
        final int hostMask = demand.hostMask();
        int uncoloured = 0;
        colourer.reset();
        for (int n = 0; n < count; n++)
        {
            final int entry = slotGrantPair[base + n];
            final int path = entry >>> PATH_SHIFT;
            if (UNCOLOURED == path)
            {
                uncolouredGrants[uncoloured++] = n;
            }
            else if (WITHIN_LEAF != path)
            {
                final int edge = colourer.add(leafOfHost[(entry >>> hostBits) & hostMask],
                    leafOfHost[entry & hostMask], path);
                if (PathColourer.REFUSED == edge)
                {
                    throw noPathLeft(slot);
                }
                slotGrantEdge[n] = edge;
            }
        }
        for (int i = 0; i < uncoloured; i++)
        {
            final int n = uncolouredGrants[i];
            final int entry = slotGrantPair[base + n];
            final int edge = colourer.add(leafOfHost[(entry >>> hostBits) & hostMask], leafOfHost[entry & hostMask]);
            if (PathColourer.REFUSED == edge)
            {
                throw noPathLeft(slot);
            }
            slotGrantEdge[n] = edge;
        }
    }

    private static IllegalStateException noPathLeft(final long slot)
    {
        return new IllegalStateException("slot " + slot + " has more crossing grants at a leaf than paths");
    }

    private void sortActivePairs(final int active, final long firstSlot)
    {
        final DemandTable demand = this.demand;
        final Metric metric = this.metric;
        final long[] order = this.order;
        final long low = Metric.SRJF == metric ? 0 : firstSlot - METRIC_RANGE;
        final long high = Metric.SRJF == metric ? METRIC_RANGE : firstSlot + METRIC_RANGE;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int record = 0; record < active; record++)
        {
            final long value = Math.max(low, Math.min(high, demand.metricValue(record, metric)));
            order[record] = value;
            if (value != low && value != high)
            {
                min = Math.min(min, value);
                max = Math.max(max, value);
            }
        }
        if (min > max)
        {
            min = low + 1;
            max = low + 1;
        }
        final long lowKey = min - 1;
        final long highKey = max + 1;
        final int pairBits = 2 * demand.hostBits();
        final int recordBits = Math.max(1, 32 - Integer.numberOfLeadingZeros(active - 1));
        final int metricBits = 64 - Long.numberOfLeadingZeros(highKey - lowKey);
        final int recordShift = metricBits + pairBits + recordBits <= 63 ? recordBits : 0;
        final int shift = pairBits + recordShift;
        for (int record = 0; record < active; record++)
        {
            final long value = order[record];
            final long metricKey = (value == low ? lowKey : value == high ? highKey : value) - lowKey;
            final long embedded = 0 == recordShift ? 0 : record;
            order[record] = metricKey << shift | (long)demand.pairOfRecord(record) << recordShift | embedded;
        }
        this.recordShift = recordShift;
        radixSort(active, recordShift, shift + metricBits);
    }

    private void radixSort(final int length, final int fromBit, final int toBit)
    {
        final int[] count = radixCount;
        final int passes = (toBit - fromBit + RADIX_BITS - 1) / RADIX_BITS;
        if (0 == passes)
        {
            return;
        }
        final int digitBits = (toBit - fromBit + passes - 1) / passes;
        final int digits = 1 << digitBits;
        final int digitMask = digits - 1;
        for (int shift = fromBit; shift < toBit; shift += digitBits)
        {
            final long[] from = order;
            final long[] to = orderScratch;
            Arrays.fill(count, 0, digits, 0);
            for (int i = 0; i < length; i++)
            {
                count[(int)(from[i] >>> shift) & digitMask]++;
            }
            int sum = 0;
            for (int digit = 0; digit < digits; digit++)
            {
                final int c = count[digit];
                count[digit] = sum;
                sum += c;
            }
            for (int i = 0; i < length; i++)
            {
                final long key = from[i];
                to[count[(int)(key >>> shift) & digitMask]++] = key;
            }
            order = to;
            orderScratch = from;
        }
    }
}
