package io.pfabric.dataplane.queue;

class PiasQueueSpecTest extends QueueDisciplineSpecTest
{
    QueueDiscipline newQueue(final long capacityLength, final int maxFrameLength)
    {
        return new PiasQueue(capacityLength, maxFrameLength, maxFrameLength, 8, 1_000_000);
    }

    DropReason fullBufferDropReason()
    {
        return DropReason.TAIL_DROP;
    }
}
