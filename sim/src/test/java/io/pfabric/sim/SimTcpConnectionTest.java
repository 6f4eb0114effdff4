package io.pfabric.sim;

import io.pfabric.common.wire.Ipv4Flyweight;
import io.pfabric.hostd.io.PacketIo;
import io.pfabric.hostd.transport.FlowRecord;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The baselines' connections as the paper's scripts keep them, on scripted time: two endpoints joined by a wire that
 * holds every packet until the test delivers (or drops) it.
 */
class SimTcpConnectionTest
{
    private static final long MIN_RTO_NS = 200_000;
    private static final int SOURCE = 0;
    private static final int DESTINATION = 1;

    /**
     * A packet in flight between the two endpoints.
     */
    private record Packet(int from, int to, int type, byte[] bytes)
    {
    }

    /**
     * Two endpoints on one scripted clock; what either sends waits in {@link #inFlight} until delivered.
     */
    private static final class Pair
    {
        private final long[] nowNs = { 0 };
        private final List<Packet> inFlight = new ArrayList<>();
        private final List<List<Packet>> inboxes = List.of(new ArrayList<>(), new ArrayList<>());
        private final SimTcp source;
        private final SimTcp destination;

        Pair(final int connectionsPerPair)
        {
            source = new SimTcp(SOURCE, false, MIN_RTO_NS, connectionsPerPair, wire(SOURCE), () -> nowNs[0]);
            destination = new SimTcp(DESTINATION, false, MIN_RTO_NS, connectionsPerPair, wire(DESTINATION),
                () -> nowNs[0]);
        }

        private PacketIo wire(final int host)
        {
            return new PacketIo()
            {
                public int poll(final InboundHandler handler, final int limit)
                {
                    final List<Packet> inbox = inboxes.get(host);
                    for (final Packet packet : inbox)
                    {
                        final UnsafeBuffer frame =
                            new UnsafeBuffer(new byte[Ipv4Flyweight.HEADER_LENGTH + packet.bytes.length]);
                        frame.putBytes(Ipv4Flyweight.HEADER_LENGTH, packet.bytes);
                        handler.onPacket(packet.from, frame, Ipv4Flyweight.HEADER_LENGTH, packet.bytes.length);
                    }
                    final int taken = inbox.size();
                    inbox.clear();
                    return taken;
                }

                public boolean send(final int destinationHost, final DirectBuffer buffer, final int offset,
                    final int length)
                {
                    final byte[] bytes = new byte[length];
                    buffer.getBytes(offset, bytes);
                    inFlight.add(new Packet(host, destinationHost, bytes[0], bytes));
                    return true;
                }

                public int maxPacketLength()
                {
                    return 1_500;
                }

                public void flush()
                {
                }

                public void close()
                {
                }
            };
        }

        CompletableFuture<FlowRecord> start(final long atNs, final int segments)
        {
            nowNs[0] = atNs;
            final CompletableFuture<FlowRecord> flow = source.send(DESTINATION, segments * (long)SimTcp.SEGMENT_LENGTH);
            source.poll();
            return flow;
        }

        /**
         * Advance the clock, hand every packet in flight to its endpoint, and let both act; the packets they send in
         * answer wait for the next call.
         */
        void deliverAll(final long atNs)
        {
            nowNs[0] = atNs;
            for (final Packet packet : inFlight)
            {
                inboxes.get(packet.to).add(packet);
            }
            inFlight.clear();
            source.poll();
            destination.poll();
        }

        /**
         * Exchange packets a round trip apart until nothing is in flight.
         */
        long runToQuiet(final long fromNs, final long roundTripNs)
        {
            long t = fromNs;
            for (int rounds = 0; !inFlight.isEmpty() && rounds < 1_000; rounds++)
            {
                t += roundTripNs / 2;
                deliverAll(t);
            }
            assertTrue(inFlight.isEmpty(), "the exchange ends");
            return t;
        }

        void advance(final long atNs)
        {
            nowNs[0] = atNs;
            source.poll();
        }

        long inFlight(final int type)
        {
            return inFlight.stream().filter(p -> p.type == type).count();
        }

        void drop(final int type)
        {
            inFlight.removeIf(p -> p.type == type);
        }
    }

    @Test
    void aFlowFindingEveryConnectionBusyOpensOneAndPaysItsHandshake()
    {
        final Pair pair = new Pair(2);
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
        final Pair pair = new Pair(SimTcp.SCRIPTS_CONNECTIONS_PER_PAIR);
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
        final Pair pair = new Pair(1);
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
    private static long startAfterA40SegmentFlow(final Pair pair, final int segments)
    {
        pair.start(0, 40);
        final long doneNs = pair.runToQuiet(0, 10_000);
        pair.start(doneNs + 1_000, segments);
        return doneNs;
    }

    @Test
    void aReusedConnectionKeepsItsWindowUnlessIdleLongerThanItsRto()
    {
        final Pair pair = new Pair(1);
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
        final Pair pair = new Pair(0);
        final long doneNs = startAfterA40SegmentFlow(pair, 40);
        pair.start(doneNs + 1_000, 1);
        assertEquals(SimTcp.INITIAL_WINDOW + 1, pair.inFlight(SimTcp.TYPE_DATA));
        assertEquals(0, pair.inFlight(SimTcp.TYPE_SYN));
        assertEquals(0, pair.source.connectionsOpened());
    }
}
