package io.pfabric.bench.forwarding;

import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class LinkCountersTest
{
    private static final String NET_DEV = """
        Inter-|   Receive                                                |  Transmit
         face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
            lo:  105186     264    0    0    0     0          0         0   105186     264    0    0    0     0       0          0
          eth0: 1524000000 1000000  0    7    0     0          0         0      6000      100    0    0    0     0       0          0
        """;

    @Test
    void readsTheReceiveAndTransmitColumnsOfTheNamedInterface() throws IOException
    {
        final LinkCounters received = LinkCounters.parse(NET_DEV, "eth0", 1, 0, 5);
        assertEquals(1_000_000, received.packets());
        assertEquals(1_524_000_000L, received.bytes());
        assertEquals(5, received.nanos());
        final LinkCounters transmitted = LinkCounters.parse(NET_DEV, "eth0", 9, 8, 5);
        assertEquals(100, transmitted.packets());
        assertEquals(6000, transmitted.bytes());
    }

    @Test
    void ratesCountTheWireOverheadOfEachFrame()
    {
        final LinkCounters before = new LinkCounters(0, 0, 0);
        final LinkCounters after = new LinkCounters(1_000, 1_500_000, 1_000_000_000L);
        assertEquals(1_000.0, after.packetsPerSecSince(before), 1e-9);
        assertEquals(8.0 * (1_500_000 + 24 * 1_000), after.wireBitsPerSecSince(before), 1e-6);
    }

    @Test
    void aMissingInterfaceIsAnError()
    {
        assertThrows(IOException.class, () -> LinkCounters.parse(NET_DEV, "eth1", 1, 0, 0));
    }
}
