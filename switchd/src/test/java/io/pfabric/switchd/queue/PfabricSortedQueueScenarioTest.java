package io.pfabric.switchd.queue;

class PfabricSortedQueueScenarioTest extends PfabricQueueScenarioTest
{
    PfabricQueue.Structure structure()
    {
        return PfabricQueue.Structure.SORTED;
    }
}
