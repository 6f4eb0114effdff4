package io.pfabric.sim;

import io.pfabric.dataplane.pacer.EgressPacer;
import io.pfabric.hostd.io.PacketIo;
import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.sim.pdq.PdqPacketFlyweight;
import io.pfabric.sim.pdq.PdqSender;
import io.pfabric.sim.pdq.PdqSettings;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A host running PDQ: its flows' {@link PdqSender}s, and a receiver that answers every SYN, data packet, probe and
 * TERM with an ACK carrying the scheduling header back (R_H and P_H as they arrived, the base probing interval in
 * D_H, the sender's RTT_S in T_H) and the route the packet took, which the ACK retraces through the links'
 * controllers ({@link SimPdqLinks}). The receiver keeps no state: the sender tracks what was acknowledged.
 */
final class SimPdq implements Endpoint, PacketIo.InboundHandler, PdqSender.Transmitter
{
    private final int localHost;
    private final PdqSettings settings;
    private final long nicRateBitsPerSec;
    private final int termCopies;
    private final PacketIo io;
    private final NanoClock clock;
    private final List<PdqSender> senders = new ArrayList<>();
    private final List<CompletableFuture<FlowRecord>> futures = new ArrayList<>();
    private final Long2ObjectHashMap<PdqSender> sendersByFlow = new Long2ObjectHashMap<>();
    private final UnsafeBuffer out = new UnsafeBuffer(new byte[PdqPacketFlyweight.HEADER_LENGTH +
        PdqSender.SEGMENT_BYTES + PdqPacketFlyweight.ROUTE_LENGTH]);
    private final PdqPacketFlyweight outPacket = new PdqPacketFlyweight().wrap(out, 0);
    private final PdqPacketFlyweight inPacket = new PdqPacketFlyweight();
    private long nowNs;
    private int flowCounter;

    /**
     * A host's PDQ.
     *
     * @param localHost         this host.
     * @param settings          the variant.
     * @param nicRateBitsPerSec R_max.
     * @param termCopies        TERMs per flow: one per path when spraying, else 1.
     * @param io                the packet I/O.
     * @param clock             the virtual clock.
     */
    SimPdq(final int localHost, final PdqSettings settings, final long nicRateBitsPerSec, final int termCopies,
        final PacketIo io, final NanoClock clock)
    {
        this.localHost = localHost;
        this.settings = settings;
        this.nicRateBitsPerSec = nicRateBitsPerSec;
        this.termCopies = termCopies;
        this.io = io;
        this.clock = clock;
    }

    public CompletableFuture<FlowRecord> send(final int destinationHost, final long sizeBytes, final int dscp)
    {
        return send(destinationHost, sizeBytes, Long.MAX_VALUE);
    }

    /**
     * Start a flow with a deadline, which its sender carries in D_H (EDF at every link) and, with Early Termination,
     * ends it by.
     *
     * @param destinationHost the receiver.
     * @param sizeBytes       its size.
     * @param dscp            not carried: PDQ's queues are drop-tail.
     * @param deadlineNs      the time it has to complete from now; 0 for none.
     * @return completed with the flow's record when its last byte is acknowledged; never, if Early Termination ends
     * it.
     */
    public CompletableFuture<FlowRecord> send(final int destinationHost, final long sizeBytes, final int dscp,
        final long deadlineNs)
    {
        return send(destinationHost, sizeBytes, deadlineNs > 0 ? clock.nanoTime() + deadlineNs : Long.MAX_VALUE);
    }

    /**
     * Start a flow with a deadline.
     *
     * @param destinationHost the receiver.
     * @param sizeBytes       its size.
     * @param deadlineNs      its absolute deadline, or {@link Long#MAX_VALUE} for none.
     * @return completed with the flow's record when its last byte is acknowledged; never, if Early Termination ends
     * it.
     */
    CompletableFuture<FlowRecord> send(final int destinationHost, final long sizeBytes, final long deadlineNs)
    {
        nowNs = clock.nanoTime();
        final PdqSender sender = new PdqSender(((long)localHost << 32) | (flowCounter++ & 0xFFFF_FFFFL),
            destinationHost, Math.max(1, sizeBytes), nowNs, deadlineNs, nicRateBitsPerSec,
            Simulator.FRAME_OVERHEAD + EgressPacer.WIRE_OVERHEAD_LENGTH, settings, termCopies);
        final CompletableFuture<FlowRecord> future = new CompletableFuture<>();
        senders.add(sender);
        futures.add(future);
        sendersByFlow.put(sender.flowId(), sender);
        sender.start(nowNs, this);
        return future;
    }

    public int poll()
    {
        nowNs = clock.nanoTime();
        int work = io.poll(this, Integer.MAX_VALUE);
        for (int i = 0; i < senders.size(); i++)
        {
            work += senders.get(i).poll(nowNs, this);
        }
        for (int i = senders.size() - 1; i >= 0; i--)
        {
            final PdqSender sender = senders.get(i);
            final CompletableFuture<FlowRecord> future = futures.get(i);
            if (sender.completedNs() >= 0 && !future.isDone())
            {
                future.complete(new FlowRecord(sender.flowId(), localHost, sender.destinationHost(),
                    sender.sizeBytes(), sender.startNs(), sender.completedNs(), sender.timeouts(),
                    sender.retransmittedBytes()));
            }
            if (sender.isDone())
            {
                sendersByFlow.remove(sender.flowId());
                final int last = senders.size() - 1;
                senders.set(i, senders.get(last));
                senders.remove(last);
                futures.set(i, futures.get(last));
                futures.remove(last);
            }
        }
        return work;
    }

    public long nextDeadlineNs()
    {
        long next = Long.MAX_VALUE;
        for (int i = 0; i < senders.size(); i++)
        {
            next = Math.min(next, senders.get(i).nextDeadlineNs());
        }
        return next;
    }

    public void onPacket(final int sourceHost, final DirectBuffer buffer, final int offset, final int length)
    {
        inPacket.wrap((UnsafeBuffer)buffer, offset);
        if (!inPacket.isForward())
        {
            final PdqSender sender = sendersByFlow.get(inPacket.flowId());
            if (null != sender)
            {
                sender.onAck(nowNs, inPacket);
            }
            return;
        }
        final int senderRttNs = inPacket.senderRttNs();
        final long baseIntervalNs = settings.probeIntervalNs() > 0 ? settings.probeIntervalNs() :
            senderRttNs > 0 ? senderRttNs : settings.initialRttNs();
        outPacket.type(PdqPacketFlyweight.TYPE_ACK)
            .selector(inPacket.type())
            .payloadLength(0)
            .flowId(inPacket.flowId())
            .sequence(inPacket.sequence())
            .timestamp(inPacket.timestamp())
            .senderRttNs(senderRttNs)
            .rateKbps(inPacket.rateKbps())
            .pausedBy(inPacket.pausedBy())
            .deadlineField(PdqPacketFlyweight.saturate(baseIntervalNs))
            .expectedField(senderRttNs);
        outPacket.copyRoute(inPacket);
        io.send(sourceHost, out, 0, outPacket.bufferLength());
    }

    public void transmit(final PdqSender sender, final byte type, final int sequence, final int payloadLength,
        final int selector)
    {
        outPacket.type(type).selector(selector).payloadLength(payloadLength).sequence(sequence);
        sender.writeHeader(nowNs, outPacket);
        outPacket.clearRoute();
        io.send(sender.destinationHost(), out, 0, outPacket.bufferLength());
    }
}
