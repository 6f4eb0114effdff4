package io.pfabric.hostd.transport;

import io.pfabric.common.wire.PfabricHeaderFlyweight;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * The host's receiving side: hands each DATA or PROBE packet to its flow's {@link FlowReceiver} (made on the flow's
 * first packet), answers it at once with an ACK of priority 0, and delivers the message once, when the flow
 * completes. A packet of a flow completed lately is answered from {@link CompletedFlows}.
 */
final class ReceiverDemux
{
    private final Long2ObjectHashMap<FlowReceiver> receiversByFlow = new Long2ObjectHashMap<>();
    private final CompletedFlows completed = new CompletedFlows();
    private final PacketWriter writer;
    private final Egress egress;
    private final TransportListener listener;
    private final TransportCounters counters;
    private final boolean keepPayload;

    ReceiverDemux(
        final PacketWriter writer,
        final Egress egress,
        final TransportListener listener,
        final TransportCounters counters,
        final boolean keepPayload)
    {
        this.writer = writer;
        this.egress = egress;
        this.listener = listener;
        this.counters = counters;
        this.keepPayload = keepPayload;
    }

    /**
     * A DATA or PROBE packet that passed {@link InboundReader#read}.
     *
     * @param configuration the settings a new flow's receiver gets (its segment length).
     */
    void onDataOrProbe(
        final int sourceHost, final InboundReader inbound, final TransportConfiguration configuration, final long nowNs)
    {
        final PfabricHeaderFlyweight header = inbound.header();
        final long flowId = header.flowId();
        final long sizeBytes = header.flowSize();
        FlowReceiver receiver = receiversByFlow.get(flowId);
        if (null == receiver)
        {
            final long completedSize = completed.sizeBytes(flowId);
            if (CompletedFlows.UNKNOWN != completedSize)
            {
                counters.duplicatePackets++;
                acknowledge(sourceHost, flowId, completedSize, completedSize, null, nowNs);
                return;
            }
            if (sizeBytes < 1 || (keepPayload && sizeBytes > Integer.MAX_VALUE - 8) ||
                (int)(flowId >>> 32) != sourceHost)
            {
                counters.malformedPackets++;
                return;
            }
            receiver = new FlowReceiver(flowId, sourceHost, sizeBytes, configuration.segmentLength(), keepPayload);
            receiversByFlow.put(flowId, receiver);
        }
        if (PfabricHeaderFlyweight.TYPE_DATA == header.type())
        {
            final int result = receiver.onData(
                header.segmentOffset(), inbound.packet(), inbound.headerLength(), inbound.payloadLength());
            if (FlowReceiver.INVALID == result)
            {
                counters.malformedPackets++;
                return;
            }
            if (FlowReceiver.DUPLICATE == result)
            {
                counters.duplicatePackets++;
            }
        }
        else
        {
            counters.probesReceived++;
        }
        acknowledge(sourceHost, flowId, receiver.sizeBytes(), receiver.cumulativeAckBytes(), receiver, nowNs);
        if (receiver.isComplete())
        {
            receiversByFlow.remove(flowId);
            completed.remember(flowId, receiver.sizeBytes());
            counters.messagesDelivered++;
            if (keepPayload)
            {
                listener.onMessage(sourceHost, flowId, receiver.message(), (int)receiver.sizeBytes());
            }
        }
    }

    private void acknowledge(
        final int destinationHost,
        final long flowId,
        final long sizeBytes,
        final long cumulativeAckBytes,
        final FlowReceiver receiver,
        final long nowNs)
    {
        egress.send(destinationHost, writer.writeAck(flowId, sizeBytes, cumulativeAckBytes, receiver), nowNs);
        counters.acksSent++;
    }
}
