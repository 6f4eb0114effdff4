package io.pfabric.hostd.transport;

import org.agrona.collections.Long2LongHashMap;

/**
 * The last flows this host received whole ({@link HostTransport#COMPLETED_FLOWS_REMEMBERED}), with their sizes, so
 * that a late retransmission of one is acknowledged as complete rather than taken for a new flow; or the last flows
 * whose receiving state was given up, so that a late packet of one does not start a new flow. Once full, each flow
 * remembered forgets the oldest.
 */
final class CompletedFlows
{
    /**
     * {@link #sizeBytes} of a flow not remembered.
     */
    static final long UNKNOWN = -1;

    private final Long2LongHashMap sizesByFlow = new Long2LongHashMap(UNKNOWN);
    private final long[] ring;
    private int next;
    private int count;

    CompletedFlows(final int capacity)
    {
        ring = new long[capacity];
    }

    long sizeBytes(final long flowId)
    {
        return sizesByFlow.get(flowId);
    }

    void remember(final long flowId, final long sizeBytes)
    {
        if (count == ring.length)
        {
            sizesByFlow.remove(ring[next]);
        }
        else
        {
            count++;
        }
        ring[next] = flowId;
        next = (next + 1) % ring.length;
        sizesByFlow.put(flowId, sizeBytes);
    }
}
