package io.pfabric.hostd.transport;

import io.pfabric.dataplane.pacer.EgressPacer;
import io.pfabric.hostd.io.PacketIo;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The host's way out: hands each packet written in the send buffer to the {@link PacketIo} and, on a paced link, to
 * an {@link EgressPacer} that keeps departures, DATA and ACKs alike, at the host link's rate so that the NIC's queue
 * stays short and the priority order is real. Without a link rate packets leave unpaced.
 */
final class Egress
{
    private final PacketIo io;
    private final UnsafeBuffer buffer;
    private final int wireOverheadLength;
    private final TransportCounters counters;
    private final EgressPacer pacer;

    /**
     * An egress paced at a link's rate.
     *
     * @param buffer             the send buffer, each packet written from offset 0.
     * @param linkRateBitsPerSec the host link's rate; 0 for unpaced.
     */
    Egress(
        final PacketIo io,
        final UnsafeBuffer buffer,
        final long linkRateBitsPerSec,
        final int wireOverheadLength,
        final TransportCounters counters)
    {
        this.io = io;
        this.buffer = buffer;
        this.wireOverheadLength = wireOverheadLength;
        this.counters = counters;
        this.pacer = linkRateBitsPerSec > 0 ? new EgressPacer(linkRateBitsPerSec) : null;
    }

    /**
     * Send the packet at the start of the send buffer.
     */
    void send(final int destinationHost, final int length, final long nowNs)
    {
        if (!io.send(destinationHost, buffer, 0, length))
        {
            counters.sendFailures++;
        }
        if (null != pacer)
        {
            pacer.onRelease(nowNs, wireOverheadLength + length);
        }
    }

    /**
     * A packet's bytes on the wire (headers, pFabric header and payload; not FCS, preamble, gap).
     */
    int wireLength(final int length)
    {
        return wireOverheadLength + length;
    }

    boolean mayRelease(final long nowNs)
    {
        return null == pacer || pacer.mayRelease(nowNs);
    }

    /**
     * When the next packet may leave: now if unpaced.
     */
    long nextDepartureNs(final long nowNs)
    {
        return null == pacer ? nowNs : pacer.nextDepartureNs();
    }

    /**
     * How long until the next packet may leave: 0 if unpaced.
     */
    long waitNs(final long nowNs)
    {
        return null == pacer ? 0 : pacer.nextDepartureNs() - nowNs;
    }
}
