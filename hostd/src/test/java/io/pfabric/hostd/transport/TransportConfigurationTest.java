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

    @Test
    void onAnEmulatedFabricTheTimeoutCoversAFullBufferDrainingAtTheLinkRate()
    {
        final TransportConfiguration derived =
            TransportConfiguration.forEmulatedFabric(100_000_000L, 80_000, 36_000, 1_000_000);
        assertEquals(80_000 + 2_880_000 + 720_000, derived.timeoutNs(),
            "36 KB take 2.88 ms at 100 Mb/s; three measured base RTTs, 240 us, are not two frames' time on the wire");
        assertEquals(TransportConfiguration.forFabric(100_000_000L, 80_000, 36_000).maxWindowPackets(),
            derived.maxWindowPackets(), "the window is the paper's");
    }

    @Test
    void onAnEmulatedFabricTheTimeoutIsNeverShorterThanASchedulerSlice()
    {
        final TransportConfiguration derived =
            TransportConfiguration.forEmulatedFabric(1_000_000_000L, 90_000, 36_000, 333_333);
        assertEquals(1_500_000, derived.timeoutNs(),
            "90 us and 1.25 x 288 us of drain at 1 Gb/s are 450 us, less than a thread may wait for its core");
        assertEquals(270_000, TransportConfiguration.forFabric(1_000_000_000L, 90_000, 36_000).timeoutNs(),
            "the paper's own rule is untouched");
    }

    @Test
    void onAKernelOfLongTicksTheTimeoutIsNeverShorterThanTwoOfThem()
    {
        assertEquals(8_000_000, TransportConfiguration.forEmulatedFabric(100_000_000L, 80_000, 36_000, 4_000_000)
            .timeoutNs(), "HZ=250: a thread may wait a tick for each thread ahead of it");
        assertEquals(2_000_000, TransportConfiguration.forEmulatedFabric(1_000_000_000L, 90_000, 36_000, 1_000_000)
            .timeoutNs(), "HZ=1000: the slice ends at the second tick");
    }

    @Test
    void onAnEmulatedFabricWithALongBaseRttTheTimeoutStaysThreeOfThem()
    {
        assertEquals(15_000_000, TransportConfiguration.forEmulatedFabric(1_000_000_000L, 5_000_000, 36_000, 4_000_000)
            .timeoutNs());
    }
}
