package io.pfabric.dataplane.queue;

class PfabricHeapQueueScenarioTest extends PfabricQueueScenarioTest
{
    PfabricQueue.Structure structure()
    {
        return PfabricQueue.Structure.HEAPS;
    }
}
