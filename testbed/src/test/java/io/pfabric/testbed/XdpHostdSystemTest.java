package io.pfabric.testbed;

import io.pfabric.common.os.Commands;
import io.pfabric.common.packet.XdpPort;
import io.pfabric.common.topology.PortIo;
import io.pfabric.common.topology.Topologies;
import io.pfabric.hostd.io.PacketIos;
import io.pfabric.switchd.PortCounter;
import io.pfabric.switchd.SwitchDaemon;
import io.pfabric.switchd.SwitchPort;
import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two hostd hosts in their namespaces exchange messages of one packet, about 100 KB and a few MB through a switch
 * whose ports are AF_XDP, over each of hostd's I/Os on an interface (UDP, and IPv4 protocol 253 on packet sockets):
 * each message arrives once and intact, the switch's AF_XDP ports received and sent the flows' frames, and no XDP
 * program is left on its interfaces once it stops.
 */
@Timeout(240)
@RequiresNetns
class XdpHostdSystemTest
{
    private static final long RATE_BPS = 100_000_000L;
    private static final long BASE_RTT_NS = 1_000_000L;
    private static final int[] LENGTHS = { 1_000, 100_000, 3_000_000 };
    private static final int FULL_FRAME_PAYLOAD = 1_400;

    private HostFabric fabric;

    @AfterEach
    void tearDown() throws Exception
    {
        if (null != fabric)
        {
            fabric.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { PacketIos.UDP, PacketIos.RAW })
    void messagesOfEverySizeCrossAfXdpPortsOnceAndIntact(final String io) throws Exception
    {
        fabric = HostFabric.start(Topologies.star(2, "", RATE_BPS, "pfabric"), "pfx", RATE_BPS, BASE_RTT_NS, io,
            SwitchDaemon.Overrides.NONE.withIo(PortIo.XDP));
        final SwitchPort toH1 = fabric.port("s1", "p1");
        final SwitchPort toH2 = fabric.port("s1", "p2");
        for (final SwitchPort port : List.of(toH1, toH2))
        {
            assertInstanceOf(XdpPort.class, port.io(), port.name() + " is an AF_XDP port");
        }

        final SplittableRandom random = new SplittableRandom(31);
        final List<HostFabric.Sent> sends = new ArrayList<>();
        long toH2Bytes = 0;
        for (final int length : LENGTHS)
        {
            sends.add(fabric.send("h1", "h2", bytes(random, length)));
            sends.add(fabric.send("h2", "h1", bytes(random, length / 10)));
            toH2Bytes += length;
        }
        fabric.assertDeliveredOnceIntact(sends, 180);
        assertEquals(sends.size(), fabric.messagesDelivered(), "nothing else was delivered");

        final long leastFrames = toH2Bytes / FULL_FRAME_PAYLOAD;
        assertTrue(toH1.counters().get(PortCounter.RECEIVED_FRAMES) >= leastFrames,
            "h1's frames came in through its AF_XDP port: " + toH1.counters().get(PortCounter.RECEIVED_FRAMES));
        assertTrue(toH2.counters().get(PortCounter.TRANSMITTED_FRAMES) >= leastFrames,
            "and left through h2's: " + toH2.counters().get(PortCounter.TRANSMITTED_FRAMES));
        assertTrue(toH2.counters().get(PortCounter.RECEIVED_FRAMES) > 0, "h2's acknowledgements came in");

        fabric.stopSwitches();
        for (final String port : List.of("p1", "p2"))
        {
            final String link = Commands.inNamespace(fabric.fabric().namespace("s1"), "ip", "link", "show",
                fabric.fabric().topology().switchNamed("s1").port(port).interfaceName());
            assertFalse(link.contains("xdp"), "an XDP program is left on the interface: " + link);
        }
    }

    private static byte[] bytes(final SplittableRandom random, final int length)
    {
        final byte[] payload = new byte[length];
        random.nextBytes(payload);
        return payload;
    }
}
