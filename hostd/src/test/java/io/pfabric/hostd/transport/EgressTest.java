package io.pfabric.hostd.transport;

import io.pfabric.dataplane.pacer.EgressPacer;
import io.pfabric.hostd.io.PacketIo;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The host's pacer on scripted time: packets leave in micro-batches, never more than the lead ahead of the wire, at
 * the link's rate over the long run.
 */
class EgressTest
{
    private static final int OVERHEAD = 42;
    private static final int PACKET_LENGTH = 1_458;

    /**
     * The transport's loop, backlogged: send while the egress lets it, then wait as long as it says.
     */
    private static List<Long> sendTimes(final long rateBitsPerSec, final long leadNs, final long durationNs)
    {
        final List<Long> times = new ArrayList<>();
        final Egress egress = new Egress(new CountingIo(), new UnsafeBuffer(new byte[PACKET_LENGTH]), rateBitsPerSec,
            leadNs, OVERHEAD, new TransportCounters());
        long nowNs = 1_000_000;
        final long endNs = nowNs + durationNs;
        while (nowNs < endNs)
        {
            while (egress.mayRelease(nowNs))
            {
                egress.send(1, PACKET_LENGTH, nowNs);
                times.add(nowNs);
            }
            nowNs += Math.max(1, egress.waitNs(nowNs));
        }
        return times;
    }

    private static long wireTimeNs(final long rateBitsPerSec)
    {
        return 8L * (OVERHEAD + PACKET_LENGTH + EgressPacer.WIRE_OVERHEAD_LENGTH) * 1_000_000_000L / rateBitsPerSec;
    }

    @Test
    void aBackloggedHostSendsAtTheLinkRateWithinOnePercent()
    {
        for (final long leadNs : new long[] { 0, HostTransport.PACING_LEAD_NS })
        {
            for (final long rate : new long[] { 100_000_000L, 1_000_000_000L, 10_000_000_000L })
            {
                final long durationNs = 100_000_000;
                final List<Long> times = sendTimes(rate, leadNs, durationNs);
                final double sentBits =
                    times.size() * 8.0 * (OVERHEAD + PACKET_LENGTH + EgressPacer.WIRE_OVERHEAD_LENGTH);
                final double ratio = sentBits / (rate * (durationNs / 1e9));
                assertTrue(Math.abs(ratio - 1) < 0.01,
                    "at " + rate + " b/s with a lead of " + leadNs + " ns the host sent " + ratio + " of the rate");
            }
        }
    }

    @Test
    void packetsLeaveInMicroBatchesNoMoreThanTheLeadAheadOfTheWire()
    {
        final long rate = 1_000_000_000L;
        final long wireNs = wireTimeNs(rate);
        final List<Long> times = sendTimes(rate, HostTransport.PACING_LEAD_NS, 10_000_000);
        final long startNs = times.get(0);
        int batches = 0;
        for (int i = 0; i < times.size(); i++)
        {
            if (0 == i || !times.get(i).equals(times.get(i - 1)))
            {
                batches++;
            }
            final long wireFreeNs = startNs + (i + 1) * wireNs;
            assertTrue(wireFreeNs - times.get(i) <= HostTransport.PACING_LEAD_NS + 2 * wireNs,
                "packet " + i + " handed over " + (wireFreeNs - times.get(i)) + " ns before its wire time ends");
        }
        final double packetsPerBatch = (double)times.size() / batches;
        final double expected = HostTransport.PACING_LEAD_NS / 2.0 / wireNs;
        assertTrue(packetsPerBatch >= Math.max(1.5, expected * 0.8),
            packetsPerBatch + " packets per batch at 1 Gb/s; half the lead holds " + expected);
    }

    /**
     * The first two go together: the pacer lets a frame catch up on a link that was idle.
     */
    @Test
    void withoutALeadEachPacketLeavesWhenThePreviousHasLeftTheWire()
    {
        final long rate = 1_000_000_000L;
        final long wireNs = wireTimeNs(rate);
        final List<Long> times = sendTimes(rate, 0, 1_000_000);
        for (int i = 2; i < times.size(); i++)
        {
            final long gapNs = times.get(i) - times.get(i - 1);
            assertTrue(gapNs >= wireNs - 1 && gapNs <= wireNs + 1,
                "packets " + (i - 1) + " and " + i + " left " + gapNs + " ns apart; one frame takes " + wireNs);
        }
    }

    @Test
    void anUnpacedHostNeverWaits()
    {
        final Egress egress = new Egress(new CountingIo(), new UnsafeBuffer(new byte[PACKET_LENGTH]), 0,
            HostTransport.PACING_LEAD_NS, OVERHEAD, new TransportCounters());
        for (int i = 0; i < 1_000; i++)
        {
            assertTrue(egress.mayRelease(5));
            egress.send(1, PACKET_LENGTH, 5);
        }
        assertEquals(0, egress.waitNs(5));
    }

    private static final class CountingIo implements PacketIo
    {
        public int poll(final InboundHandler handler, final int limit)
        {
            return 0;
        }

        public boolean send(final int destinationHost, final DirectBuffer buffer, final int offset, final int length)
        {
            return true;
        }

        public void flush()
        {
        }

        public int maxPacketLength()
        {
            return OVERHEAD + PACKET_LENGTH;
        }

        public void close()
        {
        }
    }
}
