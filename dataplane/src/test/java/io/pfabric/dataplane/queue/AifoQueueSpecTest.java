package io.pfabric.dataplane.queue;

class AifoQueueSpecTest extends QueueDisciplineSpecTest
{
    QueueDiscipline newQueue(final long capacityLength, final int maxFrameLength)
    {
        return new AifoQueue(capacityLength, maxFrameLength, maxFrameLength, 0.1, 20, 15);
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
