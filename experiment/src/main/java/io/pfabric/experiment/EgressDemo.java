package io.pfabric.experiment;

import io.pfabric.common.wire.EthernetFlyweight;
import io.pfabric.common.wire.Ipv4Flyweight;
import io.pfabric.common.wire.PfabricHeaderFlyweight;
import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.dataplane.queue.QueueDiscipline;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * One switch egress port on virtual time: hosts on 10 Gb/s links send flows through one 1 Gb/s egress whose buffer is
 * a real {@link QueueDiscipline}, fed with real Ethernet/IPv4/pFabric frames built and read with the wire flyweights.
 * <p>
 * Each sender is a deliberately small stand-in for pFabric's transport: it starts with a window of 12 packets (one
 * bandwidth-delay product), stamps every packet with its flow's remaining unacknowledged bytes, is acknowledged per
 * packet, and retransmits a packet whose acknowledgement has not come 3 base RTTs after it was sent. There is no window
 * growth or probe mode; the full transport is hostd's.
 */
public final class EgressDemo
{
    static final long EGRESS_RATE_BITS_PER_SEC = 1_000_000_000L;
    static final long INGRESS_RATE_BITS_PER_SEC = 10_000_000_000L;
    static final long HOST_TO_SWITCH_DELAY_NS = 35_000;
    static final long SWITCH_TO_HOST_DELAY_NS = 35_000;
    static final long ACK_DELAY_NS = 70_000;
    public static final int WINDOW_PACKETS = 12;
    static final int PAYLOAD_LENGTH = 1448;
    static final int HEADERS_LENGTH =
        EthernetFlyweight.HEADER_LENGTH + Ipv4Flyweight.HEADER_LENGTH + PfabricHeaderFlyweight.HEADER_LENGTH;
    static final int FULL_FRAME_LENGTH = HEADERS_LENGTH + PAYLOAD_LENGTH;
    static final int PREAMBLE_AND_GAP_LENGTH = 24;
    public static final long BASE_RTT_NS = wireTimeNs(FULL_FRAME_LENGTH, INGRESS_RATE_BITS_PER_SEC) +
        HOST_TO_SWITCH_DELAY_NS + wireTimeNs(FULL_FRAME_LENGTH, EGRESS_RATE_BITS_PER_SEC) + SWITCH_TO_HOST_DELAY_NS + ACK_DELAY_NS;
    public static final long TIMEOUT_NS = 3 * BASE_RTT_NS;

    /**
     * A flow of the script.
     *
     * @param name      label.
     * @param sizeBytes message size.
     * @param startNs   arrival time at its sender.
     */
    public record FlowSpec(String name, long sizeBytes, long startNs)
    {
    }

    /**
     * What happened to one flow.
     *
     * @param spec           the flow.
     * @param fctNs          completion time: arrival to acknowledgement of the last byte.
     * @param timeouts       retransmission timeouts.
     * @param packetsSent    packets sent, retransmissions included.
     */
    public record FlowResult(FlowSpec spec, long fctNs, int timeouts, int packetsSent)
    {
    }

    /**
     * What happened at the port.
     *
     * @param flows     per flow, in script order.
     * @param queue     the port's queue, for its counters.
     * @param endNs     when the last flow completed.
     */
    public record Outcome(List<FlowResult> flows, QueueDiscipline queue, long endNs)
    {
    }

    private enum Type
    {
        SEND, ARRIVE, PORT_FREE, DELIVER, ACK, TIMEOUT
    }

    private record Event(long timeNs, long order, Type type, int flow, int segment, int attempt, byte[] frame)
        implements Comparable<Event>
    {
        public int compareTo(final Event other)
        {
            final int byTime = Long.compare(timeNs, other.timeNs);
            return 0 != byTime ? byTime : Long.compare(order, other.order);
        }
    }

    private static final class Sender
    {
        final FlowSpec spec;
        final int segments;
        final boolean[] acked;
        final boolean[] inFlight;
        final int[] attempts;
        final ArrayDeque<Integer> retransmissions = new ArrayDeque<>();
        int nextNew;
        int outstanding;
        int ackedCount;
        long ackedBytes;
        long linkFreeNs;
        boolean sendScheduled;
        int timeouts;
        int packetsSent;
        long fctNs = -1;

        Sender(final FlowSpec spec)
        {
            this.spec = spec;
            this.segments = (int)((spec.sizeBytes() + PAYLOAD_LENGTH - 1) / PAYLOAD_LENGTH);
            this.acked = new boolean[segments];
            this.inFlight = new boolean[segments];
            this.attempts = new int[segments];
        }

        int payloadLength(final int segment)
        {
            return (int)Math.min(PAYLOAD_LENGTH, spec.sizeBytes() - (long)segment * PAYLOAD_LENGTH);
        }
    }

