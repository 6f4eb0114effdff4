package io.pfabric.dataplane.queue;

class PfabricSortedQueueScenarioTest extends PfabricQueueScenarioTest
{
    PfabricQueue.Structure structure()
    {
        return PfabricQueue.Structure.SORTED;
    }
}
