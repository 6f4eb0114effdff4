package io.pfabric.controllerd.syn;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class MmfTimeslotAllocatorSpecTest extends TimeslotAllocatorSpecTest
{
    Metric metric()
    {
        return Metric.MMF;
    }

    @Test
    void twoFlowsFromOneSourceTakeTurns()
    {
        assertEquals(List.of("0:0>1", "1:0>2", "2:0>1", "3:0>2", "4:0>1", "5:0>2", "6:0>2"),
            MetricScenarios.twoFlowsFromOneSource(metric(), recorder));
    }

    @Test
    void aBatchFixesTheOrderAtItsStart()
    {
        final DemandTable demand = new DemandTable(3, 16);
        demand.add(0, 1, 3, 2);
        demand.add(0, 2, 4, 1);
        final TimeslotAllocator allocator =
            new TimeslotAllocator(LeafSpineFabric.singleLeaf(3), demand, metric(), 8, 0);
        allocator.allocateBatch(recorder);
        assertEquals(List.of("0:0>1", "1:0>1", "2:0>1", "3:0>2", "4:0>2", "5:0>2", "6:0>2"), recorder.pairs());
        assertEquals(2, demand.lastServedSlot(0, 1));
        assertEquals(6, demand.lastServedSlot(0, 2));
    }

    @Test
    void leastRecentlyServedGoesFirstAcrossSources()
    {
        final DemandTable demand = new DemandTable(4, 16);
        demand.add(0, 1, 1, 0);
        final TimeslotAllocator allocator =
            new TimeslotAllocator(LeafSpineFabric.singleLeaf(4), demand, metric(), 1, 0);
        allocator.allocateBatch(recorder);
        demand.add(2, 3, 1, 1);
        allocator.allocateBatch(recorder);
        demand.add(0, 1, 1, 2);
        demand.add(2, 3, 1, 2);
        demand.add(2, 1, 1, 2);
        demand.add(0, 3, 1, 2);
        allocator.allocateBatch(recorder);
        allocator.allocateBatch(recorder);
        assertEquals(List.of("0:0>1", "1:2>3", "2:0>3", "2:2>1", "3:0>1", "3:2>3"), recorder.pairs());
    }
}