    private final PriorityQueue<Event> events = new PriorityQueue<>();
    private final List<Sender> senders = new ArrayList<>();
    private final QueueDiscipline queue;
    private final UnsafeBuffer frameBuffer = new UnsafeBuffer(new byte[FULL_FRAME_LENGTH]);
    private final UnsafeBuffer portBuffer = new UnsafeBuffer(new byte[FULL_FRAME_LENGTH]);
    private final EthernetFlyweight ethernet = new EthernetFlyweight();
    private final Ipv4Flyweight ipv4 = new Ipv4Flyweight();
    private final PfabricHeaderFlyweight header = new PfabricHeaderFlyweight();
    private long order;
    private boolean portBusy;

    /**
     * A port with an empty queue.
     *
     * @param discipline     the port's queue discipline.
     * @param capacityLength its buffer in bytes.
     */
    public EgressDemo(final DisciplineKind discipline, final long capacityLength)
    {
        this.queue = discipline.newQueue(capacityLength, FULL_FRAME_LENGTH);
    }

    static long wireTimeNs(final int frameLength, final long rateBitsPerSec)
    {
        return ((frameLength + PREAMBLE_AND_GAP_LENGTH) * 8L * 1_000_000_000L + rateBitsPerSec - 1) / rateBitsPerSec;
    }

    /**
     * Run a script of flows through the port on virtual time.
     *
     * @param flows   the script.
     * @param limitNs virtual time after which the run stops.
     * @return what happened.
     */
    public Outcome run(final List<FlowSpec> flows, final long limitNs)
    {
        for (int i = 0; i < flows.size(); i++)
        {
            senders.add(new Sender(flows.get(i)));
            schedule(flows.get(i).startNs(), Type.SEND, i, 0, 0, null);
            senders.get(i).sendScheduled = true;
        }
        long nowNs = 0;
        int completed = 0;
        while (completed < flows.size() && !events.isEmpty())
        {
            final Event event = events.poll();
            nowNs = event.timeNs();
            if (nowNs > limitNs)
            {
                throw new IllegalStateException("demo did not finish within " + limitNs / 1_000_000 + " ms of virtual time");
            }
            switch (event.type())
            {
                case SEND -> onSend(nowNs, event.flow());
                case ARRIVE -> onArrive(nowNs, event.frame());
                case PORT_FREE -> onPortFree(nowNs);
                case DELIVER -> schedule(nowNs + ACK_DELAY_NS, Type.ACK, event.flow(), event.segment(), 0, null);
                case ACK -> completed += onAck(nowNs, event.flow(), event.segment());
                case TIMEOUT -> onTimeout(nowNs, event.flow(), event.segment(), event.attempt());
            }
        }
        final List<FlowResult> results = new ArrayList<>();
        for (final Sender sender : senders)
        {
            results.add(new FlowResult(sender.spec, sender.fctNs, sender.timeouts, sender.packetsSent));
        }
        return new Outcome(results, queue, nowNs);
    }

    private void onSend(final long nowNs, final int flow)
    {
        final Sender sender = senders.get(flow);
        sender.sendScheduled = false;
        if (sender.outstanding >= WINDOW_PACKETS || sender.fctNs >= 0)
        {
            return;
        }
        if (sender.linkFreeNs > nowNs)
        {
            scheduleSend(sender.linkFreeNs, flow);
            return;
        }
        int segment = -1;
        while (!sender.retransmissions.isEmpty() && segment < 0)
        {
            final int candidate = sender.retransmissions.poll();
            if (!sender.acked[candidate] && !sender.inFlight[candidate])
            {
                segment = candidate;
            }
        }
        if (segment < 0 && sender.nextNew < sender.segments)
        {
            segment = sender.nextNew++;
        }
        if (segment < 0)
        {
            return;
        }

        final int frameLength = buildFrame(flow, sender, segment);
        final long departureNs = nowNs + wireTimeNs(frameLength, INGRESS_RATE_BITS_PER_SEC);
        sender.linkFreeNs = departureNs;
        sender.inFlight[segment] = true;
        sender.outstanding++;
        sender.packetsSent++;
        final int attempt = ++sender.attempts[segment];
        final byte[] frame = new byte[frameLength];
        frameBuffer.getBytes(0, frame);
        schedule(departureNs + HOST_TO_SWITCH_DELAY_NS, Type.ARRIVE, flow, segment, attempt, frame);
        schedule(departureNs + TIMEOUT_NS, Type.TIMEOUT, flow, segment, attempt, null);
        scheduleSend(departureNs, flow);
    }

