package io.pfabric.dataplane.queue;

class SpPifoQueueSpecTest extends QueueDisciplineSpecTest
{
    QueueDiscipline newQueue(final long capacityLength, final int maxFrameLength)
    {
        return new SpPifoQueue(capacityLength, maxFrameLength, maxFrameLength, 8, 0);
    }

    boolean passesThroughAnEmptyBuffer()
    {
        return false;
    }

    DropReason fullBufferDropReason()
    {
        return DropReason.TAIL_DROP;
    }
}
