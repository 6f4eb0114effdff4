package io.pfabric.sim;

import io.pfabric.hostd.transport.FlowRecord;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The baselines' connections as the paper's scripts keep them, on scripted time ({@link SimTcpPair}).
 */
class SimTcpConnectionTest
{
    private static final long MIN_RTO_NS = SimTcpPair.MIN_RTO_NS;

    @Test
    void aFlowFindingEveryConnectionBusyOpensOneAndPaysItsHandshake()
    {
        final SimTcpPair pair = new SimTcpPair(2);
        final CompletableFuture<FlowRecord> first = pair.start(0, 1);
        final CompletableFuture<FlowRecord> second = pair.start(0, 1);
        final CompletableFuture<FlowRecord> third = pair.start(0, 1);
        assertEquals(2, pair.inFlight(SimTcp.TYPE_DATA), "the pair's two connections send at once");
        assertEquals(1, pair.inFlight(SimTcp.TYPE_SYN), "the third flow opens a connection: a SYN, no data yet");
        assertEquals(1, pair.source.connectionsOpened());

        pair.deliverAll(5_000);
        assertEquals(2, pair.inFlight(SimTcp.TYPE_ACK));
        assertEquals(1, pair.inFlight(SimTcp.TYPE_SYN_ACK));
        pair.deliverAll(10_000);
        assertEquals(10_000, first.join().fctNs());
        assertEquals(10_000, second.join().fctNs());
        assertFalse(third.isDone());
        assertEquals(1, pair.inFlight(SimTcp.TYPE_DATA), "the SYN-ACK lets the third flow send");
        pair.deliverAll(15_000);
        pair.deliverAll(20_000);
        assertEquals(20_000, third.join().fctNs(), "a round trip for the handshake, one for the data");
        assertEquals(0, third.join().timeouts());

        final CompletableFuture<FlowRecord> fourth = pair.start(30_000, 1);
        final CompletableFuture<FlowRecord> fifth = pair.start(30_000, 1);
        final CompletableFuture<FlowRecord> sixth = pair.start(30_000, 1);
        assertEquals(3, pair.inFlight(SimTcp.TYPE_DATA), "the opened connection stays in the pool: three now");
        assertEquals(0, pair.inFlight(SimTcp.TYPE_SYN));
        assertEquals(1, pair.source.connectionsOpened());
        assertEquals(1, pair.source.synsSent());
        pair.runToQuiet(30_000, 10_000);
        assertTrue(fourth.isDone() && fifth.isDone() && sixth.isDone());
    }

    @Test
    void theScriptsKeepEightConnectionsPerPair()
    {
        final SimTcpPair pair = new SimTcpPair(SimTcp.SCRIPTS_CONNECTIONS_PER_PAIR);
        for (int i = 0; i < SimTcp.SCRIPTS_CONNECTIONS_PER_PAIR; i++)
        {
            pair.start(0, 1);
        }
        assertEquals(0, pair.inFlight(SimTcp.TYPE_SYN));
        pair.start(0, 1);
        assertEquals(1, pair.inFlight(SimTcp.TYPE_SYN), "the ninth busy flow opens a connection");
    }

    @Test
    void aLostSynIsSentAgainAfterTheRtoAndCountsAsATimeout()
    {
        final SimTcpPair pair = new SimTcpPair(1);
        final CompletableFuture<FlowRecord> busy = pair.start(0, 1);
        final CompletableFuture<FlowRecord> opening = pair.start(0, 1);
        pair.drop(SimTcp.TYPE_SYN);
        pair.deliverAll(5_000);
        pair.deliverAll(10_000);
        assertTrue(busy.isDone());
        assertEquals(0, pair.inFlight(SimTcp.TYPE_SYN));
        pair.advance(MIN_RTO_NS - 1);
        assertEquals(0, pair.inFlight(SimTcp.TYPE_SYN), "not before the RTO");
        pair.advance(MIN_RTO_NS);
        assertEquals(1, pair.inFlight(SimTcp.TYPE_SYN), "sent again at the RTO");
        pair.drop(SimTcp.TYPE_SYN);
        pair.advance(MIN_RTO_NS + 2 * MIN_RTO_NS - 1);
        assertEquals(0, pair.inFlight(SimTcp.TYPE_SYN), "the RTO doubles");
        pair.advance(MIN_RTO_NS + 2 * MIN_RTO_NS);
        assertEquals(1, pair.inFlight(SimTcp.TYPE_SYN));
        final long doneNs = pair.runToQuiet(3 * MIN_RTO_NS, 10_000);
        assertEquals(doneNs, opening.join().fctNs());
        assertEquals(2, opening.join().timeouts());
        assertEquals(3, pair.source.synsSent());
    }

    /**
     * Run a 40-segment flow to its end, round trips of 10 us, then start a flow of the given segments 1 us later.
     *
     * @return when the first flow's exchange ended.
     */
    private static long startAfterA40SegmentFlow(final SimTcpPair pair, final int segments)
    {
        pair.start(0, 40);
        final long doneNs = pair.runToQuiet(0, 10_000);
        pair.start(doneNs + 1_000, segments);
        return doneNs;
    }

    @Test
    void aReusedConnectionKeepsItsWindowUnlessIdleLongerThanItsRto()
    {
        final SimTcpPair pair = new SimTcpPair(1);
        final long doneNs = startAfterA40SegmentFlow(pair, 40);
        assertTrue(pair.inFlight(SimTcp.TYPE_DATA) > SimTcp.INITIAL_WINDOW,
            "soon after, the next flow starts with the window the last one grew: " + pair.inFlight(SimTcp.TYPE_DATA));
        final long againNs = pair.runToQuiet(doneNs + 1_000, 10_000);
        pair.start(againNs + MIN_RTO_NS + 1, 40);
        assertEquals(SimTcp.INITIAL_WINDOW, pair.inFlight(SimTcp.TYPE_DATA),
            "idle longer than the RTO, it restarts from the initial window");
    }

    @Test
    void perFlowConnectionsStartFreshAndNeverHandshake()
    {
        final SimTcpPair pair = new SimTcpPair(0);
        final long doneNs = startAfterA40SegmentFlow(pair, 40);
        pair.start(doneNs + 1_000, 1);
        assertEquals(SimTcp.INITIAL_WINDOW + 1, pair.inFlight(SimTcp.TYPE_DATA));
        assertEquals(0, pair.inFlight(SimTcp.TYPE_SYN));
        assertEquals(0, pair.source.connectionsOpened());
    }
}
