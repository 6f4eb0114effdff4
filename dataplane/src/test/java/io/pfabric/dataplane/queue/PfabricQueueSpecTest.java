package io.pfabric.dataplane.queue;

class PfabricQueueSpecTest extends QueueDisciplineSpecTest
{
    QueueDiscipline newQueue(final long capacityLength, final int maxFrameLength)
    {
        return new PfabricQueue(capacityLength, maxFrameLength, PfabricQueue.Structure.SORTED);
    }

    DropReason fullBufferDropReason()
    {
        return DropReason.PRIORITY_DROP_ARRIVAL;
    }
}
