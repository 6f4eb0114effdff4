package io.pfabric.dataplane.queue;

class StrictPriorityQueueSpecTest extends QueueDisciplineSpecTest
{
    QueueDiscipline newQueue(final long capacityLength, final int maxFrameLength)
    {
        return new StrictPriorityQueue(capacityLength, maxFrameLength, StrictPriorityQueue.DEFAULT_THRESHOLDS);
    }

    DropReason fullBufferDropReason()
    {
        return DropReason.TAIL_DROP;
    }
}
