package io.pfabric.controllerd.syn;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the allocator must do under every metric: one cell per source and per destination per slot, no more than the
 * backlog, a maximal matching in every slot, every crossing grant on a spine with no leaf-spine link over its
 * capacity, and the same grants as the plain {@link ReferenceAllocator}.
 */
abstract class TimeslotAllocatorSpecTest
{
    /**
     * 16 hosts, 4 per leaf, one spine whose links carry 2 packets per slot: at most 2 crossing grants per leaf per
     * slot, so the leaf limit binds often.
     */
    static final LeafSpineFabric NARROW = new LeafSpineFabric(16, 4, 1, 2);

    /**
     * 12 hosts, 3 per leaf, 3 spines of 1 packet per slot: the fabric is not oversubscribed.
     */
    static final LeafSpineFabric WIDE = new LeafSpineFabric(12, 3, 3, 1);

    /**
     * 64 hosts, 8 per leaf, 2 spines of 4 packets per slot: 8 paths per leaf, as many as hosts, so busy slots have
     * leaves with no path free in common and need recolouring.
     */
    static final LeafSpineFabric DENSE = new LeafSpineFabric(64, 8, 2, 4);

    final GrantRecorder recorder = new GrantRecorder();

    abstract Metric metric();

    TimeslotAllocator allocator(final LeafSpineFabric fabric, final DemandTable demand, final int batchSlots)
    {
        return new TimeslotAllocator(fabric, demand, metric(), batchSlots, 1_000);
    }

    @Test
    void sameGrantsAsTheReferenceOverManyRandomBatches()
    {
        for (final LeafSpineFabric fabric : new LeafSpineFabric[]{ NARROW, WIDE, LeafSpineFabric.singleLeaf(9) })
        {
            for (final int batchSlots : new int[]{ 1, 7, 64 })
            {
                final Random random = new Random(batchSlots * 31L + fabric.hostCount());
                final DemandTable demand = new DemandTable(fabric.hostCount(), 1024);
                final TimeslotAllocator allocator = allocator(fabric, demand, batchSlots);
                for (int batch = 0; batch < 40; batch++)
                {
                    addRandomDemand(random, demand, allocator.nextSlot(), fabric.hostCount(), 2 * batchSlots);
                    final List<String> expected = ReferenceAllocator.batch(
                        demand, fabric, metric(), allocator.nextSlot(), batchSlots);
                    recorder.clear();
                    final int granted = allocator.allocateBatch(recorder);
                    assertEquals(expected, recorder.pairs(), fabric + ", batch " + batch + " of " + batchSlots);
                    assertEquals(expected.size(), granted);
                }
            }
        }
    }

    @Test
    void everySlotIsAMaximalMatchingWithinTheBacklogAndEveryCrossingGrantHasASpine()
    {
        for (final LeafSpineFabric fabric : new LeafSpineFabric[]{ NARROW, WIDE })
        {
            final Random random = new Random(7 + fabric.hostCount());
            final int hosts = fabric.hostCount();
            final int batchSlots = 16;
            final DemandTable demand = new DemandTable(hosts, 1024);
            final TimeslotAllocator allocator = allocator(fabric, demand, batchSlots);
            int crossingGrants = 0;
            for (int batch = 0; batch < 50; batch++)
            {
                addRandomDemand(random, demand, allocator.nextSlot(), hosts, batchSlots + batch % 3 * batchSlots);
                final int[][] backlogBefore = backlog(demand, hosts);
                final long firstSlot = allocator.nextSlot();
                recorder.clear();
                allocator.allocateBatch(recorder);

                final boolean[][] srcBusy = new boolean[batchSlots][hosts];
                final boolean[][] dstBusy = new boolean[batchSlots][hosts];
                final int[][] up = new int[batchSlots][fabric.leafCount()];
                final int[][] down = new int[batchSlots][fabric.leafCount()];
                final int[][][] upPerSpine = new int[batchSlots][fabric.leafCount()][fabric.spineCount()];
                final int[][][] downPerSpine = new int[batchSlots][fabric.leafCount()][fabric.spineCount()];
                final int[][] granted = new int[hosts][hosts];
                for (final long[] grant : recorder.grants)
                {
                    final int t = (int)(grant[0] - firstSlot);
                    final int src = (int)grant[1];
                    final int dst = (int)grant[2];
                    final int spine = (int)grant[3];
                    assertTrue(t >= 0 && t < batchSlots);
                    assertFalse(srcBusy[t][src], "source twice in a slot");
                    assertFalse(dstBusy[t][dst], "destination twice in a slot");
                    srcBusy[t][src] = true;
                    dstBusy[t][dst] = true;
                    granted[src][dst]++;
                    final int srcLeaf = fabric.leafOf(src);
                    final int dstLeaf = fabric.leafOf(dst);
                    if (srcLeaf == dstLeaf)
                    {
                        assertEquals(GrantHandler.NO_SPINE, spine);
                        continue;
                    }
                    crossingGrants++;
                    assertTrue(spine >= 0 && spine < fabric.spineCount(), "spine " + spine);
                    up[t][srcLeaf]++;
                    down[t][dstLeaf]++;
                    assertTrue(++upPerSpine[t][srcLeaf][spine] <= fabric.spineLinkPacketsPerSlot(), "uplink over");
                    assertTrue(++downPerSpine[t][dstLeaf][spine] <= fabric.spineLinkPacketsPerSlot(), "downlink over");
                }
                for (int src = 0; src < hosts; src++)
                {
                    for (int dst = 0; dst < hosts; dst++)
                    {
                        assertEquals(backlogBefore[src][dst] - granted[src][dst], demand.backlogCells(src, dst));
                        if (demand.backlogCells(src, dst) == 0)
                        {
                            continue;
                        }
                        final int srcLeaf = fabric.leafOf(src);
                        final int dstLeaf = fabric.leafOf(dst);
                        for (int t = 0; t < batchSlots; t++)
                        {
                            final boolean pathsFull = srcLeaf != dstLeaf &&
                                (up[t][srcLeaf] == fabric.pathCount() || down[t][dstLeaf] == fabric.pathCount());
                            assertTrue(srcBusy[t][src] || dstBusy[t][dst] || pathsFull,
                                "not maximal: " + src + ">" + dst + " has backlog and all free in slot " + t);
                        }
                    }
                }
            }
            assertTrue(crossingGrants > 1000, "too few crossing grants to mean anything: " + crossingGrants);
        }
    }

