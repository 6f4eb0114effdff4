package io.pfabric.controllerd.syn;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DemandTableTest
{
    @Test
    void cumulativeRequestsCountOnlyTheirIncrease()
    {
        final DemandTable demand = new DemandTable(4, 8);
        assertEquals(5, demand.request(1, 2, 5, 0));
        assertEquals(0, demand.request(1, 2, 5, 1));
        assertEquals(0, demand.request(1, 2, 3, 2));
        assertEquals(2, demand.request(1, 2, 7, 3));
        assertEquals(7, demand.backlogCells(1, 2));
        assertEquals(7, demand.requestedCells(1, 2));
        assertEquals(1, demand.activePairCount());
    }

    @Test
    void cumulativeRequestsCountAcrossTheWrapOfTheirCounter()
    {
        final DemandTable demand = new DemandTable(2, 8);
        assertEquals(Integer.MAX_VALUE - 1, demand.request(0, 1, Integer.MAX_VALUE - 1, 0));
        assertEquals(4, demand.request(0, 1, Integer.MIN_VALUE + 2, 1));
        assertEquals(0, demand.request(0, 1, Integer.MAX_VALUE - 3, 2));
        assertEquals(Integer.MIN_VALUE + 2, demand.requestedCells(0, 1));
    }

    @Test
    void oldestArrivalFollowsAllocationThroughTheMarks()
    {
        final DemandTable demand = new DemandTable(2, 8);
        demand.add(0, 1, 2, 10);
        demand.add(0, 1, 1, 10);
        demand.add(0, 1, 2, 20);
        assertEquals(10, demand.oldestArrivalSlot(0, 1));
        final TimeslotAllocator allocator =
            new TimeslotAllocator(LeafSpineFabric.singleLeaf(2), demand, Metric.OCF, 3, 100);
        allocator.allocateBatch((slot, src, dst, spine) -> { });
        assertEquals(20, demand.oldestArrivalSlot(0, 1));
        assertEquals(102, demand.lastServedSlot(0, 1));
        allocator.allocateBatch((slot, src, dst, spine) -> { });
        assertEquals(Long.MAX_VALUE, demand.oldestArrivalSlot(0, 1));
        assertEquals(0, demand.activePairCount());
    }

    @Test
    void moreArrivalSlotsThanMarksAreDatedWithTheNewestMark()
    {
        final DemandTable demand = new DemandTable(2, 8);
        for (int i = 0; i < DemandTable.ARRIVAL_MARKS + 2; i++)
        {
            demand.add(0, 1, 1, i);
        }
        final TimeslotAllocator allocator =
            new TimeslotAllocator(LeafSpineFabric.singleLeaf(2), demand, Metric.OCF, DemandTable.ARRIVAL_MARKS - 1, 0);
        allocator.allocateBatch((slot, src, dst, spine) -> { });
        assertEquals(DemandTable.ARRIVAL_MARKS - 1, demand.oldestArrivalSlot(0, 1));
        assertEquals(3, demand.backlogCells(0, 1));
    }

    @Test
    void refusesMoreActivePairsThanItHolds()
    {
        final DemandTable demand = new DemandTable(4, 2);
        demand.add(0, 1, 1, 0);
        demand.add(0, 2, 1, 0);
        demand.add(0, 1, 1, 0);
        assertThrows(IllegalStateException.class, () -> demand.add(0, 3, 1, 0));
        assertThrows(IndexOutOfBoundsException.class, () -> demand.add(0, 4, 1, 0));
    }
}
