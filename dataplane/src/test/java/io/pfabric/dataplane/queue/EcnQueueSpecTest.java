package io.pfabric.dataplane.queue;

class EcnQueueSpecTest extends QueueDisciplineSpecTest
{
    QueueDiscipline newQueue(final long capacityLength, final int maxFrameLength)
    {
        return new EcnQueue(capacityLength, maxFrameLength, capacityLength / 2);
    }

    DropReason fullBufferDropReason()
    {
        return DropReason.TAIL_DROP;
    }
}