    @Test
    void slotsThatNeedRecolouringKeepTheReferenceGrantsAndEveryLinkWithinItsPackets()
    {
        final LeafSpineFabric fabric = DENSE;
        final int hosts = fabric.hostCount();
        final int batchSlots = 64;
        final Random random = new Random(2_026_112_3L);
        final DemandTable demand = new DemandTable(hosts, 4096);
        final TimeslotAllocator allocator = allocator(fabric, demand, batchSlots);
        int recolouredSlots = 0;
        for (int batch = 0; batch < 30; batch++)
        {
            addRandomDemand(random, demand, allocator.nextSlot(), hosts, 2 * batchSlots);
            final long firstSlot = allocator.nextSlot();
            final List<String> expected = ReferenceAllocator.batch(demand, fabric, metric(), firstSlot, batchSlots);
            recorder.clear();
            allocator.allocateBatch(recorder);
            assertEquals(expected, recorder.pairs(), "batch " + batch);

            final int[][][] upPerSpine = new int[batchSlots][fabric.leafCount()][fabric.spineCount()];
            final int[][][] downPerSpine = new int[batchSlots][fabric.leafCount()][fabric.spineCount()];
            final long[][] firstFitUp = new long[batchSlots][fabric.leafCount()];
            final long[][] firstFitDown = new long[batchSlots][fabric.leafCount()];
            final boolean[] firstFitFails = new boolean[batchSlots];
            for (final long[] grant : recorder.grants)
            {
                final int t = (int)(grant[0] - firstSlot);
                final int srcLeaf = fabric.leafOf((int)grant[1]);
                final int dstLeaf = fabric.leafOf((int)grant[2]);
                final int spine = (int)grant[3];
                if (srcLeaf == dstLeaf)
                {
                    assertEquals(GrantHandler.NO_SPINE, spine);
                    continue;
                }
                assertTrue(spine >= 0 && spine < fabric.spineCount(), "spine " + spine);
                assertTrue(++upPerSpine[t][srcLeaf][spine] <= fabric.spineLinkPacketsPerSlot(), "uplink over");
                assertTrue(++downPerSpine[t][dstLeaf][spine] <= fabric.spineLinkPacketsPerSlot(), "downlink over");
                final long common = ~(firstFitUp[t][srcLeaf] | firstFitDown[t][dstLeaf]) & 0xFF;
                if (0 == common)
                {
                    firstFitFails[t] = true;
                    continue;
                }
                firstFitUp[t][srcLeaf] |= Long.lowestOneBit(common);
                firstFitDown[t][dstLeaf] |= Long.lowestOneBit(common);
            }
            for (final boolean fails : firstFitFails)
            {
                recolouredSlots += fails ? 1 : 0;
            }
        }
        assertTrue(recolouredSlots > 50, "too few slots where first fit fails: " + recolouredSlots);
    }

    @Test
    void aPermutationOfFullBatchesFillsEverySlot()
    {
        final int hosts = 12;
        final DemandTable demand = new DemandTable(hosts, 64);
        for (int src = 0; src < hosts; src++)
        {
            demand.add(src, (src + 5) % hosts, 64, 0);
        }
        final TimeslotAllocator allocator = allocator(WIDE, demand, 64);
        assertEquals(hosts * 64, allocator.allocateBatch(recorder));
        assertEquals(0, demand.activePairCount());
        assertEquals(1_064, allocator.nextSlot());
        recorder.clear();
        assertEquals(0, allocator.allocateBatch(recorder));
        assertTrue(recorder.grants.isEmpty());
    }

    @Test
    void leafLimitHoldsBackGrantsThatWouldHaveNoSpine()
    {
        final DemandTable demand = new DemandTable(16, 64);
        for (int src = 0; src < 4; src++)
        {
            demand.add(src, 4 + src, 1, 0);
        }
        final TimeslotAllocator allocator = allocator(NARROW, demand, 1);
        assertEquals(2, allocator.allocateBatch(recorder));
        assertEquals(2, allocator.allocateBatch(recorder));
        assertEquals(List.of("1000:0>4", "1000:1>5", "1001:2>6", "1001:3>7"), recorder.pairs());
        assertNotEquals(recorder.grants.get(0)[3], -1L);
    }

    static void addRandomDemand(
        final Random random, final DemandTable demand, final long slot, final int hosts, final int cells)
    {
        for (int src = 0; src < hosts; src++)
        {
            int left = random.nextInt(cells + 1);
            while (left > 0)
            {
                final int n = 1 + random.nextInt(Math.min(left, 6));
                demand.add(src, random.nextInt(hosts), n, slot - random.nextInt(4));
                left -= n;
            }
        }
    }

    static int[][] backlog(final DemandTable demand, final int hosts)
    {
        final int[][] backlog = new int[hosts][hosts];
        for (int src = 0; src < hosts; src++)
        {
            for (int dst = 0; dst < hosts; dst++)
            {
                backlog[src][dst] = demand.backlogCells(src, dst);
            }
        }
        return backlog;
    }
}
