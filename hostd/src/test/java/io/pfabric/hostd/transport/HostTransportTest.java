package io.pfabric.hostd.transport;

import io.pfabric.hostd.io.PacketIos;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Host transports over an in-process network on virtual time: the SRPT choice at the source, and exactly-once
 * intact delivery through loss, reordering, duplication and truncation.
 */
@Timeout(300)
class HostTransportTest
{
    private static final long LINK_BPS = 10_000_000_000L;
    private static final int OVERHEAD = PacketIos.wireOverheadLength(PacketIos.UDP);
    private static final long STEP_NS = 500;
    /**
     * A step in which several packets arrive (a full packet takes 1.2 us at 10 Gb/s), so that a receive batch holds
     * more than one.
     */
    private static final long BATCHING_STEP_NS = 10_000;

    /**
     * Collects what one host receives and finishes.
     */
    private static final class Recorder implements TransportListener
    {
        final Map<Long, byte[]> messages = new HashMap<>();
        final Map<Long, Integer> deliveries = new HashMap<>();
        final List<FlowRecord> finished = new ArrayList<>();

        public void onMessage(final int sourceHost, final long flowId, final DirectBuffer message, final int length)
        {
            final byte[] bytes = new byte[length];
            message.getBytes(0, bytes);
            messages.put(flowId, bytes);
            deliveries.merge(flowId, 1, Integer::sum);
        }

        public void onFlowFinished(final FlowRecord record)
        {
            finished.add(record);
        }
    }

    private static List<HostTransport> hosts(final LossyNetwork network, final List<Recorder> recorders,
        final int count)
    {
        return hosts(network, recorders, count, TransportConfiguration.PAPER);
    }

    private static List<HostTransport> hosts(final LossyNetwork network, final List<Recorder> recorders,
        final int count, final TransportConfiguration configuration)
    {
        final List<HostTransport> transports = new ArrayList<>();
        for (int host = 0; host < count; host++)
        {
            final Recorder recorder = new Recorder();
            recorders.add(recorder);
            transports.add(new HostTransport(configuration, host, LINK_BPS, OVERHEAD,
                network.endpoint(host), network, recorder, true));
        }
        return transports;
    }

