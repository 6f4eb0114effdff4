package io.pfabric.sim;

import io.pfabric.common.wire.Ipv4Flyweight;
import io.pfabric.hostd.io.PacketIo;
import io.pfabric.hostd.transport.PiasThresholds;
import io.pfabric.hostd.transport.FlowRecord;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.LongHashSet;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The simulator's baselines, modelled in the simulator only: TCP NewReno with SACK as the pFabric paper's ns-2
 * scripts ran it (initial window 12 segments, cap 149, minimum and initial RTO 200 us doubling on each timeout, an ACK
 * per segment, the SACK scoreboard kept across a timeout) with the paper's rule for duplicate ACKs
 * ({@link DupAckRule}: by default they never trigger a fast retransmit, as the paper runs every scheme under
 * per-packet spraying, so only the RTO retransmits; the scripts' max(3, 0.75 x cwnd) and a fixed threshold are
 * options), a window that ends at the first unacknowledged segment plus cwnd outside recovery as ns-2's FullTcp's
 * does (SACKed segments beyond a hole do not let more new data out, so a hole stalls the sender until the RTO or a
 * fast retransmit; optionally they do, as in the model before), and DCTCP on top (ECN-capable segments, the
 * receiver echoing each segment's CE mark, alpha = (1 - g) alpha + g F once per window with g = 1/16, and cwnd
 * multiplied by 1 - alpha/2 in a window that saw marks). Segments carry 1460 bytes behind 54 bytes of Ethernet,
 * IPv4 and TCP headers; ACKs, SYNs and SYN-ACKs are 54 bytes, ACKs 4 and 8 more per SACK block.
 * <p>
 * Flows run on connections in one of two ways. As the scripts run them (a positive number of connections per pair):
 * each source keeps that many connections to each destination, open from the start (the scripts warm them up before
 * measuring) and persistent; a flow takes the one that has been idle longest, with the congestion window, slow-start
 * threshold, RTT estimate, RTO and DCTCP's alpha its earlier flows left, except that a connection idle for longer
 * than its RTO starts again from the initial window (slow-start restart: the threshold stays); a flow that finds
 * every connection to its destination busy opens a new one, which costs a SYN and a SYN-ACK first (a lost one is
 * sent again after the RTO, doubling) and stays in the pool afterwards. Flows never wait for a busy connection.
 * With no connections per pair, each flow gets a connection of its own, open and fresh: initial window, no RTT
 * estimate, the minimum RTO.
 */
final class SimTcp implements Endpoint, PacketIo.InboundHandler
{
    static final int SEGMENT_LENGTH = 1_460;
    static final int HEADER_LENGTH = 20;
    static final int INITIAL_WINDOW = 12;
    static final int MAX_WINDOW = 149;
    static final long MAX_RTO_NS = 2_000_000_000L;
    static final double DCTCP_G = 1.0 / 16;

    /**
     * Connections per source and destination in the released scripts for TCP and DCTCP.
     */
    static final int SCRIPTS_CONNECTIONS_PER_PAIR = 8;

    static final int TYPE_DATA = 1;
    static final int TYPE_ACK = 2;
    static final int TYPE_SYN = 3;
    static final int TYPE_SYN_ACK = 4;
    private static final int FLAG_ECE = 1;
    private static final int MAX_SACK_BLOCKS = 3;
    private static final int TYPE_OFFSET = 0;
    private static final int FLAGS_OFFSET = 1;
    private static final int SACK_COUNT_OFFSET = 2;
    private static final int FLOW_OFFSET = 4;
    private static final int SEQUENCE_OFFSET = 12;
    private static final int SEGMENTS_OFFSET = 16;
    private static final int SACK_OFFSET = HEADER_LENGTH;

