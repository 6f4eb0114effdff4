package io.pfabric.hostd.transport;

import io.pfabric.dataplane.pacer.EgressPacer;
import io.pfabric.hostd.io.PacketIo;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The host's way out: hands each packet written in the send buffer to the {@link PacketIo} and, on a paced link, to
 * an {@link EgressPacer} that keeps departures, DATA and ACKs alike, at the host link's rate so that the NIC's queue
 * stays short and the priority order is real. Without a link rate packets leave unpaced.
 * <p>
 * With a lead, packets leave in micro-batches: the pacer's wire clock may run up to the lead ahead of now (a NIC's
 * short transmit queue), and once it is that far ahead the transport waits until half of it has drained
 * ({@link #waitNs(long)}), then sends the next half at once. The long-run rate is the link's; a thread wake-up per
 * half lead instead of one per packet. Without one, each packet leaves when the previous one has left the wire.
 */
final class Egress
{
    private final PacketIo io;
    private final UnsafeBuffer buffer;
    private final int wireOverheadLength;
    private final TransportCounters counters;
    private final EgressPacer pacer;
    private final long leadNs;

    /**
     * An egress paced at a link's rate.
     *
     * @param buffer             the send buffer, each packet written from offset 0.
     * @param linkRateBitsPerSec the host link's rate; 0 for unpaced.
     * @param leadNs             how far ahead of the wire packets may go, at least a full frame's wire time if not 0.
     */
    Egress(
        final PacketIo io,
        final UnsafeBuffer buffer,
        final long linkRateBitsPerSec,
        final long leadNs,
        final int wireOverheadLength,
        final TransportCounters counters)
    {
        this.io = io;
        this.buffer = buffer;
        this.wireOverheadLength = wireOverheadLength;
        this.counters = counters;
        this.pacer = linkRateBitsPerSec > 0 ? new EgressPacer(linkRateBitsPerSec) : null;
        this.leadNs = null == pacer || leadNs <= 0 ? 0 :
            Math.max(leadNs, pacer.wireTimeNs(io.maxPacketLength() + wireOverheadLength));
    }

    /**
     * Send the packet at the start of the send buffer.
     */
    void send(final int destinationHost, final int length, final long nowNs)
    {
        send(destinationHost, length, nowNs, 0);
    }

    /**
     * Send the packet at the start of the send buffer with an IPv4 DSCP.
     */
    void send(final int destinationHost, final int length, final long nowNs, final int dscp)
    {
        if (!io.send(destinationHost, buffer, 0, length, dscp))
        {
            counters.sendFailures++;
        }
        if (null != pacer)
        {
            pacer.onRelease(nowNs, wireOverheadLength + length);
        }
    }

    /**
     * Hand what was sent so far to the kernel now, not at the end of the transport's round.
     */
    void flush()
    {
        io.flush();
    }

    /**
     * How far the transport may send after its intended time before the wire, as the pacer keeps it, goes idle: half
     * the lead, which is what is still queued ahead of the wire when the transport is due again.
     */
    long slackNs()
    {
        return leadNs / 2;
    }

    /**
     * A packet's bytes on the wire (headers, pFabric header and payload; not FCS, preamble, gap).
     */
    int wireLength(final int length)
    {
        return wireOverheadLength + length;
    }

    /**
     * Whether a packet may be handed to the kernel now: the wire clock is less than the lead ahead.
     */
    boolean mayRelease(final long nowNs)
    {
        return null == pacer || pacer.mayRelease(nowNs + leadNs);
    }

    /**
     * When the transport should next send: when half the lead has drained; now if unpaced.
     */
    long nextDepartureNs(final long nowNs)
    {
        return null == pacer ? nowNs : pacer.nextDepartureNs() - leadNs / 2;
    }

    /**
     * How long the transport may wait before it sends again with the wire kept busy: until half the lead has
     * drained; 0 or less if it may send now (always, unpaced).
     */
    long waitNs(final long nowNs)
    {
        return null == pacer ? 0 : pacer.nextDepartureNs() - leadNs / 2 - nowNs;
    }
}
