package io.pfabric.hostd.transport;

import io.pfabric.hostd.io.PacketIos;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sending host's thread that comes back after its flow's timeout, descheduled or woken late, while the ACKs that
 * arrived in time wait in its socket: the daemons' step ({@link HostTransport#step()}) takes them before it expires
 * timers, so the host's own lateness times nothing out, and a loss still does.
 */
class LateWakeUpTest
{
    private static final long TIMEOUT_NS = 300_000;
    private static final long DELAY_NS = 20_000;
    private static final long STEP_NS = 1_000;
    private static final int SEGMENTS = 4;

    private static final TransportListener QUIET = new TransportListener()
    {
        public void onMessage(final int sourceHost, final long flowId, final DirectBuffer message, final int length)
        {
        }
    };

    private final LossyNetwork network = new LossyNetwork(1, 0, 0, 0, DELAY_NS, 0);
    private final TransportConfiguration configuration =
        new TransportConfiguration(1_000, SEGMENTS, 23, TIMEOUT_NS, 5, false, PriorityPolicy.REMAINING_SIZE);
    private final HostTransport sender = transport(0);
    private final HostTransport receiver = transport(1);

    private HostTransport transport(final int host)
    {
        return new HostTransport(configuration, host, 0, PacketIos.wireOverheadLength(PacketIos.UDP),
            network.endpoint(host), network, QUIET, false);
    }

    /**
     * The sender sends its flow in one step; then only the receiver runs, acknowledging every packet, until the
     * sender's timeout has long passed.
     */
    private CompletableFuture<FlowRecord> sendThenStayAwayPastTheTimeout()
    {
        final CompletableFuture<FlowRecord> flow = sender.send(1, SEGMENTS * 1_000L);
        sender.step();
        final long sentNs = network.nanoTime();
        network.runUntil(List.of(receiver), () -> network.nanoTime() - sentNs > 10 * TIMEOUT_NS, STEP_NS,
            20 * TIMEOUT_NS);
        assertEquals(SEGMENTS, receiver.counters().acksSent(), "the receiver acknowledged every packet in time");
        return flow;
    }

    @Test
    void aSenderBackLateWithItsAcksWaitingCompletesTheFlowWithoutATimeout()
    {
        final CompletableFuture<FlowRecord> flow = sendThenStayAwayPastTheTimeout();
        sender.step();
        assertEquals(0, sender.counters().timeouts(), "no timeout: the ACKs had come in time");
        assertTrue(flow.isDone(), "the flow completed at the step the sender came back");
        assertEquals(0, flow.join().timeouts());
        assertEquals(0, flow.join().retransmittedBytes());
    }

    @Test
    void aSenderBackLateWhoseAcksWereLostStillTimesOut()
    {
        network.silence(1, true);
        final CompletableFuture<FlowRecord> flow = sendThenStayAwayPastTheTimeout();
        sender.step();
        assertEquals(1, sender.counters().timeouts(), "the ACKs never came: the timeout stands");
        network.silence(1, false);
        network.runUntil(List.of(sender, receiver), flow::isDone, STEP_NS, 100 * TIMEOUT_NS);
        assertEquals(1, flow.join().timeouts());
    }
}
