package io.pfabric.sim;

import io.pfabric.common.wire.Ipv4Flyweight;
import io.pfabric.hostd.io.PacketIo;
import io.pfabric.hostd.transport.FlowRecord;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two {@link SimTcp} endpoints on one scripted clock, joined by a wire that holds every packet until the test
 * delivers (or drops) it; the source sends, the destination receives.
 */
final class SimTcpPair
{
    static final long MIN_RTO_NS = 200_000;
    static final int SOURCE = 0;
    static final int DESTINATION = 1;

    /**
     * A packet in flight between the two endpoints.
     *
     * @param from  the sending host.
     * @param to    the receiving host.
     * @param type  the model's packet type, such as {@link SimTcp#TYPE_DATA}.
     * @param bytes the packet.
     */
    record Packet(int from, int to, int type, byte[] bytes)
    {
        /**
         * The segment a data packet carries, or an ACK's cumulative acknowledgement.
         *
         * @return the sequence number in segments.
         */
        int sequence()
        {
            return ByteBuffer.wrap(bytes).getInt(12);
        }
    }

    private final long[] nowNs = { 0 };
    private final List<Packet> inFlight = new ArrayList<>();
    private final List<List<Packet>> inboxes = List.of(new ArrayList<>(), new ArrayList<>());
    private final List<Packet> sent = new ArrayList<>();
    final SimTcp source;
    final SimTcp destination;

    SimTcpPair(final int connectionsPerPair)
    {
        this(connectionsPerPair, DupAckRule.OFF);
    }

    SimTcpPair(final int connectionsPerPair, final DupAckRule dupAckRule)
    {
        this(connectionsPerPair, dupAckRule, false);
    }

    SimTcpPair(final int connectionsPerPair, final DupAckRule dupAckRule, final boolean sackOpensWindow)
    {
        source = new SimTcp(SOURCE, false, MIN_RTO_NS, dupAckRule, sackOpensWindow, connectionsPerPair, null,
            wire(SOURCE), () -> nowNs[0]);
        destination = new SimTcp(DESTINATION, false, MIN_RTO_NS, dupAckRule, sackOpensWindow, connectionsPerPair,
            null, wire(DESTINATION), () -> nowNs[0]);
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
                final Packet packet = new Packet(host, destinationHost, bytes[0], bytes);
                inFlight.add(packet);
                sent.add(packet);
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

    /**
     * Drop the packets in flight that match.
     *
     * @param which the packets to drop.
     */
    void drop(final Predicate<Packet> which)
    {
        inFlight.removeIf(which);
    }

    /**
     * Every packet sent so far, in order, delivered or not.
     *
     * @return the packets.
     */
    List<Packet> sent()
    {
        return sent;
    }

    /**
     * How many times the source has sent a data segment so far.
     *
     * @param sequence the segment.
     * @return the count: 1 for a segment sent once, 2 once it was retransmitted.
     */
    long timesSent(final int sequence)
    {
        return sent.stream().filter(p -> SOURCE == p.from && SimTcp.TYPE_DATA == p.type && p.sequence() == sequence)
            .count();
    }
}
