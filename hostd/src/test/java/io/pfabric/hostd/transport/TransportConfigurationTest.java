package io.pfabric.hostd.transport;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TransportConfigurationTest
{
    @Test
    void thePapersFabricGivesThePapersSettings()
    {
        final TransportConfiguration derived = TransportConfiguration.forFabric(10_000_000_000L, 14_400, 36_000);
        assertEquals(TransportConfiguration.PAPER.initialWindowPackets(), derived.initialWindowPackets());
        assertEquals(TransportConfiguration.PAPER.maxWindowPackets(), derived.maxWindowPackets());
    }

    @Test
    void theWindowStartsAtOneBandwidthDelayProduct()
    {
        final TransportConfiguration derived = TransportConfiguration.forFabric(100_000_000L, 1_200_000, 36_000);
        assertEquals(10, derived.initialWindowPackets(), "100 Mb/s x 1.2 ms = 15,000 B = 10 packets");
        assertEquals(23, derived.maxWindowPackets(), "a 36 KB buffer less one packet");
        assertEquals(3_600_000, derived.timeoutNs());
    }

    @Test
    void aBandwidthDelayProductAboveTheBufferRaisesTheCapToIt()
    {
        final TransportConfiguration derived = TransportConfiguration.forFabric(1_000_000_000L, 800_000, 36_000);
        assertEquals(67, derived.initialWindowPackets(), "1 Gb/s x 0.8 ms = 100,000 B, 66.7 packets, rounded up");
        assertEquals(67, derived.maxWindowPackets());
    }
}
