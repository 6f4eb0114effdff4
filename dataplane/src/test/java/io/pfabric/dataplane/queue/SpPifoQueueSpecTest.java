package io.pfabric.dataplane.queue;

class SpPifoQueueSpecTest extends QueueDisciplineSpecTest
{
    QueueDiscipline newQueue(final long capacityLength, final int maxFrameLength)
    {
        return new SpPifoQueue(capacityLength, maxFrameLength, maxFrameLength, 8, 0);
    }

    DropReason fullBufferDropReason()
    {
        return DropReason.TAIL_DROP;
    }
}