    private final int localHost;
    private final boolean dctcp;
    private final long minRtoNs;
    private final DupAckRule dupAckRule;
    private final boolean sackOpensWindow;
    private final int connectionsPerPair;
    private final PiasThresholds pias;
    private final Int2ObjectHashMap<ArrayDeque<Connection>> idleByDestination = new Int2ObjectHashMap<>();
    private final PacketIo io;
    private final NanoClock clock;
    private final List<Sender> senders = new ArrayList<>();
    private final Long2ObjectHashMap<Sender> sendersByFlow = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<Receiver> receivers = new Long2ObjectHashMap<>();
    private final LongHashSet finishedReceives = new LongHashSet();
    private final UnsafeBuffer out = new UnsafeBuffer(new byte[HEADER_LENGTH + 8 * MAX_SACK_BLOCKS + SEGMENT_LENGTH]);
    private final int[] sackStarts = new int[MAX_SACK_BLOCKS];
    private final int[] sackEnds = new int[MAX_SACK_BLOCKS];
    private long nowNs;
    private int flowCounter;
    private long connectionsOpened;
    private long synsSent;

    /**
     * An endpoint.
     *
     * @param localHost          this host's index.
     * @param dctcp              DCTCP rather than TCP.
     * @param minRtoNs           the minimum (and initial) RTO.
     * @param dupAckRule         when duplicate ACKs trigger a fast retransmit, if ever.
     * @param sackOpensWindow    whether SACKed segments leave the window outside recovery too, so that new data
     *                           goes out past a hole; false for ns-2's window, which ends at the first
     *                           unacknowledged segment plus cwnd.
     * @param connectionsPerPair persistent connections to each destination as the scripts keep them, or 0 for a
     *                           fresh connection per flow.
     * @param pias               PIAS's thresholds, by which each data segment's DSCP is chosen from its offset in
     *                           its flow, or null for DSCP 0 on every segment.
     * @param io                 the packet I/O.
     * @param clock              the virtual clock.
     */
    SimTcp(final int localHost, final boolean dctcp, final long minRtoNs, final DupAckRule dupAckRule,
        final boolean sackOpensWindow, final int connectionsPerPair, final PiasThresholds pias, final PacketIo io,
        final NanoClock clock)
    {
        if (connectionsPerPair < 0)
        {
            throw new IllegalArgumentException("connections per pair must not be negative: " + connectionsPerPair);
        }
        this.localHost = localHost;
        this.dctcp = dctcp;
        this.minRtoNs = minRtoNs;
        this.dupAckRule = dupAckRule;
        this.sackOpensWindow = sackOpensWindow;
        this.connectionsPerPair = connectionsPerPair;
        this.pias = pias;
        this.io = io;
        this.clock = clock;
    }

    /**
     * Connections opened because every connection to a destination was busy (a handshake each).
     *
     * @return the count.
     */
    long connectionsOpened()
    {
        return connectionsOpened;
    }

    /**
     * SYNs sent, first sends and resends.
     *
     * @return the count.
     */
    long synsSent()
    {
        return synsSent;
    }

    /**
     * Whether the segments this endpoint sends are ECN-capable (DCTCP).
     *
     * @return true for DCTCP.
     */
    boolean ecnCapable()
    {
        return dctcp;
    }

    /**
     * Start a flow; its segments carry DSCP 0 whatever the flow's, since the baselines' drop-tail and ECN queues have
     * no classes.
     *
     * @param destinationHost the receiver.
     * @param sizeBytes       its size.
     * @param dscp            the flow's DSCP, not carried.
     * @return completed with the flow's record when its last byte is acknowledged.
     */
    public CompletableFuture<FlowRecord> send(final int destinationHost, final long sizeBytes, final int dscp)
    {
        return send(destinationHost, sizeBytes);
    }

    /**
     * Start a flow.
     *
     * @param destinationHost the receiver.
     * @param sizeBytes       its size.
     * @return completed with the flow's record when its last byte is acknowledged.
     */
    CompletableFuture<FlowRecord> send(final int destinationHost, final long sizeBytes)
    {
        nowNs = clock.nanoTime();
        final Sender sender = new Sender(((long)localHost << 32) | (flowCounter++ & 0xFFFF_FFFFL), destinationHost,
            sizeBytes, nowNs, connectionFor(destinationHost));
        senders.add(sender);
        sendersByFlow.put(sender.flowKey, sender);
        if (!sender.connection.established)
        {
            sender.sendSyn();
        }
        return sender.future;
    }

