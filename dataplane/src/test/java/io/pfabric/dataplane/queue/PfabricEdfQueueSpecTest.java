package io.pfabric.dataplane.queue;

/**
 * The contract on pFabric-EDF's queue: the spec's frames carry no DEADLINE flag and a priority above 0, so they all
 * go to the other queue, which is given the spec's capacity (the whole buffer being twice that).
 */
class PfabricEdfQueueSpecTest extends QueueDisciplineSpecTest
{
    QueueDiscipline newQueue(final long capacityLength, final int maxFrameLength)
    {
        return new PfabricEdfQueue(2 * capacityLength, maxFrameLength, maxFrameLength);
    }

    DropReason fullBufferDropReason()
    {
        return DropReason.PRIORITY_DROP_ARRIVAL;
    }
}
