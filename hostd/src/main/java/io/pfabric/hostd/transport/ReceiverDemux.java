package io.pfabric.hostd.transport;

import io.pfabric.common.wire.PfabricHeaderFlyweight;
import org.agrona.collections.Long2ObjectHashMap;

import java.util.ArrayList;
import java.util.Iterator;

/**
 * The host's receiving side: hands each DATA or PROBE packet to its flow's {@link FlowReceiver} (made on the flow's
 * first packet), answers it at once with an ACK of priority 0 that carries the host's incarnation, and delivers the
 * message once, when the flow completes. A packet of a flow completed lately is answered from {@link CompletedFlows}.
 * With {@link TransportConfiguration#segmentsPerAck()} above 1 (an option), an in-order packet's ACK may wait for the
 * next ones of its flow, until {@link #sendOwedAcks} at the end of the receive batch.
 * <p>
 * A flow not complete whose packets stop for the idle timeout is given up ({@link #expireIdle}): its state is
 * released, such as that of a flow a sender gave up when this host restarted (the new start sees only the part the
 * earlier start had not acknowledged, so it could never complete). Its id is remembered among the last
 * {@link #EXPIRED_FLOWS_REMEMBERED}, and a late packet of it is dropped rather than taken for a new flow.
 */
final class ReceiverDemux
{
    private final Long2ObjectHashMap<FlowReceiver> receiversByFlow = new Long2ObjectHashMap<>();
    private final ArrayList<FlowReceiver> owingAcks = new ArrayList<>();
    /**
     * Flows given up for idleness remembered, so that their late packets start no new flow.
     */
    static final int EXPIRED_FLOWS_REMEMBERED = 4_096;

    private final CompletedFlows completed = new CompletedFlows(HostTransport.COMPLETED_FLOWS_REMEMBERED);
    private final CompletedFlows expired = new CompletedFlows(EXPIRED_FLOWS_REMEMBERED);
    private final PacketWriter writer;
    private final Egress egress;
    private final TransportListener listener;
    private final TransportCounters counters;
    private final boolean keepPayload;
    private int incarnation;
    private long idleTimeoutNs;
    private long nextSweepNs;
    private boolean sweepScheduled;

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
     * The incarnation every ACK carries.
     *
     * @param newIncarnation 0 to 65,535.
     */
    void incarnation(final int newIncarnation)
    {
        incarnation = newIncarnation;
    }

    /**
     * How long a flow not complete may go without a packet before its state is given up.
     *
     * @param newIdleTimeoutNs positive.
     */
    void idleTimeoutNs(final long newIdleTimeoutNs)
    {
        idleTimeoutNs = newIdleTimeoutNs;
        sweepScheduled = false;
    }

    /**
     * Give up the flows not complete that had no packet for the idle timeout; scans every flow, at most every quarter
     * of the timeout.
     *
     * @param nowNs current time.
     * @return flows given up.
     */
    int expireIdle(final long nowNs)
    {
        if (!sweepScheduled)
        {
            sweepScheduled = true;
            nextSweepNs = nowNs + sweepIntervalNs();
            return 0;
        }
        if (nowNs - nextSweepNs < 0)
        {
            return 0;
        }
        nextSweepNs = nowNs + sweepIntervalNs();
        int expiredCount = 0;
        final Iterator<FlowReceiver> iterator = receiversByFlow.values().iterator();
        while (iterator.hasNext())
        {
            final FlowReceiver receiver = iterator.next();
            if (nowNs - receiver.lastPacketNs() >= idleTimeoutNs)
            {
                iterator.remove();
                expired.remember(receiver.flowId(), receiver.sizeBytes());
                counters.receiversExpired++;
                expiredCount++;
            }
        }
        return expiredCount;
    }

    private long sweepIntervalNs()
    {
        return Math.max(1, idleTimeoutNs / 4);
    }

    /**
     * Flows being received.
     *
     * @return the count.
     */
    int activeFlows()
    {
        return receiversByFlow.size();
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
                acknowledge(sourceHost, flowId, completedSize, null, nowNs);
                return;
            }
            if (CompletedFlows.UNKNOWN != expired.sizeBytes(flowId))
            {
                counters.expiredFlowPackets++;
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
        receiver.lastPacketNs(nowNs);
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
            acknowledge(sourceHost, flowId, receiver.cumulativeAckBytes(), receiver, nowNs);
        }
        if (receiver.isComplete())
        {
            receiversByFlow.remove(flowId);
            completed.remember(flowId, receiver.sizeBytes());
            counters.messagesDelivered++;
            if (keepPayload)
            {
                // The ACK that completes the flow leaves before the listener takes the message, however long that
                // takes: the sender's timeout runs until it arrives.
                egress.flush();
                listener.onMessage(sourceHost, flowId, receiver.message());
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
                acknowledge(receiver.sourceHost(), receiver.flowId(), receiver.cumulativeAckBytes(), receiver, nowNs);
                sent++;
            }
        }
        owingAcks.clear();
        return sent;
    }

    private void acknowledge(
        final int destinationHost,
        final long flowId,
        final long cumulativeAckBytes,
        final FlowReceiver receiver,
        final long nowNs)
    {
        if (null != receiver)
        {
            receiver.acknowledged();
        }
        egress.send(destinationHost, writer.writeAck(flowId, incarnation, cumulativeAckBytes, receiver), nowNs);
        counters.acksSent++;
    }
}
