package io.pfabric.hostd.transport;

import io.pfabric.hostd.io.PacketIo;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;

/**
 * An in-process network on virtual time between host transports: every packet is delayed by a base delay plus a
 * random jitter (which reorders them), and independently lost, duplicated or truncated with given probabilities.
 */
final class LossyNetwork implements NanoClock
{
    private final SplittableRandom random;
    private final double lossProbability;
    private final double duplicateProbability;
    private final double truncateProbability;
    private final long delayNs;
    private final long jitterNs;
    private final List<Endpoint> endpoints = new ArrayList<>();
    private final BitSet silenced = new BitSet();
    private long nowNs;
    private long sequence;
    private long packetsSent;
    private long packetsLost;

    LossyNetwork(
        final long seed,
        final double lossProbability,
        final double duplicateProbability,
        final double truncateProbability,
        final long delayNs,
        final long jitterNs)
    {
        this.random = new SplittableRandom(seed);
        this.lossProbability = lossProbability;
        this.duplicateProbability = duplicateProbability;
        this.truncateProbability = truncateProbability;
        this.delayNs = delayNs;
        this.jitterNs = jitterNs;
    }

    public long nanoTime()
    {
        return nowNs;
    }

    PacketIo endpoint(final int host)
    {
        while (endpoints.size() <= host)
        {
            endpoints.add(new Endpoint(endpoints.size()));
        }
        return endpoints.get(host);
    }

    /**
     * Lose, or stop losing, every packet a host sends.
     */
    void silence(final int host, final boolean silent)
    {
        silenced.set(host, silent);
    }

    long packetsSent()
    {
        return packetsSent;
    }

    long packetsLost()
    {
        return packetsLost;
    }

    /**
     * Run every transport's duty cycle each step of virtual time until the condition holds.
     *
     * @return the virtual time taken.
     */
    long runUntil(
        final List<HostTransport> transports, final BooleanSupplier done, final long stepNs, final long limitNs)
    {
        final long startNs = nowNs;
        while (!done.getAsBoolean())
        {
            if (nowNs - startNs > limitNs)
            {
                throw new AssertionError("not done after " + limitNs + " ns of virtual time");
            }
            for (final HostTransport transport : transports)
            {
                transport.doWork();
            }
            nowNs += stepNs;
        }
        return nowNs - startNs;
    }

    private void transmit(final int source, final int destination, final DirectBuffer buffer, final int offset,
        final int length)
    {
        packetsSent++;
        if (silenced.get(source) || random.nextDouble() < lossProbability)
        {
            packetsLost++;
            return;
        }
        final int copies = random.nextDouble() < duplicateProbability ? 2 : 1;
        for (int i = 0; i < copies; i++)
        {
            int deliveredLength = length;
            if (random.nextDouble() < truncateProbability)
            {
                deliveredLength = random.nextInt(length);
            }
            final byte[] bytes = new byte[deliveredLength];
            buffer.getBytes(offset, bytes, 0, deliveredLength);
            final long jitter = jitterNs > 0 ? random.nextLong(jitterNs + 1) : 0;
            ((Endpoint)endpoint(destination)).inbound.add(
                new Packet(nowNs + delayNs + jitter, sequence++, source, destination, bytes));
        }
    }

    private record Packet(long deliveryNs, long sequence, int source, int destination, byte[] bytes)
        implements Comparable<Packet>
    {
        public int compareTo(final Packet other)
        {
            final int byTime = Long.compare(deliveryNs, other.deliveryNs);
            return 0 != byTime ? byTime : Long.compare(sequence, other.sequence);
        }
    }

    private final class Endpoint implements PacketIo
    {
        private final int host;
        private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
        private final PriorityQueue<Packet> inbound = new PriorityQueue<>();

        Endpoint(final int host)
        {
            this.host = host;
        }

        public int poll(final InboundHandler handler, final int limit)
        {
            int taken = 0;
            while (taken < limit && !inbound.isEmpty() && inbound.peek().deliveryNs - nowNs <= 0)
            {
                final Packet packet = inbound.poll();
                view.wrap(packet.bytes);
                handler.onPacket(packet.source, view, 0, packet.bytes.length);
                taken++;
            }
            return taken;
        }

        public boolean send(final int destinationHost, final DirectBuffer buffer, final int offset, final int length)
        {
            transmit(host, destinationHost, buffer, offset, length);
            return true;
        }

        public void flush()
        {
        }

        public int maxPacketLength()
        {
            return 65_000;
        }

        public void close()
        {
        }
    }
}
