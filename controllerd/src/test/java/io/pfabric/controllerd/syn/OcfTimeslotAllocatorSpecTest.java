package io.pfabric.controllerd.syn;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class OcfTimeslotAllocatorSpecTest extends TimeslotAllocatorSpecTest
{
    Metric metric()
    {
        return Metric.OCF;
    }

    @Test
    void oldestCellGoesFirstAndEachSlotIsTheGreedyMatchingInThatOrder()
    {
        final DemandTable demand = new DemandTable(4, 16);
        demand.add(0, 1, 2, 10);
        demand.add(0, 2, 1, 5);
        demand.add(1, 2, 1, 7);
        demand.add(3, 1, 1, 12);
        final TimeslotAllocator allocator =
            new TimeslotAllocator(LeafSpineFabric.singleLeaf(4), demand, metric(), 1, 100);
        for (int i = 0; i < 4; i++)
        {
            allocator.allocateBatch(recorder);
        }
        assertEquals(List.of("100:0>2", "100:3>1", "101:1>2", "101:0>1", "102:0>1"), recorder.pairs());
    }

    @Test
    void aPairsLaterCellsWaitBehindAnOlderPair()
    {
        final DemandTable demand = new DemandTable(4, 16);
        demand.add(0, 1, 2, 1);
        demand.add(0, 2, 2, 5);
        demand.add(0, 1, 2, 10);
        final TimeslotAllocator allocator =
            new TimeslotAllocator(LeafSpineFabric.singleLeaf(4), demand, metric(), 1, 20);
        for (int i = 0; i < 7; i++)
        {
            allocator.allocateBatch(recorder);
        }
        assertEquals(List.of("20:0>1", "21:0>1", "22:0>2", "23:0>2", "24:0>1", "25:0>1"), recorder.pairs());
    }

    @Test
    void twoFlowsFromOneSourceOldestFirst()
    {
        assertEquals(List.of("0:0>2", "1:0>2", "2:0>2", "3:0>2", "4:0>1", "5:0>1", "6:0>1"),
            MetricScenarios.twoFlowsFromOneSource(metric(), recorder));
    }
}
