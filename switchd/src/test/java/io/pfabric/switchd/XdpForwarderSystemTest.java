package io.pfabric.switchd;

import io.pfabric.common.os.KernelTcpTransfer;
import io.pfabric.common.packet.PacketPort;
import io.pfabric.common.packet.UmemFramePool;
import io.pfabric.common.packet.XdpPort;
import io.pfabric.common.topology.DisciplineSpec;
import io.pfabric.common.topology.PortIo;
import io.pfabric.common.topology.TrafficClasses;
import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.dataplane.queue.QueueCounter;
import io.pfabric.dataplane.queue.QueueDiscipline;
import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Kernel traffic between two hosts in their own namespaces through a forwarder on AF_XDP ports in a third: the
 * switch answers ARP and carries ping and a kernel TCP transfer, and when it stops no XDP program is left on its
 * interfaces. With the topology's routes, with one AF_XDP and one AF_PACKET port, and as a learning switch; and with
 * three hosts, on three AF_XDP ports and on two AF_XDP ports and one AF_PACKET port. Where two or more ports are AF_XDP
 * they share one UMEM, the transfer's frames crossed between them without a copy, and once the switch has closed the
 * UMEM's pool holds every frame, none given back twice; also when a port's queue is replaced again and again under a
 * transfer. A port in generic mode (on a macvlan) shares the UMEM with one in native mode. An ECN queue's marks on
 * such ports arrive at the receiver.
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
        checkPortsAndTraffic(xdpPorts, 2);
    }

    /**
     * Ports 1 to {@code xdpPorts} AF_XDP, the others up to {@code hosts} AF_PACKET; ping from host 1 to each other
     * host, a transfer from host 1 to host 2 and, with three hosts, one from host 3 to host 1.
     */
    private void checkPortsAndTraffic(final int xdpPorts, final int hosts) throws Exception
    {
        final boolean sharing = xdpPorts >= 2;
        for (int host = 1; host <= xdpPorts; host++)
        {
            final XdpPort port = assertInstanceOf(XdpPort.class, fabric.port(host).io());
            assertEquals("native, copy", port.attachMode(), "veth has native XDP and no zero copy");
            assertEquals(sharing ? "shared UMEM" : "own UMEM", port.umemDescription());
            assertEquals(sharing, fabric.forwarder().queuesUmemFrames(host - 1));
        }
        for (int host = xdpPorts + 1; host <= hosts; host++)
        {
            assertInstanceOf(PacketPort.class, fabric.port(host).io());
            assertFalse(fabric.forwarder().queuesUmemFrames(host - 1));
        }
        final UmemFramePool pool = sharing ? fabric.forwarder().sharedUmem().pool() : null;
        if (sharing)
        {
            assertNotNull(pool);
        }
        else
        {
            assertNull(fabric.forwarder().sharedUmem());
        }
        for (int host = 3; host <= hosts; host++)
        {
            final String ping = Namespaces.exec(fabric.host(1), "ping", "-c", "3", "-i", "0.2", "-W", "2",
                "10.0.0." + host);
            assertTrue(ping.contains("3 received"), ping);
        }
        if (hosts >= 3)
        {
            final String[] reports = KernelTcpTransfer.run(fabric.host(1), fabric.host(3), "10.0.0.1", 5003,
                TRANSFER_LENGTH, 13, fabric.threads());
            assertEquals(reports[0], reports[1], "bytes and SHA-256 sent and received, host 3 to host 1");
            assertTrue(reports[0].startsWith(TRANSFER_LENGTH + " "), reports[0]);
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
        final long withoutCopy = fabric.port(1).counters().get(PortCounter.FORWARDED_WITHOUT_COPY);
        if (sharing)
        {
            assertTrue(withoutCopy >= TRANSFER_LENGTH / 1500,
                "frames host 1 sent host 2 that crossed without a copy: " + withoutCopy);
            assertEquals(pool.frameCount(), pool.freeCount(), "frames in the pool after the switch closed");
            assertEquals(0, pool.doubleReturns(), "frames given back twice");
        }
        else
        {
            assertEquals(0, withoutCopy);
        }
        assertNoXdpProgramLeft(hosts);
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
            List.of(PortIo.XDP, PortIo.PACKET), Set.of());
        checkPortsAndTraffic(1);
    }

    @Test
    void aSwitchWithThreeAfXdpPortsSharingOneUmemCarriesPingAndKernelTcp() throws Exception
    {
        fabric = new StarFabric(3, 0, DisciplineKind.PFABRIC.cliName(), false, -1, PortIo.XDP);
        checkPortsAndTraffic(3, 3);
    }

    @Test
    void aSwitchWithTwoAfXdpPortsOnOneUmemAndOneAfPacketPortCarriesPingAndKernelTcp() throws Exception
    {
        fabric = new StarFabric(3, 0, DisciplineKind.DROPTAIL.cliName(), false, -1,
            List.of(PortIo.XDP, PortIo.XDP, PortIo.PACKET), Set.of());
        checkPortsAndTraffic(2, 3);
    }

    /**
     * A port of the shared UMEM whose queue is replaced again and again while a transfer crosses it, as
     * {@code switchctl discipline} does, by drop-tail, ECN (which marks frames, so holds copies) and pFabric in turn:
     * the frames it held move into the new queue, by their address or copied, the transfer arrives intact, and every
     * frame is back in the pool once the switch closed.
     */
    @Test
    void framesQueuedByTheirUmemAddressMoveIntoANewQueueAndAllComeBack() throws Exception
    {
        fabric = new StarFabric(2, 100_000_000L, DisciplineKind.PFABRIC.cliName(), false, -1, PortIo.XDP);
        final Forwarder forwarder = fabric.forwarder();
        final SwitchPort toH2 = fabric.port(2);
        final UmemFramePool pool = forwarder.sharedUmem().pool();
        final AtomicLong moved = new AtomicLong();
        final CompletableFuture<String[]> transfer = CompletableFuture.supplyAsync(() ->
        {
            try
            {
                return KernelTcpTransfer.run(fabric.host(2), fabric.host(1), "10.0.0.2", 5002, TRANSFER_LENGTH, 17,
                    fabric.threads());
            }
            catch (final Exception ex)
            {
                throw new CompletionException(ex);
            }
        }, fabric.threads());
        int replaced = 0;
        String[] reports = null;
        while (null == reports)
        {
            final DisciplineKind kind = switch (replaced % 3)
            {
                case 0 -> DisciplineKind.DROPTAIL;
                case 1 -> DisciplineKind.ECN;
                default -> DisciplineKind.PFABRIC;
            };
            final QueueDiscipline queue = DisciplineKind.newQueue(DisciplineSpec.parse(kind.cliName()), 0,
                toH2.queue().maxFrameLength(), toH2.queue().maxFrameLength(), TrafficClasses.DEFAULT);
            if (forwarder.offer(() ->
            {
                moved.addAndGet(toH2.queue().packetCount());
                forwarder.replaceQueue(toH2, queue);
            }))
            {
                replaced++;
            }
            try
            {
                reports = transfer.get(20, TimeUnit.MILLISECONDS);
            }
            catch (final TimeoutException ex)
            {
                assertFalse(transfer.isCompletedExceptionally());
            }
        }
        assertEquals(reports[0], reports[1], "bytes and SHA-256 sent and received");
        assertTrue(reports[0].startsWith(TRANSFER_LENGTH + " "), reports[0]);
        fabric.stop();
        assertTrue(moved.get() > 0, "frames moved into a new queue, in " + replaced + " replacements");
        assertEquals(pool.frameCount(), pool.freeCount(), "frames in the pool after the switch closed");
        assertEquals(0, pool.doubleReturns(), "frames given back twice");
    }

    /**
     * A port on a device without native XDP (a macvlan over the veth, generic mode) beside one in native mode (the
     * veth itself): both share the switch's UMEM, ping and a kernel TCP transfer cross between them, the transfer's
     * frames without a copy, and the pool holds every frame once the switch has closed.
     */
    @Test
    void aNativeAndAGenericPortShareOneUmemAndCarryPingAndKernelTcp() throws Exception
    {
        fabric = new StarFabric(2, 0, DisciplineKind.PFABRIC.cliName(), false, -1, List.of(PortIo.XDP, PortIo.XDP),
            Set.of(2));
        final XdpPort native1 = assertInstanceOf(XdpPort.class, fabric.port(1).io());
        final XdpPort generic2 = assertInstanceOf(XdpPort.class, fabric.port(2).io());
        assertEquals("native, copy", native1.attachMode());
        assertEquals("generic, copy", generic2.attachMode(), "a macvlan has no native XDP");
        assertEquals("shared UMEM", native1.umemDescription());
        assertEquals("shared UMEM", generic2.umemDescription());
        final UmemFramePool pool = fabric.forwarder().sharedUmem().pool();
        final String ping = Namespaces.exec(fabric.host(1), "ping", "-c", "5", "-i", "0.2", "-W", "2", "10.0.0.2");
        assertTrue(ping.contains("5 received"), ping);
        final String[] reports = KernelTcpTransfer.run(fabric.host(2), fabric.host(1), "10.0.0.2", 5007,
            TRANSFER_LENGTH, 29, fabric.threads());
        assertEquals(reports[0], reports[1], "bytes and SHA-256 sent and received");
        assertTrue(reports[0].startsWith(TRANSFER_LENGTH + " "), reports[0]);
        fabric.stop();
        assertTrue(fabric.port(1).counters().get(PortCounter.FORWARDED_WITHOUT_COPY) >= TRANSFER_LENGTH / 1500,
            "frames host 1 sent host 2 that crossed without a copy");
        assertEquals(pool.frameCount(), pool.freeCount(), "frames in the pool after the switch closed");
        assertEquals(0, pool.doubleReturns(), "frames given back twice");
        assertNoXdpProgramLeft(2);
    }

    /**
     * ECN marks the frames it holds, so on ports of the shared UMEM its queues hold copies: frames are received in
     * the UMEM and copied into the queue, and sent by a copy into a free UMEM frame.
     */
    @Test
    void aDisciplineThatMarksFramesQueuesCopiesOnTheSharedUmem() throws Exception
    {
        fabric = new StarFabric(2, 0, DisciplineKind.ECN.cliName(), false, -1, PortIo.XDP);
        for (int host = 1; host <= 2; host++)
        {
            final XdpPort port = assertInstanceOf(XdpPort.class, fabric.port(host).io());
            assertEquals("shared UMEM", port.umemDescription());
            assertFalse(fabric.forwarder().queuesUmemFrames(host - 1));
        }
        final UmemFramePool pool = fabric.forwarder().sharedUmem().pool();
        final String[] reports = KernelTcpTransfer.run(fabric.host(2), fabric.host(1), "10.0.0.2", 5004,
            TRANSFER_LENGTH, 19, fabric.threads());
        assertEquals(reports[0], reports[1], "bytes and SHA-256 sent and received");
        assertTrue(reports[0].startsWith(TRANSFER_LENGTH + " "), reports[0]);
        fabric.stop();
        assertEquals(0, fabric.port(1).counters().get(PortCounter.FORWARDED_WITHOUT_COPY));
        assertEquals(pool.frameCount(), pool.freeCount(), "frames in the pool after the switch closed");
        assertEquals(0, pool.doubleReturns(), "frames given back twice");
    }

    /**
     * The marks reach the wire: a kernel TCP transfer with ECN on, host 1 to host 2, through ports paced at 100 Mb/s
     * whose queues mark above K; host 2's IP stack counts as many packets arriving with Congestion Experienced
     * ({@code IpExt: InCEPkts}) as the queue at its port marked, and more than none.
     */
    @Test
    void theMarksAnEcnQueueSetsOnTheSharedUmemArriveAtTheReceiver() throws Exception
    {
        fabric = new StarFabric(2, 100_000_000L, DisciplineKind.ECN.cliName(), false, -1, PortIo.XDP);
        for (int host = 1; host <= 2; host++)
        {
            Namespaces.exec(fabric.host(host), "sysctl", "-q", "-w", "net.ipv4.tcp_ecn=1");
        }
        final long arrivedBefore = inCePackets(fabric.host(2));
        final String[] reports = KernelTcpTransfer.run(fabric.host(2), fabric.host(1), "10.0.0.2", 5006,
            TRANSFER_LENGTH, 23, fabric.threads());
        assertEquals(reports[0], reports[1], "bytes and SHA-256 sent and received");
        fabric.stop();
        final long marked = fabric.port(2).queue().counters().get(QueueCounter.ECN_MARKED_PACKETS);
        assertTrue(marked > 0, "the queue at host 2's port marked nothing");
        assertEquals(marked, inCePackets(fabric.host(2)) - arrivedBefore,
            "packets host 2 received marked Congestion Experienced, against those the queue marked");
    }

    private void assertNoXdpProgramLeft(final int hosts) throws Exception
    {
        for (int host = 1; host <= hosts; host++)
        {
            final String link = Namespaces.exec(fabric.switchNamespace(), "ip", "link", "show",
                fabric.port(host).io().interfaceName());
            assertFalse(link.contains("xdp"), "an XDP program is left on the interface: " + link);
        }
    }

    private static long inCePackets(final String namespace) throws Exception
    {
        final String[] lines = Namespaces.exec(namespace, "cat", "/proc/net/netstat").split("\n");
        for (int i = 0; i + 1 < lines.length; i++)
        {
            if (lines[i].startsWith("IpExt:") && lines[i + 1].startsWith("IpExt:"))
            {
                final List<String> names = List.of(lines[i].trim().split("\\s+"));
                return Long.parseLong(lines[i + 1].trim().split("\\s+")[names.indexOf("InCEPkts")]);
            }
        }
        throw new AssertionError("no IpExt counters in " + namespace);
    }

    @Test
    void aLearningSwitchCarriesPingAndKernelTcp() throws Exception
    {
        fabric = new StarFabric(2, 100_000_000L, DisciplineKind.PFABRIC.cliName(), true, -1, PortIo.XDP);
        checkPortsAndTraffic();
    }
}
