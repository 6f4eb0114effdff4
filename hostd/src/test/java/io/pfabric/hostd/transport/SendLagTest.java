package io.pfabric.hostd.transport;

import io.pfabric.hostd.io.PacketIo;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The transport measures how late it sends against the time its pacer set, on scripted time: a thread that comes
 * back on time has no late send, one that comes back a millisecond late has one, of that lag.
 */
class SendLagTest
{
    private static final long LINK_BPS = 100_000_000L;
    private static final long LATE_NS = 1_000_000;

    private static final class CountingIo implements PacketIo
    {
        int sent;

        public int poll(final InboundHandler handler, final int limit)
        {
            return 0;
        }

        public boolean send(final int destinationHost, final DirectBuffer buffer, final int offset, final int length)
        {
            sent++;
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
    }

    /**
     * The paper's window with a timeout far beyond the test, so that every time the transport asks for is its pacer's.
     */
    private static final TransportConfiguration CONFIGURATION =
        TransportConfiguration.PAPER.withTimeoutNs(1_000_000_000L);

    private final long[] now = { 1_000_000 };
    private final CountingIo io = new CountingIo();
    private final HostTransport transport = new HostTransport(CONFIGURATION, 0, LINK_BPS,
        HostTransport.PACING_LEAD_NS, 42, io, () -> now[0], new TransportListener()
        {
        }, false);

    /**
     * Poll at each time the transport asks for until the first window is out, once late if asked.
     */
    private void sendWindow(final int lateAtPoll)
    {
        transport.send(1, 100_000);
        transport.poll();
        for (int poll = 0; io.sent < CONFIGURATION.initialWindowPackets() && poll < 100; poll++)
        {
            now[0] = transport.nextDeadlineNs() + (poll == lateAtPoll ? LATE_NS : 0);
            transport.poll();
        }
        assertEquals(CONFIGURATION.initialWindowPackets(), io.sent);
    }

    @Test
    void aTransportPolledWhenItAskedSendsOnTime()
    {
        sendWindow(-1);
        final TransportCounters counters = transport.counters();
        assertTrue(counters.pacerWaits() > 0, "the window of " + io.sent + " packets waited for the pacer");
        assertEquals(0, counters.lateSends());
        assertEquals(0, counters.longestSendLagNs());
        assertEquals(0, counters.sendLagNs());
    }

    @Test
    void aTransportPolledAMillisecondLateCountsOneLateSendOfThatLag()
    {
        sendWindow(0);
        final TransportCounters counters = transport.counters();
        assertEquals(1, counters.lateSends());
        assertEquals(LATE_NS, counters.longestSendLagNs());
        assertEquals(LATE_NS, counters.sendLagNs());
    }
}
