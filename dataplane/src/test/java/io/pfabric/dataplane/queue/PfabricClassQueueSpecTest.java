package io.pfabric.dataplane.queue;

import io.pfabric.common.topology.TrafficClasses;

class PfabricClassQueueSpecTest extends QueueDisciplineSpecTest
{
    QueueDiscipline newQueue(final long capacityLength, final int maxFrameLength)
    {
        return new PfabricClassQueue(capacityLength, maxFrameLength, TrafficClasses.DEFAULT);
    }

    DropReason fullBufferDropReason()
    {
        return DropReason.PRIORITY_DROP_ARRIVAL;
    }
}
