package io.pfabric.dataplane.queue;

class PfabricHeapQueueSpecTest extends QueueDisciplineSpecTest
{
    QueueDiscipline newQueue(final long capacityLength, final int maxFrameLength)
    {
        return new PfabricQueue(capacityLength, maxFrameLength, PfabricQueue.Structure.HEAPS);
    }

    DropReason fullBufferDropReason()
    {
        return DropReason.PRIORITY_DROP_ARRIVAL;
    }
}