    /**
     * The connection a new flow to a destination runs on: its own fresh one, or the pool's longest idle, or a new
     * one to be opened when the pool's are all busy.
     */
    private Connection connectionFor(final int destinationHost)
    {
        if (0 == connectionsPerPair)
        {
            return new Connection(true);
        }
        ArrayDeque<Connection> idle = idleByDestination.get(destinationHost);
        if (null == idle)
        {
            idle = new ArrayDeque<>(connectionsPerPair);
            for (int i = 0; i < connectionsPerPair; i++)
            {
                idle.addLast(new Connection(true));
            }
            idleByDestination.put(destinationHost, idle);
        }
        final Connection connection = idle.pollFirst();
        if (null == connection)
        {
            connectionsOpened++;
            return new Connection(false);
        }
        if (connection.lastSendNs != Long.MIN_VALUE && nowNs - connection.lastSendNs > connection.rtoNs)
        {
            connection.cwnd = INITIAL_WINDOW;
        }
        return connection;
    }

    public int poll()
    {
        nowNs = clock.nanoTime();
        int work = io.poll(this, Integer.MAX_VALUE);
        for (int i = 0; i < senders.size(); i++)
        {
            final Sender sender = senders.get(i);
            if (sender.rtoDeadlineNs <= nowNs)
            {
                sender.onTimeout();
                work++;
            }
            work += sender.transmit();
        }
        for (int i = senders.size() - 1; i >= 0; i--)
        {
            if (senders.get(i).future.isDone())
            {
                sendersByFlow.remove(senders.get(i).flowKey);
                senders.set(i, senders.get(senders.size() - 1));
                senders.remove(senders.size() - 1);
            }
        }
        return work;
    }

    public long nextDeadlineNs()
    {
        long next = Long.MAX_VALUE;
        for (int i = 0; i < senders.size(); i++)
        {
            next = Math.min(next, senders.get(i).rtoDeadlineNs);
        }
        return next;
    }

    /**
     * Payload bytes a packet of this model carries: a data segment's, 0 for an ACK.
     *
     * @param buffer holding the packet.
     * @param offset of the packet's header.
     * @param length of the packet.
     * @return bytes.
     */
    static int payloadLength(final DirectBuffer buffer, final int offset, final int length)
    {
        return TYPE_DATA == buffer.getByte(offset + TYPE_OFFSET) ? length - HEADER_LENGTH : 0;
    }

    public void onPacket(final int sourceHost, final DirectBuffer buffer, final int offset, final int length)
    {
        final int type = buffer.getByte(offset + TYPE_OFFSET);
        final long flowKey = buffer.getLong(offset + FLOW_OFFSET, ByteOrder.BIG_ENDIAN);
        if (TYPE_DATA == type)
        {
            final boolean congestion = Ipv4Flyweight.ECN_CE ==
                (buffer.getByte(offset - Ipv4Flyweight.HEADER_LENGTH + Ipv4Flyweight.DSCP_ECN_FIELD_OFFSET) & 0x3);
            onData(sourceHost, flowKey, buffer.getInt(offset + SEQUENCE_OFFSET, ByteOrder.BIG_ENDIAN),
                buffer.getInt(offset + SEGMENTS_OFFSET, ByteOrder.BIG_ENDIAN), congestion);
        }
        else if (TYPE_SYN == type)
        {
            putHeader(TYPE_SYN_ACK, 0, 0, flowKey, 0, 0);
            io.send(sourceHost, out, 0, HEADER_LENGTH);
        }
        else if (TYPE_SYN_ACK == type)
        {
            final Sender sender = sendersByFlow.get(flowKey);
            if (null != sender && !sender.connection.established)
            {
                sender.onSynAck();
            }
        }
        else if (TYPE_ACK == type)
        {
            final Sender sender = sendersByFlow.get(flowKey);
            if (null == sender || sender.future.isDone())
            {
                return;
            }
            final int sackCount = buffer.getByte(offset + SACK_COUNT_OFFSET);
            for (int i = 0; i < sackCount; i++)
            {
                sender.sacked.set(buffer.getInt(offset + SACK_OFFSET + 8 * i, ByteOrder.BIG_ENDIAN),
                    buffer.getInt(offset + SACK_OFFSET + 8 * i + 4, ByteOrder.BIG_ENDIAN));
            }
            sender.onAck(buffer.getInt(offset + SEQUENCE_OFFSET, ByteOrder.BIG_ENDIAN),
                0 != (buffer.getByte(offset + FLAGS_OFFSET) & FLAG_ECE));
        }
    }

