package io.pfabric.hostd.transport;

import io.pfabric.common.wire.PfabricHeaderFlyweight;
import org.agrona.collections.Long2ObjectHashMap;

import java.util.ArrayList;

/**
 * The host's receiving side: hands each DATA or PROBE packet to its flow's {@link FlowReceiver} (made on the flow's
 * first packet), answers it at once with an ACK of priority 0, and delivers the message once, when the flow
 * completes. A packet of a flow completed lately is answered from {@link CompletedFlows}. With
 * {@link TransportConfiguration#segmentsPerAck()} above 1 (an option), an in-order packet's ACK may wait for the
 * next ones of its flow, until {@link #sendOwedAcks} at the end of the receive batch.
 */
final class ReceiverDemux
{
    private final Long2ObjectHashMap<FlowReceiver> receiversByFlow = new Long2ObjectHashMap<>();
    private final ArrayList<FlowReceiver> owingAcks = new ArrayList<>();
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
        boolean mayDefer = false;
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
                PfabricHeaderFlyweight.hostId(flowId) != sourceHost)
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
            else
            {
                mayDefer = configuration.segmentsPerAck() > 1 && !receiver.isComplete() && receiver.isInOrder();
            }
        }
        else
        {
            counters.probesReceived++;
        }
        final int waiting = mayDefer ? receiver.deferAck() : 0;
        if (0 < waiting && waiting < configuration.segmentsPerAck())
        {
            if (1 == waiting)
            {
                owingAcks.add(receiver);
            }
            counters.acksDeferred++;
        }
        else
        {
            acknowledge(sourceHost, flowId, receiver.sizeBytes(), receiver.cumulativeAckBytes(), receiver, nowNs);
        }
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

    /**
     * Send the ACKs that in-order packets still wait for ({@link TransportConfiguration#segmentsPerAck()}): at the
     * end of each receive batch, before anything else is sent.
     *
     * @param nowNs current time.
     * @return ACKs sent.
     */
    int sendOwedAcks(final long nowNs)
    {
        final int owing = owingAcks.size();
        if (0 == owing)
        {
            return 0;
        }
        int sent = 0;
        for (int i = 0; i < owing; i++)
        {
            final FlowReceiver receiver = owingAcks.get(i);
            if (receiver.isAckOwed())
            {
                acknowledge(receiver.sourceHost(), receiver.flowId(), receiver.sizeBytes(),
                    receiver.cumulativeAckBytes(), receiver, nowNs);
                sent++;
            }
        }
        owingAcks.clear();
        return sent;
    }

    private void acknowledge(
        final int destinationHost,
        final long flowId,
        final long sizeBytes,
        final long cumulativeAckBytes,
        final FlowReceiver receiver,
        final long nowNs)
    {
        if (null != receiver)
        {
            receiver.acknowledged();
        }
        egress.send(destinationHost, writer.writeAck(flowId, sizeBytes, cumulativeAckBytes, receiver), nowNs);
        counters.acksSent++;
    }
}