    private static byte[] randomBytes(final SplittableRandom random, final int length)
    {
        final byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    @Test
    void theSourceSendsTheFlowWithTheLeastRemainingFirst()
    {
        final LossyNetwork network = new LossyNetwork(1, 0, 0, 0, 2_000, 0);
        final List<Recorder> recorders = new ArrayList<>();
        final List<HostTransport> transports = hosts(network, recorders, 2);
        final CompletableFuture<FlowRecord> large = transports.get(0).send(1, 300_000);
        final CompletableFuture<FlowRecord> medium = transports.get(0).send(1, 30_000);
        final CompletableFuture<FlowRecord> small = transports.get(0).send(1, 3_000);
        network.runUntil(transports, () -> large.isDone(), STEP_NS, 100_000_000L);

        final List<Long> order = new ArrayList<>();
        for (final FlowRecord record : recorders.get(0).finished)
        {
            order.add(record.sizeBytes());
        }
        assertEquals(List.of(3_000L, 30_000L, 300_000L), order, "completion order is shortest first");
        assertTrue(small.join().endNs() < medium.join().endNs());
        assertEquals(0, large.join().timeouts(), "nothing lost on a lossless network");
    }

    @Test
    void messagesOfOnePacketAHundredKilobytesAndAHundredMegabytesArriveOnceAndIntactThroughALossyNetwork()
    {
        final LossyNetwork network = new LossyNetwork(7, 0.10, 0.01, 0.01, 2_000, 3_000);
        final List<Recorder> recorders = new ArrayList<>();
        final List<HostTransport> transports = hosts(network, recorders, 2);
        final SplittableRandom random = new SplittableRandom(99);
        final byte[] one = randomBytes(random, 1_000);
        final byte[] hundredKb = randomBytes(random, 100_000);
        final byte[] hundredMb = randomBytes(random, 100_000_000);
        final List<CompletableFuture<FlowRecord>> sends = List.of(
            transports.get(0).send(1, one), transports.get(1).send(0, hundredKb), transports.get(0).send(1, hundredMb));
        network.runUntil(transports, () -> sends.stream().allMatch(CompletableFuture::isDone), STEP_NS,
            60_000_000_000L);

        final FlowRecord oneRecord = sends.get(0).join();
        final FlowRecord kbRecord = sends.get(1).join();
        final FlowRecord mbRecord = sends.get(2).join();
        assertArrayEquals(one, recorders.get(1).messages.get(oneRecord.flowId()));
        assertArrayEquals(hundredKb, recorders.get(0).messages.get(kbRecord.flowId()));
        assertArrayEquals(hundredMb, recorders.get(1).messages.get(mbRecord.flowId()));
        for (final Recorder recorder : recorders)
        {
            recorder.deliveries.values().forEach(count -> assertEquals(1, count, "delivered exactly once"));
        }
        assertTrue(mbRecord.timeouts() > 0 && mbRecord.retransmittedBytes() > 0, "the loss was real: " + mbRecord);
        assertTrue(network.packetsLost() > network.packetsSent() / 20, "about 10% lost");
    }

    @Test
    void underTheDeadlinePolicyTheSourceSendsItsDeadlineFlowFirstAndItsRecordSaysWhetherItWasMet()
    {
        final LossyNetwork network = new LossyNetwork(1, 0, 0, 0, 2_000, 0);
        final List<Recorder> recorders = new ArrayList<>();
        final List<HostTransport> transports = hosts(network, recorders, 2,
            TransportConfiguration.PAPER.withPriorityPolicy(PriorityPolicy.DEADLINE));
        final CompletableFuture<FlowRecord> small = transports.get(0).send(1, 3_000);
        final CompletableFuture<FlowRecord> timed = transports.get(0).send(1, 300_000, 0, 100_000_000L);
        network.runUntil(transports, () -> small.isDone() && timed.isDone(), STEP_NS, 100_000_000L);
        final List<Long> order = new ArrayList<>();
        for (final FlowRecord record : recorders.get(0).finished)
        {
            order.add(record.sizeBytes());
        }
        assertEquals(List.of(300_000L, 3_000L), order, "a deadline flow goes before any flow without one");
        assertEquals(100_000_000L, timed.join().deadlineNs());
        assertTrue(timed.join().metDeadline());
        assertEquals(0, small.join().deadlineNs());
    }

    @Test
    void everyDataPacketIsAcknowledgedAtOnceUnderThePapersRule()
    {
        final LossyNetwork network = new LossyNetwork(3, 0, 0, 0, 2_000, 0);
        final List<HostTransport> transports = hosts(network, new ArrayList<>(), 2);
        final CompletableFuture<FlowRecord> flow = transports.get(0).send(1, 2_000_000);
        network.runUntil(transports, flow::isDone, STEP_NS, 1_000_000_000L);

        final TransportCounters receiver = transports.get(1).counters();
        assertEquals(transports.get(0).counters().packetsSent(), receiver.acksSent());
        assertEquals(0, receiver.acksDeferred());
    }

    @Test
    void coalescedAcksAnswerTwoInOrderPacketsOrMoreEach()
    {
        final LossyNetwork network = new LossyNetwork(3, 0, 0, 0, 2_000, 0);
        final List<HostTransport> transports =
            hosts(network, new ArrayList<>(), 2, TransportConfiguration.PAPER.withSegmentsPerAck(4));
        final CompletableFuture<FlowRecord> flow = transports.get(0).send(1, 2_000_000);
        network.runUntil(transports, flow::isDone, BATCHING_STEP_NS, 1_000_000_000L);

        final long dataPackets = transports.get(0).counters().packetsSent();
        final TransportCounters receiver = transports.get(1).counters();
        assertEquals(0, flow.join().timeouts());
        assertTrue(receiver.acksSent() * 2 <= dataPackets,
            receiver.acksSent() + " ACKs for " + dataPackets + " data packets");
    }

    @Test
    void withCoalescedAcksEveryMessageArrivesOnceAndIntactThroughALossyNetwork()
    {
        final LossyNetwork network = new LossyNetwork(17, 0.05, 0.01, 0.01, 2_000, 3_000);
        final List<Recorder> recorders = new ArrayList<>();
        final List<HostTransport> transports =
            hosts(network, recorders, 3, TransportConfiguration.PAPER.withSegmentsPerAck(4));
        final SplittableRandom random = new SplittableRandom(23);
        sendAndCheckEachArrivesOnceIntact(network, transports, recorders, 600,
            i -> randomBytes(random, 0 == i % 100 ? 3_000_000 : 1 + random.nextInt(60_000)), BATCHING_STEP_NS);
        long deferred = 0;
        for (final HostTransport transport : transports)
        {
            deferred += transport.counters().acksDeferred();
        }
        assertTrue(deferred > 0, "some ACKs waited");
    }

    @Test
    void tenThousandConcurrentFlowsAmongFourHostsAllArriveOnceAndIntact()
    {
        final LossyNetwork network = new LossyNetwork(11, 0.10, 0.01, 0.01, 2_000, 3_000);
        final List<Recorder> recorders = new ArrayList<>();
        final List<HostTransport> transports = hosts(network, recorders, 4);
        final SplittableRandom random = new SplittableRandom(5);
        sendAndCheckEachArrivesOnceIntact(network, transports, recorders, 10_000,
            i -> randomBytes(random, 1 + random.nextInt(20_000)), STEP_NS);
    }

    /**
     * Flow i goes from host i mod n to one of the others, with the given payload; every flow must complete, and every
     * message arrive intact at its destination, exactly once.
     */
    private static void sendAndCheckEachArrivesOnceIntact(
        final LossyNetwork network,
        final List<HostTransport> transports,
        final List<Recorder> recorders,
        final int flows,
        final IntFunction<byte[]> payloadOfFlow,
        final long stepNs)
    {
        final int hostCount = transports.size();
        final SplittableRandom random = new SplittableRandom(flows);
        final List<CompletableFuture<FlowRecord>> sends = new ArrayList<>();
        final List<byte[]> payloads = new ArrayList<>();
        final List<Integer> destinations = new ArrayList<>();
        for (int i = 0; i < flows; i++)
        {
            final int source = i % hostCount;
            final int destination = (source + 1 + random.nextInt(hostCount - 1)) % hostCount;
            final byte[] payload = payloadOfFlow.apply(i);
            payloads.add(payload);
            destinations.add(destination);
            sends.add(transports.get(source).send(destination, payload));
        }
        network.runUntil(transports, () -> sends.stream().allMatch(CompletableFuture::isDone), stepNs,
            60_000_000_000L);

        final Map<Long, byte[]> sent = new HashMap<>();
        for (int i = 0; i < sends.size(); i++)
        {
            final FlowRecord record = sends.get(i).join();
            sent.put(record.flowId(), payloads.get(i));
            final byte[] received = recorders.get(destinations.get(i)).messages.get(record.flowId());
            assertNotNull(received, "flow " + i + " delivered");
            assertArrayEquals(payloads.get(i), received, "flow " + i + " intact");
        }
        int delivered = 0;
        for (final Recorder recorder : recorders)
        {
            for (final int count : recorder.deliveries.values())
            {
                assertEquals(1, count, "delivered exactly once");
                delivered++;
            }
        }
        assertEquals(flows, delivered);
        assertEquals(flows, sent.size());
    }
}
