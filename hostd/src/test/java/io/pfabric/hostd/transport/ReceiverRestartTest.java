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
import java.util.concurrent.CompletionException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A receiving host's transport restarted (a new transport with a new incarnation on the same address, the old one
 * never run again, the packets in flight to it arriving at the new one) while flows to and from it are in flight, on
 * virtual time over an in-process network: a flow of which the old start acknowledged some bytes fails with
 * {@link IncompleteFlowException#RECEIVER_RESTARTED}, is counted, is never reported complete and is delivered
 * nowhere; the other hosts' flows complete once and intact; the half flows left at the new start and at the peers
 * are given up after the idle timeout; a flow none of whose bytes the old start acknowledged completes once at the
 * new start. And a flow given up idle at its receiver (its sender stood still for the idle timeout) is not taken for a
 * new flow when its packets come again: they are dropped and counted, and the flow is never reported complete.
 */
@Timeout(120)
class ReceiverRestartTest
{
    private static final long LINK_BPS = 10_000_000_000L;
    private static final int OVERHEAD = PacketIos.wireOverheadLength(PacketIos.UDP);
    private static final long STEP_NS = 500;
    private static final long LIMIT_NS = 2_000_000_000L;
    private static final long IDLE_TIMEOUT_NS = 5_000_000;
    private static final int FIRST_INCARNATION = 7;
    private static final int SECOND_INCARNATION = 8;

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

    private final LossyNetwork network = new LossyNetwork(5, 0, 0, 0, 2_000, 1_000);
    private final SplittableRandom random = new SplittableRandom(31);

    private HostTransport host(final int index, final int incarnation, final Recorder recorder)
    {
        return new HostTransport(TransportConfiguration.PAPER, index, LINK_BPS, OVERHEAD, network.endpoint(index),
            network, recorder, true).incarnation(incarnation).receiverIdleTimeoutNs(IDLE_TIMEOUT_NS);
    }

    private byte[] randomBytes(final int length)
    {
        final byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    private static long ackedBytesTo(final HostTransport transport, final int destinationHost)
    {
        final long[] acked = new long[1];
        transport.forEachSender(sender ->
        {
            if (sender.destinationHost() == destinationHost)
            {
                acked[0] += sender.ackedBytes();
            }
        });
        return acked[0];
    }

    private static IncompleteFlowException failure(final CompletableFuture<FlowRecord> future)
    {
        final CompletionException thrown = assertThrows(CompletionException.class, future::join);
        return assertInstanceOf(IncompleteFlowException.class, thrown.getCause());
    }

    @Test
    void aFlowPartlyAcknowledgedByTheOldStartFailsCleanlyAndTheOthersCompleteOnce()
    {
        final List<Recorder> recorders = List.of(new Recorder(), new Recorder(), new Recorder());
        final HostTransport h0 = host(0, FIRST_INCARNATION, recorders.get(0));
        final HostTransport oldH1 = host(1, FIRST_INCARNATION, recorders.get(1));
        final HostTransport h2 = host(2, FIRST_INCARNATION, recorders.get(2));
        final byte[] toH1 = randomBytes(3_000_000);
        final byte[] toH2 = randomBytes(4_000_000);
        final byte[] fromH2 = randomBytes(1_500_000);
        final CompletableFuture<FlowRecord> cutOff = h0.send(1, toH1);
        final CompletableFuture<FlowRecord> beside = h0.send(2, toH2);
        final CompletableFuture<FlowRecord> back = h2.send(0, fromH2);
        oldH1.send(2, randomBytes(8_000_000));

        network.runUntil(List.of(h0, oldH1, h2), () -> ackedBytesTo(h0, 1) > 500_000, STEP_NS, LIMIT_NS);
        assertFalse(cutOff.isDone());
        assertTrue(ackedBytesTo(h0, 1) < toH1.length, "the old start acknowledged part of the flow, not all");
        assertTrue(ackedBytesTo(oldH1, 2) > 0 && 1 == oldH1.activeFlows(), "the old start's flow to h2 under way");

        final Recorder newRecorder = new Recorder();
        final HostTransport newH1 = host(1, SECOND_INCARNATION, newRecorder);
        final List<HostTransport> restarted = List.of(h0, newH1, h2);
        network.runUntil(restarted, cutOff::isDone, STEP_NS, LIMIT_NS);

        final IncompleteFlowException incomplete = failure(cutOff);
        assertEquals(IncompleteFlowException.RECEIVER_RESTARTED, incomplete.reason());
        assertFalse(incomplete.record().isComplete());
        assertEquals(1, h0.counters().receiverRestarts());
        assertEquals(1, recorders.get(0).finished.stream()
            .filter(record -> record.destinationHost() == 1 && !record.isComplete()).count(),
            "reported once, incomplete");
        final long cutOffId = incomplete.record().flowId();
        assertNull(recorders.get(1).messages.get(cutOffId), "the old start never had it whole");
        assertNull(newRecorder.messages.get(cutOffId), "the new start does not deliver it as new");
        assertEquals(1, newH1.activeReceivers(), "the new start holds the half flow until it goes idle");

        final byte[] afterRestart = randomBytes(400_000);
        final byte[] fromNewH1 = randomBytes(300_000);
        final CompletableFuture<FlowRecord> toNewH1 = h0.send(1, afterRestart);
        final CompletableFuture<FlowRecord> fromRestarted = newH1.send(0, fromNewH1);
        final List<CompletableFuture<FlowRecord>> others = List.of(beside, back, toNewH1, fromRestarted);
        network.runUntil(restarted, () -> others.stream().allMatch(CompletableFuture::isDone), STEP_NS, LIMIT_NS);
        assertArrayEquals(toH2, recorders.get(2).messages.get(beside.join().flowId()));
        assertArrayEquals(fromH2, recorders.get(0).messages.get(back.join().flowId()));
        assertArrayEquals(afterRestart, newRecorder.messages.get(toNewH1.join().flowId()));
        assertArrayEquals(fromNewH1, recorders.get(0).messages.get(fromRestarted.join().flowId()));

        network.runUntil(restarted, () -> newH1.activeReceivers() == 0 && h2.activeReceivers() == 0, STEP_NS,
            LIMIT_NS);
        assertEquals(1, newH1.counters().receiversExpired(), "the half flow left by h0 given up");
        assertEquals(1, h2.counters().receiversExpired(), "the half flow the old start of h1 left given up");
        assertNull(newRecorder.messages.get(cutOffId));
        for (final Recorder recorder : List.of(recorders.get(0), recorders.get(1), recorders.get(2), newRecorder))
        {
            recorder.deliveries.values().forEach(count -> assertEquals(1, count, "delivered exactly once"));
        }
        assertEquals(0, h2.counters().receiverRestarts());
        assertEquals(0, newH1.counters().receiverRestarts());
        assertEquals(1, h0.counters().receiverRestarts());
    }

    @Test
    void aFlowNoneOfWhoseBytesTheOldStartAcknowledgedCompletesOnceAtTheNewStart()
    {
        final Recorder senderRecorder = new Recorder();
        final Recorder oldRecorder = new Recorder();
        final HostTransport h0 = host(0, FIRST_INCARNATION, senderRecorder);
        final HostTransport oldH1 = host(1, FIRST_INCARNATION, oldRecorder);
        final byte[] message = randomBytes(200_000);
        final CompletableFuture<FlowRecord> flow = h0.send(1, message);
        network.silence(1, true);
        network.runUntil(List.of(h0, oldH1), () -> oldH1.counters().acksSent() >= 5, STEP_NS, LIMIT_NS);
        assertEquals(0, ackedBytesTo(h0, 1), "none of the old start's ACKs arrived");
        assertTrue(oldRecorder.messages.isEmpty());

        network.silence(1, false);
        final Recorder newRecorder = new Recorder();
        final HostTransport newH1 = host(1, SECOND_INCARNATION, newRecorder);
        network.runUntil(List.of(h0, newH1), flow::isDone, STEP_NS, LIMIT_NS);

        final FlowRecord record = flow.join();
        assertTrue(record.isComplete());
        assertTrue(record.timeouts() > 0, "the sender resent what the old start had taken");
        assertArrayEquals(message, newRecorder.messages.get(record.flowId()));
        assertEquals(1, newRecorder.deliveries.get(record.flowId()));
        assertEquals(1, senderRecorder.finished.size());
        assertEquals(0, h0.counters().receiverRestarts());
        assertEquals(SECOND_INCARNATION, newH1.incarnation());
    }

    @Test
    void aLatePacketOfAFlowGivenUpIdleIsDroppedAndStartsNoNewFlow()
    {
        final Recorder senderRecorder = new Recorder();
        final Recorder receiverRecorder = new Recorder();
        final HostTransport h0 = host(0, FIRST_INCARNATION, senderRecorder);
        final HostTransport h1 = host(1, FIRST_INCARNATION, receiverRecorder);
        final CompletableFuture<FlowRecord> flow = h0.send(1, randomBytes(1_000_000));
        network.runUntil(List.of(h0, h1), () -> ackedBytesTo(h0, 1) > 100_000, STEP_NS, LIMIT_NS);
        assertEquals(1, h1.activeReceivers());

        network.runUntil(List.of(h1), () -> 0 == h1.activeReceivers(), STEP_NS, LIMIT_NS);
        assertEquals(1, h1.counters().receiversExpired(), "the sender stood still for the idle timeout");

        final long untilNs = network.nanoTime() + 4 * IDLE_TIMEOUT_NS;
        network.runUntil(List.of(h0, h1), () -> network.nanoTime() >= untilNs, STEP_NS, LIMIT_NS);
        assertTrue(h1.counters().expiredFlowPackets() > 0, "the sender's packets came back");
        assertEquals(0, h1.activeReceivers(), "and started no new flow");
        assertFalse(flow.isDone(), "the flow is never reported complete");
        assertTrue(receiverRecorder.messages.isEmpty());
        assertEquals(1, h1.counters().receiversExpired(), "given up once");
    }
}
