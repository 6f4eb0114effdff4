package io.pfabric.hostd.transport;

import org.agrona.collections.Long2LongHashMap;

/**
 * The last {@link HostTransport#COMPLETED_FLOWS_REMEMBERED} flows this host received whole, with their sizes, so that
 * a late retransmission of one is acknowledged as complete rather than taken for a new flow. Once full, each flow
 * remembered forgets the oldest.
 */
final class CompletedFlows
{
    /**
     * {@link #sizeBytes} of a flow not remembered.
     */
    static final long UNKNOWN = -1;

    private static final int CAPACITY = HostTransport.COMPLETED_FLOWS_REMEMBERED;

    private final Long2LongHashMap sizesByFlow = new Long2LongHashMap(UNKNOWN);
    private final long[] ring = new long[CAPACITY];
    private int next;
    private int count;

    long sizeBytes(final long flowId)
    {
        return sizesByFlow.get(flowId);
    }

    void remember(final long flowId, final long sizeBytes)
    {
        if (count == CAPACITY)
        {
            sizesByFlow.remove(ring[next]);
        }
        else
        {
            count++;
        }
        ring[next] = flowId;
        next = (next + 1) % CAPACITY;
        sizesByFlow.put(flowId, sizeBytes);
    }
}
