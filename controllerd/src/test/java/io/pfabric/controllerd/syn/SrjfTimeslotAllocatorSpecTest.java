package io.pfabric.controllerd.syn;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SrjfTimeslotAllocatorSpecTest extends TimeslotAllocatorSpecTest
{
    Metric metric()
    {
        return Metric.SRJF;
    }

    @Test
    void shortestBacklogGoesFirstAndEachSlotIsTheGreedyMatchingInThatOrder()
    {
        final DemandTable demand = new DemandTable(4, 16);
        demand.add(0, 1, 5, 1);
        demand.add(2, 1, 1, 3);
        demand.add(0, 3, 2, 2);
        final TimeslotAllocator allocator =
            new TimeslotAllocator(LeafSpineFabric.singleLeaf(4), demand, metric(), 1, 0);
        allocator.allocateBatch(recorder);
        allocator.allocateBatch(recorder);
        allocator.allocateBatch(recorder);
        assertEquals(List.of("0:2>1", "0:0>3", "1:0>3", "2:0>1"), recorder.pairs());
    }

    @Test
    void twoFlowsFromOneSourceShortestFirst()
    {
        assertEquals(List.of("0:0>1", "1:0>1", "2:0>1", "3:0>2", "4:0>2", "5:0>2", "6:0>2"),
            MetricScenarios.twoFlowsFromOneSource(metric(), recorder));
    }
}
