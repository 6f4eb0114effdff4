package io.pfabric.dataplane.queue;

class DropTailQueueSpecTest extends QueueDisciplineSpecTest
{
    QueueDiscipline newQueue(final long capacityLength, final int maxFrameLength)
    {
        return new DropTailQueue(capacityLength, maxFrameLength);
    }

    DropReason fullBufferDropReason()
    {
        return DropReason.TAIL_DROP;
    }
}
