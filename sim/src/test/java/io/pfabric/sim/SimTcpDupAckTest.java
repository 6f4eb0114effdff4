package io.pfabric.sim;

import io.pfabric.hostd.transport.FlowRecord;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TCP's duplicate-ACK rule on scripted time ({@link SimTcpPair}, a fresh connection per flow, round trips of 10 us):
 * by default, as the paper runs every scheme under spraying, duplicate ACKs never trigger a retransmission and only
 * the RTO does, and the window ends at the first unacknowledged segment plus cwnd as ns-2's does;
 * {@link DupAckRule#SCRIPTS} and a fixed threshold restore fast retransmit.
 */
class SimTcpDupAckTest
{
    private static final long MIN_RTO_NS = SimTcpPair.MIN_RTO_NS;
    private static final long HALF_RTT_NS = 5_000;

    /**
     * Start a flow, lose its first segment, and exchange what follows every half round trip until just before the
     * RTO.
     */
    private static CompletableFuture<FlowRecord> loseTheFirstSegmentAndWaitUntilBeforeTheRto(
        final SimTcpPair pair, final int segments)
    {
        final CompletableFuture<FlowRecord> flow = pair.start(0, segments);
        pair.drop(p -> SimTcp.TYPE_DATA == p.type() && 0 == p.sequence());
        for (long t = HALF_RTT_NS; t < MIN_RTO_NS; t += HALF_RTT_NS)
        {
            pair.deliverAll(t);
        }
        return flow;
    }

    private static long duplicateAcks(final SimTcpPair pair)
    {
        return pair.sent().stream()
            .filter(p -> SimTcpPair.DESTINATION == p.from() && SimTcp.TYPE_ACK == p.type() && 0 == p.sequence())
            .count();
    }

    @Test
    void byDefaultDuplicateAcksNeverRetransmitOnlyTheRtoDoes()
    {
        final SimTcpPair pair = new SimTcpPair(0);
        final CompletableFuture<FlowRecord> flow = loseTheFirstSegmentAndWaitUntilBeforeTheRto(pair, 20);
        assertEquals(11, duplicateAcks(pair), "every other segment of the initial window was answered with one");
        assertTrue(duplicateAcks(pair) >= DupAckRule.SCRIPTS.threshold(SimTcp.INITIAL_WINDOW),
            "as many as the scripts' threshold would need");
        assertEquals(1, pair.timesSent(0), "no retransmission before the RTO");
        for (int s = 1; s < SimTcp.INITIAL_WINDOW; s++)
        {
            assertEquals(1, pair.timesSent(s), "segment " + s + " sent once");
        }
        for (int s = SimTcp.INITIAL_WINDOW; s < 20; s++)
        {
            assertEquals(0, pair.timesSent(s), "the window ends at the hole plus cwnd: segment " + s + " waits");
        }
        assertFalse(flow.isDone());

        pair.deliverAll(MIN_RTO_NS);
        assertEquals(2, pair.timesSent(0), "the RTO retransmits the lost segment");
        final long doneNs = pair.runToQuiet(MIN_RTO_NS, 2 * HALF_RTT_NS);
        assertEquals(doneNs, flow.join().fctNs());
        assertEquals(1, flow.join().timeouts());
        assertEquals(SimTcp.SEGMENT_LENGTH, flow.join().retransmittedBytes(),
            "only the lost segment is sent again: the SACK scoreboard outlives the timeout");
    }

    @Test
    void withSacksOpeningTheWindowNewDataGoesOutPastTheHoleButStillOnlyTheRtoRetransmits()
    {
        final SimTcpPair pair = new SimTcpPair(0, DupAckRule.OFF, true);
        final CompletableFuture<FlowRecord> flow = loseTheFirstSegmentAndWaitUntilBeforeTheRto(pair, 20);
        assertEquals(19, duplicateAcks(pair), "every later segment went out and was answered with a duplicate ACK");
        assertEquals(1, pair.timesSent(0), "no retransmission before the RTO");
        for (int s = 1; s < 20; s++)
        {
            assertEquals(1, pair.timesSent(s), "segment " + s + " sent once");
        }
        assertFalse(flow.isDone());
        pair.deliverAll(MIN_RTO_NS);
        assertEquals(2, pair.timesSent(0), "the RTO retransmits the lost segment");
        pair.runToQuiet(MIN_RTO_NS, 2 * HALF_RTT_NS);
        assertEquals(1, flow.join().timeouts());
    }

    @Test
    void theScriptsRuleFastRetransmitsAfterMaxOfThreeAndThreeQuartersOfTheWindow()
    {
        final SimTcpPair pair = new SimTcpPair(0, DupAckRule.SCRIPTS);
        final CompletableFuture<FlowRecord> flow = pair.start(0, 20);
        pair.drop(p -> SimTcp.TYPE_DATA == p.type() && 0 == p.sequence());
        pair.deliverAll(HALF_RTT_NS);
        pair.deliverAll(2 * HALF_RTT_NS);
        assertEquals(2, pair.timesSent(0), "11 duplicate ACKs reach the threshold max(3, 0.75 x 12) = 9");
        pair.runToQuiet(2 * HALF_RTT_NS, 2 * HALF_RTT_NS);
        assertEquals(0, flow.join().timeouts());
        assertTrue(flow.join().fctNs() < MIN_RTO_NS, "done long before an RTO: " + flow.join().fctNs());
    }

    @Test
    void aFixedThresholdCountsDuplicateAcksWhateverTheWindow()
    {
        final SimTcpPair scripts = new SimTcpPair(0, DupAckRule.SCRIPTS);
        final CompletableFuture<FlowRecord> underScripts = loseTheFirstSegmentAndWaitUntilBeforeTheRto(scripts, 4);
        assertEquals(3, duplicateAcks(scripts));
        assertEquals(1, scripts.timesSent(0), "3 duplicate ACKs are below the scripts' 9 at a window of 12");
        assertFalse(underScripts.isDone());

        final SimTcpPair three = new SimTcpPair(0, DupAckRule.parse("3"));
        final CompletableFuture<FlowRecord> underThree = three.start(0, 4);
        three.drop(p -> SimTcp.TYPE_DATA == p.type() && 0 == p.sequence());
        three.deliverAll(HALF_RTT_NS);
        three.deliverAll(2 * HALF_RTT_NS);
        assertEquals(2, three.timesSent(0), "3 duplicate ACKs meet a threshold of 3");
        three.runToQuiet(2 * HALF_RTT_NS, 2 * HALF_RTT_NS);
        assertEquals(0, underThree.join().timeouts());
    }

    @Test
    void theRuleIsNamedOffScriptsOrANumber()
    {
        assertEquals(DupAckRule.OFF, DupAckRule.parse("off"));
        assertEquals(DupAckRule.SCRIPTS, DupAckRule.parse("scripts"));
        assertEquals(new DupAckRule(5, 0), DupAckRule.parse("5"));
        assertEquals(Integer.MAX_VALUE, DupAckRule.OFF.threshold(100));
        assertEquals(3, DupAckRule.SCRIPTS.threshold(2));
        assertEquals(111, DupAckRule.SCRIPTS.threshold(149));
        assertEquals(5, new DupAckRule(5, 0).threshold(149));
        for (final String bad : new String[]{ "0", "-2", "three", "" })
        {
            final IllegalArgumentException ex =
                assertThrows(IllegalArgumentException.class, () -> DupAckRule.parse(bad));
            assertTrue(ex.getMessage().startsWith("--dupack-threshold "), ex.getMessage());
        }
        assertEquals(DupAckRule.OFF, SimSettings.forFabric(SimFabric.paper()).tcpDupAckRule(),
            "the paper's setting is the default");
        assertTrue(SimSettings.forFabric(SimFabric.paper()).describe().contains("no fast retransmit"));
        assertFalse(SimSettings.forFabric(SimFabric.paper()).tcpSackOpensWindow(), "ns-2's window is the default");
        assertTrue(SimSettings.forFabric(SimFabric.paper()).withTcpSackOpensWindow(true).tcpSackOpensWindow());
        assertEquals(DupAckRule.SCRIPTS,
            SimSettings.forFabric(SimFabric.paper()).withTcpDupAckRule(DupAckRule.SCRIPTS).tcpDupAckRule());
    }
}