    private void onData(final int sourceHost, final long flowKey, final int sequence, final int segments,
        final boolean congestion)
    {
        int cumulative = segments;
        int blocks = 0;
        if (!finishedReceives.contains(flowKey))
        {
            Receiver receiver = receivers.get(flowKey);
            if (null == receiver)
            {
                receiver = new Receiver(segments);
                receivers.put(flowKey, receiver);
            }
            receiver.received.set(sequence);
            while (receiver.next < segments && receiver.received.get(receiver.next))
            {
                receiver.next++;
            }
            cumulative = receiver.next;
            if (cumulative == segments)
            {
                receivers.remove(flowKey);
                finishedReceives.add(flowKey);
            }
            else
            {
                int from = receiver.received.nextSetBit(cumulative);
                while (from >= 0 && blocks < MAX_SACK_BLOCKS)
                {
                    final int to = receiver.received.nextClearBit(from);
                    sackStarts[blocks] = from;
                    sackEnds[blocks] = to;
                    blocks++;
                    from = receiver.received.nextSetBit(to);
                }
            }
        }
        putHeader(TYPE_ACK, congestion ? FLAG_ECE : 0, blocks, flowKey, cumulative, segments);
        for (int i = 0; i < blocks; i++)
        {
            out.putInt(SACK_OFFSET + 8 * i, sackStarts[i], ByteOrder.BIG_ENDIAN);
            out.putInt(SACK_OFFSET + 8 * i + 4, sackEnds[i], ByteOrder.BIG_ENDIAN);
        }
        io.send(sourceHost, out, 0, HEADER_LENGTH + (blocks > 0 ? 4 + 8 * blocks : 0));
    }

    /**
     * The model's header, at the start of the outgoing packet.
     */
    private void putHeader(final int type, final int flags, final int sackBlocks, final long flowKey,
        final int sequence, final int segments)
    {
        out.putByte(TYPE_OFFSET, (byte)type);
        out.putByte(FLAGS_OFFSET, (byte)flags);
        out.putByte(SACK_COUNT_OFFSET, (byte)sackBlocks);
        out.putLong(FLOW_OFFSET, flowKey, ByteOrder.BIG_ENDIAN);
        out.putInt(SEQUENCE_OFFSET, sequence, ByteOrder.BIG_ENDIAN);
        out.putInt(SEGMENTS_OFFSET, segments, ByteOrder.BIG_ENDIAN);
    }

    private static final class Receiver
    {
        private final BitSet received;
        private int next;

        Receiver(final int segments)
        {
            received = new BitSet(segments);
        }
    }

    private final class Sender
    {
        private final long flowKey;
        private final int destination;
        private final long sizeBytes;
        private final int segments;
        private final long startNs;
        private final CompletableFuture<FlowRecord> future = new CompletableFuture<>();
        private final BitSet sacked = new BitSet();
        private final Connection connection;
        private int una;
        private int next;
        private int dupAcks;
        private boolean recovering;
        private int recover;
        private int retransmitNext;
        private long rtoDeadlineNs = Long.MAX_VALUE;
        private int timedSegment = -1;
        private long timedSentNs;
        private boolean synResent;
        private long synSentNs;
        private long windowAcked;
        private long windowMarked;
        private int windowEnd;
        private int timeouts;
        private long retransmittedBytes;

