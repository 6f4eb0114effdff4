package io.pfabric.hostd.transport;

import io.pfabric.common.topology.TrafficClasses;
import io.pfabric.hostd.io.PacketIo;
import io.pfabric.hostd.io.PacketIos;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The transport's per-packet paths, sending data, receiving and answering it, and taking the ACKs, allocate nothing
 * once a flow is under way: two transports on one thread and virtual time, joined by rings of preallocated packet
 * slots, with the thread's allocated bytes read before and after tens of thousands of packets: fewer bytes than
 * packets, where one object per packet would be 16 bytes or more each. (The JIT may still allocate a few hundred bytes
 * once, when it replaces compiled code whose objects it had kept in registers; in the interpreter, {@code -Xint}, the
 * count is 0.) Starting and finishing a flow allocate (its state, its future); the packets between do not. The UDP
 * I/O below the transport is Netty's, which wraps each datagram in an envelope; this test covers the transport above
 * it.
 */
class TransportAllocationTest
{
    private static final long LINK_BPS = 10_000_000_000L;
    private static final long STEP_NS = 1_000;
    private static final int SEGMENT_LENGTH = 1_440;
    private static final long FLOW_BYTES = 4_000_000_000L;
    private static final int WARM_UP_STEPS = 200_000;
    private static final int MEASURED_STEPS = 100_000;

    /**
     * Time that only the test moves.
     */
    private static final class Clock implements NanoClock
    {
        long nowNs;

        public long nanoTime()
        {
            return nowNs;
        }
    }

    /**
     * One direction of a wire: a ring of packet slots filled by one host's sends and emptied by the other's polls.
     */
    private static final class Ring
    {
        private static final int SLOTS = 1_024;
        private static final int SLOT_LENGTH = 2_048;

        private final UnsafeBuffer slots = new UnsafeBuffer(ByteBuffer.allocateDirect(SLOTS * SLOT_LENGTH));
        private final int[] lengths = new int[SLOTS];
        private long head;
        private long tail;

        boolean offer(final DirectBuffer buffer, final int offset, final int length)
        {
            if (tail - head == SLOTS || length > SLOT_LENGTH)
            {
                return false;
            }
            final int slot = (int)(tail++ % SLOTS);
            slots.putBytes(slot * SLOT_LENGTH, buffer, offset, length);
            lengths[slot] = length;
            return true;
        }

        int drain(final int sourceHost, final PacketIo.InboundHandler handler, final int limit)
        {
            int taken = 0;
            while (head < tail && taken < limit)
            {
                final int slot = (int)(head++ % SLOTS);
                handler.onPacket(sourceHost, slots, slot * SLOT_LENGTH, lengths[slot]);
                taken++;
            }
            return taken;
        }
    }

    /**
     * A host's end of the wire: sends go into the peer's inbound ring.
     */
    private static final class End implements PacketIo
    {
        private final int peerHost;
        private final Ring inbound;
        private final Ring outbound;

        End(final int peerHost, final Ring inbound, final Ring outbound)
        {
            this.peerHost = peerHost;
            this.inbound = inbound;
            this.outbound = outbound;
        }

        public int poll(final InboundHandler handler, final int limit)
        {
            return inbound.drain(peerHost, handler, limit);
        }

        public boolean send(final int destinationHost, final DirectBuffer buffer, final int offset, final int length)
        {
            return destinationHost == peerHost && outbound.offer(buffer, offset, length);
        }

        public int maxPacketLength()
        {
            return 1_472;
        }

        public void flush()
        {
        }

        public void close()
        {
        }
    }

    @Test
    void dataAckAndTheirHandlingAllocateNothingPerPacket()
    {
        measure(TransportConfiguration.PAPER, null);
    }

    @Test
    void coalescedAcksAllocateNothingPerPacketEither()
    {
        measure(TransportConfiguration.PAPER.withSegmentsPerAck(4), null);
    }

    @Test
    void sendingBetweenTrafficClassesAllocatesNothingPerPacketEither()
    {
        measure(TransportConfiguration.PAPER, TrafficClasses.parse("3:0-7;1:8-15"));
    }

    private static void measure(final TransportConfiguration configuration, final TrafficClasses classes)
    {
        final java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(bean instanceof com.sun.management.ThreadMXBean);
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)bean;
        Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported());
        threads.setThreadAllocatedMemoryEnabled(true);

        final Clock clock = new Clock();
        final Ring toH1 = new Ring();
        final Ring toH0 = new Ring();
        final int overhead = PacketIos.wireOverheadLength(PacketIos.UDP);
        final TransportListener quiet = new TransportListener()
        {
        };
        final HostTransport h0 = new HostTransport(configuration.withSegmentLength(SEGMENT_LENGTH), 0, LINK_BPS,
            HostTransport.PACING_LEAD_NS, overhead, new End(1, toH0, toH1), clock, quiet, false);
        final HostTransport h1 = new HostTransport(configuration.withSegmentLength(SEGMENT_LENGTH), 1, LINK_BPS,
            HostTransport.PACING_LEAD_NS, overhead, new End(0, toH1, toH0), clock, quiet, false);
        h0.trafficClasses(classes);
        final CompletableFuture<FlowRecord> flow = h0.send(1, FLOW_BYTES);
        final CompletableFuture<FlowRecord> other = null == classes ? flow : h0.send(1, FLOW_BYTES, 8);

        run(h0, h1, clock, WARM_UP_STEPS);
        final long packetsBefore = h0.counters().packetsSent();
        final long acksBefore = h0.counters().acksReceived();
        final long threadId = Thread.currentThread().threadId();
        threads.getThreadAllocatedBytes(threadId);
        final long before = threads.getThreadAllocatedBytes(threadId);
        run(h0, h1, clock, MEASURED_STEPS);
        final long allocated = threads.getThreadAllocatedBytes(threadId) - before;
        final long packets = h0.counters().packetsSent() - packetsBefore;
        final long acks = h0.counters().acksReceived() - acksBefore;

        assertFalse(flow.isDone() || other.isDone(), "the flows are still under way");
        assertTrue(packets > 10_000 && acks > 2_000, packets + " data packets and " + acks + " ACKs measured");
        assertEquals(0, h0.counters().timeouts(), "nothing was lost");
        assertTrue(allocated < packets, allocated + " bytes allocated while " + packets + " data packets and " +
            acks + " ACKs went through");
    }

    private static void run(final HostTransport h0, final HostTransport h1, final Clock clock, final int steps)
    {
        for (int i = 0; i < steps; i++)
        {
            clock.nowNs += STEP_NS;
            h0.poll();
            h1.poll();
        }
    }
}
