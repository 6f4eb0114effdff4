package io.pfabric.bench.forwarding;

import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The drop sink's count: the XDP drops of every receive queue in a veth's {@code ethtool -S}, nothing else.
 */
class IngressDropTest
{
    @Test
    void sumsTheXdpDropsOfEveryReceiveQueue() throws IOException
    {
        final String text = """
            NIC statistics:
                 peer_ifindex: 5
                 rx_queue_0_xdp_packets: 900
                 rx_queue_0_xdp_drops: 700
                 rx_queue_1_xdp_drops: 42
                 tx_queue_0_xdp_xmit: 3
            """;
        assertEquals(742, IngressDrop.xdpDrops(text));
    }

    @Test
    void refusesStatisticsWithoutXdpDrops()
    {
        assertThrows(IOException.class, () -> IngressDrop.xdpDrops("NIC statistics:\n     peer_ifindex: 5\n"));
    }
}