    private int buildFrame(final int flow, final Sender sender, final int segment)
    {
        final int payloadLength = sender.payloadLength(segment);
        final int pfabricLength = PfabricHeaderFlyweight.HEADER_LENGTH + payloadLength;
        ethernet.wrap(frameBuffer, 0)
            .destinationMac(0x02_00_00_00_00_FFL)
            .sourceMac(0x02_00_00_00_00_00L + flow)
            .etherType(EthernetFlyweight.ETHERTYPE_IPV4);
        ipv4.wrap(frameBuffer, EthernetFlyweight.HEADER_LENGTH)
            .version(Ipv4Flyweight.VERSION)
            .ihl(Ipv4Flyweight.MIN_IHL)
            .totalLength(Ipv4Flyweight.HEADER_LENGTH + pfabricLength)
            .ttl(64)
            .protocol(Ipv4Flyweight.PROTOCOL_PFABRIC)
            .sourceAddress(0x0A00_0001 + flow)
            .destinationAddress(0x0A00_00FE)
            .computeChecksum();
        header.wrap(frameBuffer, EthernetFlyweight.HEADER_LENGTH + Ipv4Flyweight.HEADER_LENGTH)
            .version(PfabricHeaderFlyweight.VERSION)
            .type(PfabricHeaderFlyweight.TYPE_DATA)
            .headerLength(PfabricHeaderFlyweight.HEADER_LENGTH)
            .priority(sender.spec.sizeBytes() - sender.ackedBytes)
            .flowId(PfabricHeaderFlyweight.flowId(flow + 1, 0, 0))
            .segmentOffset((long)segment * PAYLOAD_LENGTH)
            .flowSize(sender.spec.sizeBytes())
            .payloadLength(payloadLength)
            .computeChecksum(payloadLength);
        return HEADERS_LENGTH + payloadLength;
    }

    private void onArrive(final long nowNs, final byte[] frame)
    {
        final UnsafeBuffer arrived = new UnsafeBuffer(frame);
        final long priority = PfabricHeaderFlyweight.priorityAtFrameOffset(
            arrived, 0, PfabricHeaderFlyweight.PRIORITY_FRAME_OFFSET_IP);
        header.wrap(arrived, EthernetFlyweight.HEADER_LENGTH + Ipv4Flyweight.HEADER_LENGTH);
        queue.enqueue(arrived, 0, frame.length, priority, header.flowId());
        if (!portBusy)
        {
            onPortFree(nowNs);
        }
    }

    private void onPortFree(final long nowNs)
    {
        final int frameLength = queue.dequeue(portBuffer, 0);
        if (0 == frameLength)
        {
            portBusy = false;
            return;
        }
        portBusy = true;
        header.wrap(portBuffer, EthernetFlyweight.HEADER_LENGTH + Ipv4Flyweight.HEADER_LENGTH);
        if (!header.checksumValid())
        {
            throw new IllegalStateException("frame corrupted in the queue");
        }
        final int flow = PfabricHeaderFlyweight.hostId(header.flowId()) - 1;
        final int segment = (int)(header.segmentOffset() / PAYLOAD_LENGTH);
        final long sentNs = nowNs + wireTimeNs(frameLength, EGRESS_RATE_BITS_PER_SEC);
        schedule(sentNs, Type.PORT_FREE, flow, segment, 0, null);
        schedule(sentNs + SWITCH_TO_HOST_DELAY_NS, Type.DELIVER, flow, segment, 0, null);
    }

    private int onAck(final long nowNs, final int flow, final int segment)
    {
        final Sender sender = senders.get(flow);
        if (sender.acked[segment])
        {
            return 0;
        }
        sender.acked[segment] = true;
        sender.ackedCount++;
        sender.ackedBytes += sender.payloadLength(segment);
        if (sender.inFlight[segment])
        {
            sender.inFlight[segment] = false;
            sender.outstanding--;
        }
        if (sender.ackedCount == sender.segments)
        {
            sender.fctNs = nowNs - sender.spec.startNs();
            return 1;
        }
        scheduleSend(nowNs, flow);
        return 0;
    }

    private void onTimeout(final long nowNs, final int flow, final int segment, final int attempt)
    {
        final Sender sender = senders.get(flow);
        if (sender.acked[segment] || attempt != sender.attempts[segment] || !sender.inFlight[segment])
        {
            return;
        }
        sender.timeouts++;
        sender.inFlight[segment] = false;
        sender.outstanding--;
        sender.retransmissions.add(segment);
        scheduleSend(nowNs, flow);
    }

    private void scheduleSend(final long timeNs, final int flow)
    {
        final Sender sender = senders.get(flow);
        if (!sender.sendScheduled)
        {
            sender.sendScheduled = true;
            schedule(timeNs, Type.SEND, flow, 0, 0, null);
        }
    }

    private void schedule(
        final long timeNs, final Type type, final int flow, final int segment, final int attempt, final byte[] frame)
    {
        events.add(new Event(timeNs, order++, type, flow, segment, attempt, frame));
    }
}
