package io.pfabric.switchd.queue;

class PfabricHeapQueueScenarioTest extends PfabricQueueScenarioTest
{
    PfabricQueue.Structure structure()
    {
        return PfabricQueue.Structure.HEAPS;
    }
}