        Sender(final long flowKey, final int destination, final long sizeBytes, final long startNs,
            final Connection connection)
        {
            this.connection = connection;
            this.flowKey = flowKey;
            this.destination = destination;
            this.sizeBytes = sizeBytes;
            this.segments = (int)Math.max(1, (sizeBytes + SEGMENT_LENGTH - 1) / SEGMENT_LENGTH);
            this.startNs = startNs;
        }

        private int segmentLength(final int segment)
        {
            return segment == segments - 1 ? (int)(sizeBytes - (long)(segments - 1) * SEGMENT_LENGTH) :
                SEGMENT_LENGTH;
        }

        private int pipe()
        {
            int sackedOutstanding = 0;
            for (int s = sacked.nextSetBit(una); s >= 0 && s < next; s = sacked.nextSetBit(s + 1))
            {
                sackedOutstanding++;
            }
            final int outstanding = next - una - sackedOutstanding;
            if (!recovering)
            {
                return outstanding;
            }
            final int highestSacked = sacked.length();
            int lost = 0;
            for (int s = sacked.nextClearBit(retransmitNext); s < Math.min(highestSacked, next);
                s = sacked.nextClearBit(s + 1))
            {
                lost++;
            }
            return outstanding - lost;
        }

        int transmit()
        {
            if (!connection.established)
            {
                return 0;
            }
            int sent = 0;
            while (pipe() < (int)connection.cwnd)
            {
                final int segment;
                if (recovering && sacked.nextClearBit(retransmitNext) < Math.min(sacked.length(), next))
                {
                    segment = sacked.nextClearBit(retransmitNext);
                    retransmitNext = segment + 1;
                    retransmittedBytes += segmentLength(segment);
                    timedSegment = -1;
                }
                else
                {
                    while (next < segments && sacked.get(next))
                    {
                        next++;
                    }
                    if (next >= segments || (!recovering && !sackOpensWindow && next >= una + (int)connection.cwnd))
                    {
                        break;
                    }
                    segment = next++;
                    if (timedSegment < 0)
                    {
                        timedSegment = segment;
                        timedSentNs = nowNs;
                    }
                }
                sendSegment(segment);
                sent++;
            }
            return sent;
        }

        private void sendSegment(final int segment)
        {
            putHeader(TYPE_DATA, 0, 0, flowKey, segment, segments);
            io.send(destination, out, 0, HEADER_LENGTH + segmentLength(segment),
                null == pias ? 0 : pias.dscpOf((long)segment * SEGMENT_LENGTH));
            connection.lastSendNs = nowNs;
            if (Long.MAX_VALUE == rtoDeadlineNs)
            {
                rtoDeadlineNs = nowNs + connection.rtoNs;
            }
        }

        void onAck(final int cumulative, final boolean echo)
        {
            if (cumulative > una)
            {
                final int newly = cumulative - una;
                if (dctcp)
                {
                    windowAcked += newly;
                    windowMarked += echo ? newly : 0;
                }
                if (timedSegment >= 0 && cumulative > timedSegment)
                {
                    sampleRtt(nowNs - timedSentNs);
                    timedSegment = -1;
                }
                una = cumulative;
                next = Math.max(next, una);
                retransmitNext = Math.max(retransmitNext, una);
                dupAcks = 0;
                if (recovering)
                {
                    if (una >= recover)
                    {
                        recovering = false;
                        connection.cwnd = connection.ssthresh;
                    }
                }
                else
                {
                    connection.cwnd += connection.cwnd < connection.ssthresh ? newly :
                        (double)newly / connection.cwnd;
                }
                connection.cwnd = Math.min(connection.cwnd, MAX_WINDOW);
                if (dctcp && una >= windowEnd)
                {
                    endDctcpWindow();
                }
                if (una >= segments)
                {
                    rtoDeadlineNs = Long.MAX_VALUE;
                    release(this);
                    future.complete(new FlowRecord(flowKey, localHost, destination, sizeBytes, startNs, nowNs,
                        timeouts, retransmittedBytes));
                    return;
                }
                rtoDeadlineNs = nowNs + connection.rtoNs;
            }
            else if (cumulative == una && next > una)
            {
                if (dctcp && echo)
                {
                    windowMarked++;
                }
                dupAcks++;
                if (!recovering && dupAcks >= dupAckRule.threshold(connection.cwnd))
                {
                    recovering = true;
                    recover = next;
                    connection.ssthresh = Math.max(connection.cwnd / 2, 2);
                    connection.cwnd = connection.ssthresh;
                    retransmitNext = una;
                }
            }
        }

