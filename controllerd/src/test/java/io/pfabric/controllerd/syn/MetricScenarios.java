package io.pfabric.controllerd.syn;

import java.util.List;

/**
 * Demand that tells the metrics apart.
 */
final class MetricScenarios
{
    private MetricScenarios()
    {
    }

    /**
     * Host 0 has 3 cells for host 1 (arrived in slot 2) and 4 for host 2 (arrived in slot 1, so older); slots are
     * allocated one per batch so the order is re-evaluated every slot.
     *
     * @return the grants of slots 0 to 7.
     */
    static List<String> twoFlowsFromOneSource(final Metric metric, final GrantRecorder recorder)
    {
        final DemandTable demand = new DemandTable(3, 16);
        demand.add(0, 1, 3, 2);
        demand.add(0, 2, 4, 1);
        final TimeslotAllocator allocator = new TimeslotAllocator(LeafSpineFabric.singleLeaf(3), demand, metric, 1, 0);
        for (int slot = 0; slot < 8; slot++)
        {
            allocator.allocateBatch(recorder);
        }
        return recorder.pairs();
    }
}
