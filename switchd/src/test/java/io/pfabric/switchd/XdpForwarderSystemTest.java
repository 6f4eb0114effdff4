package io.pfabric.switchd;

import io.pfabric.common.os.KernelTcpTransfer;
import io.pfabric.common.packet.PacketPort;
import io.pfabric.common.packet.XdpPort;
import io.pfabric.common.topology.PortIo;
import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Kernel traffic between two hosts in their own namespaces through a forwarder on AF_XDP ports in a third: the
 * switch answers ARP and carries ping and a kernel TCP transfer, and when it stops no XDP program is left on its
 * interfaces. With the topology's routes, with one AF_XDP and one AF_PACKET port, and as a learning switch.
 */
@Timeout(180)
@RequiresNetns
class XdpForwarderSystemTest
{
    private static final int TRANSFER_LENGTH = 4_000_000;

    private StarFabric fabric;

    @AfterEach
    void tearDown() throws Exception
    {
        if (null != fabric)
        {
            fabric.close();
        }
    }

    private void checkPortsAndTraffic() throws Exception
    {
        checkPortsAndTraffic(2);
    }

    private void checkPortsAndTraffic(final int xdpPorts) throws Exception
    {
        for (int host = 1; host <= xdpPorts; host++)
        {
            final XdpPort port = assertInstanceOf(XdpPort.class, fabric.port(host).io());
            assertEquals("native, copy", port.attachMode(), "veth has native XDP and no zero copy");
        }
        for (int host = xdpPorts + 1; host <= 2; host++)
        {
            assertInstanceOf(PacketPort.class, fabric.port(host).io());
        }
        final String h1 = fabric.host(1);
        final String h2 = fabric.host(2);
        final String ping = Namespaces.exec(h1, "ping", "-c", "5", "-i", "0.2", "-W", "2", "10.0.0.2");
        assertTrue(ping.contains("5 received"), ping);
        final String neighbours = Namespaces.exec(h1, "ip", "neigh", "show", "10.0.0.2");
        assertTrue(neighbours.contains(StarFabric.mac(2)), neighbours);

        final String[] reports = KernelTcpTransfer.run(h2, h1, "10.0.0.2", 5001, TRANSFER_LENGTH, 11,
            fabric.threads());
        assertEquals(reports[0], reports[1], "bytes and SHA-256 sent and received");
        assertTrue(reports[0].startsWith(TRANSFER_LENGTH + " "), reports[0]);

        fabric.stop();
        final long received = fabric.port(1).counters().get(PortCounter.RECEIVED_FRAMES) +
            fabric.port(2).counters().get(PortCounter.RECEIVED_FRAMES);
        assertTrue(received >= TRANSFER_LENGTH / 1500, "frames the AF_XDP ports received: " + received);
        for (int host = 1; host <= 2; host++)
        {
            final String link = Namespaces.exec(fabric.switchNamespace(), "ip", "link", "show",
                fabric.port(host).io().interfaceName());
            assertFalse(link.contains("xdp"), "an XDP program is left on the interface: " + link);
        }
    }

    @Test
    void aSwitchOfATopologyAnswersArpAndCarriesPingAndKernelTcp() throws Exception
    {
        fabric = new StarFabric(2, 0, DisciplineKind.PFABRIC.cliName(), false, -1, PortIo.XDP);
        checkPortsAndTraffic();
    }

    @Test
    void aSwitchWithOneAfXdpAndOneAfPacketPortCarriesPingAndKernelTcp() throws Exception
    {
        fabric = new StarFabric(2, 0, DisciplineKind.PFABRIC.cliName(), false, -1,
            List.of(PortIo.XDP, PortIo.PACKET));
        checkPortsAndTraffic(1);
    }

    @Test
    void aLearningSwitchCarriesPingAndKernelTcp() throws Exception
    {
        fabric = new StarFabric(2, 100_000_000L, DisciplineKind.PFABRIC.cliName(), true, -1, PortIo.XDP);
        checkPortsAndTraffic();
    }
}