        private void endDctcpWindow()
        {
            if (windowAcked > 0)
            {
                final double fraction = Math.min(1.0, (double)windowMarked / windowAcked);
                connection.alpha = (1 - DCTCP_G) * connection.alpha + DCTCP_G * fraction;
                if (windowMarked > 0)
                {
                    connection.cwnd = Math.max(1, connection.cwnd * (1 - connection.alpha / 2));
                    connection.ssthresh = Math.max(2, connection.cwnd);
                }
            }
            windowAcked = 0;
            windowMarked = 0;
            windowEnd = next;
        }

        private void sampleRtt(final long rttNs)
        {
            if (0 == connection.srttNs)
            {
                connection.srttNs = rttNs;
                connection.rttVarNs = rttNs / 2.0;
            }
            else
            {
                connection.rttVarNs = 0.75 * connection.rttVarNs + 0.25 * Math.abs(connection.srttNs - rttNs);
                connection.srttNs = 0.875 * connection.srttNs + 0.125 * rttNs;
            }
            connection.rtoNs = Math.min(MAX_RTO_NS,
                Math.max(minRtoNs, (long)(connection.srttNs + 4 * connection.rttVarNs)));
        }

        void sendSyn()
        {
            putHeader(TYPE_SYN, 0, 0, flowKey, 0, 0);
            io.send(destination, out, 0, HEADER_LENGTH);
            synsSent++;
            synSentNs = nowNs;
            connection.lastSendNs = nowNs;
            rtoDeadlineNs = nowNs + connection.rtoNs;
        }

        void onSynAck()
        {
            if (!synResent)
            {
                sampleRtt(nowNs - synSentNs);
            }
            connection.established = true;
            rtoDeadlineNs = Long.MAX_VALUE;
        }

        void onTimeout()
        {
            timeouts++;
            if (!connection.established)
            {
                synResent = true;
                connection.rtoNs = Math.min(MAX_RTO_NS, connection.rtoNs * 2);
                sendSyn();
                return;
            }
            connection.ssthresh = Math.max(connection.cwnd / 2, 2);
            connection.cwnd = 1;
            recovering = false;
            dupAcks = 0;
            next = una;
            retransmitNext = una;
            timedSegment = -1;
            connection.rtoNs = Math.min(MAX_RTO_NS, connection.rtoNs * 2);
            rtoDeadlineNs = nowNs + connection.rtoNs;
            while (next < segments && sacked.get(next))
            {
                next++;
            }
            if (next < segments)
            {
                retransmittedBytes += segmentLength(next);
                sendSegment(next);
                next++;
            }
        }
    }

    /**
     * What a connection keeps from one flow to the next.
     */
    private final class Connection
    {
        private boolean established;
        private double cwnd = INITIAL_WINDOW;
        private double ssthresh = MAX_WINDOW;
        private long rtoNs = minRtoNs;
        private double srttNs;
        private double rttVarNs;
        private double alpha;
        private long lastSendNs = Long.MIN_VALUE;

        Connection(final boolean established)
        {
            this.established = established;
        }
    }

    /**
     * A flow's connection is free for the next once its last byte is acknowledged: into its destination's pool, when
     * there is one, behind those idle longer.
     */
    private void release(final Sender sender)
    {
        if (connectionsPerPair > 0)
        {
            idleByDestination.get(sender.destination).addLast(sender.connection);
        }
    }
}
