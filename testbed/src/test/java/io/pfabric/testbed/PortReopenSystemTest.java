package io.pfabric.testbed;

import io.pfabric.common.os.Commands;
import io.pfabric.common.os.KernelTcpTransfer;
import io.pfabric.common.packet.FramePort;
import io.pfabric.common.packet.PacketPort;
import io.pfabric.common.packet.UmemFramePool;
import io.pfabric.common.packet.XdpPort;
import io.pfabric.common.topology.LinkSpec;
import io.pfabric.common.topology.PortIo;
import io.pfabric.common.topology.PortRef;
import io.pfabric.common.topology.Topologies;
import io.pfabric.common.topology.Topology;
import io.pfabric.hostd.HostDaemon;
import io.pfabric.hostd.io.PacketIos;
import io.pfabric.switchd.PortCounter;
import io.pfabric.switchd.SwitchDaemon;
import io.pfabric.switchd.SwitchPort;
import io.pfabric.testsupport.Await;
import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A switch port whose interface is deleted while the switch runs ({@code ip link del}) and later created again under
 * the same name (a new veth, a new interface index): the switch sees the link gone, ping stops crossing it, and once
 * the new interface is up the switch opens the port again on it, for AF_PACKET and AF_XDP ports alike (an AF_XDP
 * port's program attached to the new interface); ping and a kernel TCP transfer cross again, and no XDP program is
 * left on the interfaces when the switch stops. And a leaf-spine link deleted and created again while hostd hosts
 * exchange messages: both switches lose the port, the leaf sprays around it, both open it again, the leaf uses it
 * again, and every message arrives once and intact.
 * <p>
 * The messages exchanged while the link is deleted may all have arrived before the switches notice: at 100 Mb/s the
 * rest of the exchange takes a few hundred milliseconds, and deleting the link through {@code ip} and the switches'
 * next check of their ports can take longer. So a second exchange runs while the link is gone, and the leaf must spray
 * it around the link.
 */
@Timeout(240)
@RequiresNetns
class PortReopenSystemTest
{
    private static final long RATE_BPS = 100_000_000L;
    private static final int TRANSFER_LENGTH = 1_000_000;
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final long BASE_RTT_NS = 1_000_000L;

    private final ExecutorService threads = Executors.newCachedThreadPool();
    private NetnsFabric fabric;
    private FabricRunner switches;
    private HostFabric hosts;

    @AfterEach
    void tearDown() throws Exception
    {
        try
        {
            if (null != hosts)
            {
                hosts.close();
            }
            if (null != switches)
            {
                switches.close();
            }
        }
        finally
        {
            threads.shutdownNow();
            if (null != fabric)
            {
                fabric.close();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(PortIo.class)
    void aPortWhoseInterfaceIsDeletedAndCreatedAgainCarriesTrafficAgain(final PortIo io) throws Exception
    {
        reopens(io, 2, "shared UMEM");
    }

    /**
     * The AF_XDP port whose socket was the shared UMEM's first (port p1, host h1's): the kernel lets no socket share a
     * UMEM whose first socket's interface went, so the port opened again has a UMEM of its own and says why, and
     * carries traffic. Its link's state is not checked: in this fabric the switch's end of h1's veth reports no
     * carrier from the start whatever the port's I/O, while frames cross it.
     */
    @Test
    void theFirstAfXdpPortOfTheSharedUmemOpenedAgainHasOneOfItsOwnAndCarriesTrafficAgain() throws Exception
    {
        final Topology topology = Topologies.star(2, "", RATE_BPS, "pfabric");
        fabric = NetnsFabric.build(topology,
            "pfx" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000)));
        switches = FabricRunner.start(fabric, SwitchDaemon.Overrides.NONE.withIo(PortIo.XDP));
        final SwitchPort toH1 = switches.daemon("s1").port(0);
        final UmemFramePool pool = switches.daemon("s1").forwarder().sharedUmem().pool();
        final XdpPort first = assertInstanceOf(XdpPort.class, toH1.io());
        assertEquals("shared UMEM", first.umemDescription());
        crosses(11);

        fabric.deleteHostLink("h1");
        Await.await(() -> 1 == toH1.counters().get(PortCounter.INTERFACE_LOSSES), PATIENCE,
            "the switch saw the interface gone");
        fabric.createHostLink("h1");
        Await.await(() -> 1 == toH1.counters().get(PortCounter.REOPENS), PATIENCE,
            "the switch opened the port again on the new interface");
        final XdpPort second = assertInstanceOf(XdpPort.class, toH1.io());
        assertNotEquals(first.interfaceIndex(), second.interfaceIndex(), "bound to the new interface");
        assertTrue(second.umemDescription().startsWith("own UMEM, as sharing the switch's failed ("),
            second.umemDescription());
        crosses(12);

        switches.close();
        switches = null;
        assertEquals(pool.frameCount(), pool.freeCount(), "frames in the shared UMEM's pool after the switch closed");
        assertEquals(0, pool.doubleReturns(), "frames given back twice");
        for (final String port : List.of("p1", "p2"))
        {
            final String link = Commands.inNamespace(fabric.namespace("s1"), "ip", "link", "show",
                topology.switchNamed("s1").port(port).interfaceName());
            assertFalse(link.contains("xdp"), "an XDP program is left on the interface: " + link);
        }
    }

    /**
     * Delete host {@code host}'s link (the switch's port {@code host - 1}), create it again, and check that traffic
     * crosses before and after; an AF_XDP port is on the switch's shared UMEM first and on the one
     * {@code umemAfterwards} begins with after, and the shared UMEM's pool holds every frame once the switch closed.
     */
    private void reopens(final PortIo io, final int host, final String umemAfterwards) throws Exception
    {
        final Topology topology = Topologies.star(2, "", RATE_BPS, "pfabric");
        fabric = NetnsFabric.build(topology,
            "pfx" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000)));
        switches = FabricRunner.start(fabric, SwitchDaemon.Overrides.NONE.withIo(io));
        final SwitchPort lostPort = switches.daemon("s1").port(host - 1);
        final Class<?> kind = PortIo.XDP == io ? XdpPort.class : PacketPort.class;
        final FramePort first = lostPort.io();
        assertInstanceOf(kind, first);
        final UmemFramePool pool = PortIo.XDP == io ? switches.daemon("s1").forwarder().sharedUmem().pool() : null;
        if (first instanceof XdpPort xdp)
        {
            assertEquals("shared UMEM", xdp.umemDescription());
        }
        final int firstIndex = first.interfaceIndex();
        crosses(11);

        fabric.deleteHostLink("h" + host);
        Await.await(() -> !lostPort.linkUp(), PATIENCE, "the switch saw the link gone");
        assertEquals(1, lostPort.counters().get(PortCounter.LINK_DOWNS));
        assertEquals(1, lostPort.counters().get(PortCounter.INTERFACE_LOSSES));
        final IOException lost = assertThrows(IOException.class, () -> Commands.inNamespace(
            fabric.namespace("h" + (3 - host)), "ping", "-c", "2", "-i", "0.2", "-W", "1", ip("h" + host)),
            "ping stops crossing");
        assertTrue(lost.getMessage().contains("0 received"), lost.getMessage());

        fabric.createHostLink("h" + host);
        Await.await(() -> lostPort.linkUp() && 1 == lostPort.counters().get(PortCounter.REOPENS), PATIENCE,
            "the switch opened the port again on the new interface");
        final FramePort second = lostPort.io();
        assertInstanceOf(kind, second);
        if (second instanceof XdpPort xdp)
        {
            assertTrue(xdp.umemDescription().startsWith(umemAfterwards), xdp.umemDescription());
        }
        assertNotEquals(firstIndex, second.interfaceIndex(), "bound to the new interface");
        assertEquals(1, lostPort.counters().get(PortCounter.LINK_UPS));
        final String reopened = Commands.inNamespace(fabric.namespace("s1"), "ip", "link", "show",
            second.interfaceName());
        assertEquals(PortIo.XDP == io, reopened.contains("xdp"), "an XDP program on the new interface: " + reopened);
        crosses(12);

        switches.close();
        switches = null;
        if (null != pool)
        {
            assertEquals(pool.frameCount(), pool.freeCount(), "frames in the shared UMEM's pool after the switch closed");
            assertEquals(0, pool.doubleReturns(), "frames given back twice");
        }
        for (final String port : List.of("p1", "p2"))
        {
            final String link = Commands.inNamespace(fabric.namespace("s1"), "ip", "link", "show",
                topology.switchNamed("s1").port(port).interfaceName());
            assertFalse(link.contains("xdp"), "an XDP program is left on the interface: " + link);
        }
    }

    @ParameterizedTest
    @EnumSource(PortIo.class)
    void aLeafSpineLinkDeletedIsSprayedAroundAndUsedAgainOnceCreatedAgain(final PortIo io) throws Exception
    {
        final Topology topology = Topologies.leafSpine(2, 2, 2, "", RATE_BPS, "pfabric");
        hosts = HostFabric.start(topology, "pfx", RATE_BPS, BASE_RTT_NS, PacketIos.UDP,
            SwitchDaemon.Overrides.NONE.withIo(io));
        final PortRef leafEnd = new PortRef("l1", "u1");
        final LinkSpec link = topology.links().stream()
            .filter(l -> l.a().equals(leafEnd) || l.b().equals(leafEnd)).findFirst().orElseThrow();
        final PortRef spineEnd = link.a().equals(leafEnd) ? link.b() : link.a();
        final SwitchPort leafPort = hosts.port("l1", "u1");
        final SwitchPort spinePort = hosts.port(spineEnd.switchName(), spineEnd.portName());
        final SwitchPort otherUplink = hosts.port("l1", "u2");
        final HostDaemon h1 = hosts.host("h1");
        final SplittableRandom random = new SplittableRandom(23);

        exchangeAcrossTheSpines(random, () ->
        {
            Await.await(() -> h1.counters().acksReceived() >= 200, PATIENCE, "the exchange got going");
            try
            {
                hosts.fabric().deleteLink(link);
            }
            catch (final IOException ex)
            {
                throw new AssertionError(ex);
            }
            Await.await(() -> !leafPort.linkUp() && !spinePort.linkUp(), PATIENCE, "both ends saw the link gone");
        });
        exchangeAcrossTheSpines(random, () -> { });
        for (final SwitchPort end : List.of(leafPort, spinePort))
        {
            assertEquals(1, end.counters().get(PortCounter.INTERFACE_LOSSES), end.name());
            assertEquals(1, end.counters().get(PortCounter.LINK_DOWNS), end.name());
        }
        assertTrue(leafPort.counters().get(PortCounter.REROUTED_AROUND_DOWN_LINK) > 0, "sprayed around the link");

        hosts.fabric().createLink(link);
        Await.await(() -> leafPort.linkUp() && spinePort.linkUp() &&
            1 == leafPort.counters().get(PortCounter.REOPENS) && 1 == spinePort.counters().get(PortCounter.REOPENS),
            PATIENCE, "both ends opened the port again on the new interfaces");
        final long viaLinkBefore = leafPort.counters().get(PortCounter.TRANSMITTED_FRAMES);
        final long viaOtherBefore = otherUplink.counters().get(PortCounter.TRANSMITTED_FRAMES);
        exchangeAcrossTheSpines(random, () -> { });
        final long viaLink = leafPort.counters().get(PortCounter.TRANSMITTED_FRAMES) - viaLinkBefore;
        final long viaOther = otherUplink.counters().get(PortCounter.TRANSMITTED_FRAMES) - viaOtherBefore;
        assertTrue(viaLink > viaOther / 4, "the link carries its share again: " + viaLink + " against " + viaOther);
    }

    /**
     * Each host sends a message of 2-4 MB to the host of the same position on the other leaf; waits for all, checks
     * each arrived once and intact.
     */
    private void exchangeAcrossTheSpines(final SplittableRandom random, final Runnable whileRunning) throws Exception
    {
        final List<HostFabric.Sent> sends = new ArrayList<>();
        for (final String[] pair : new String[][]{ { "h1", "h3" }, { "h2", "h4" }, { "h3", "h1" }, { "h4", "h2" } })
        {
            final byte[] payload = new byte[2_000_000 + random.nextInt(2_000_000)];
            random.nextBytes(payload);
            sends.add(hosts.send(pair[0], pair[1], payload));
        }
        whileRunning.run();
        hosts.assertDeliveredOnceIntact(sends, 120);
    }

    private void crosses(final int seed) throws Exception
    {
        final String ping = Commands.inNamespace(fabric.namespace("h1"), "ping", "-c", "3", "-i", "0.2", "-W", "2",
            ip("h2"));
        assertTrue(ping.contains("3 received"), ping);
        final String[] reports = KernelTcpTransfer.run(fabric.namespace("h2"), fabric.namespace("h1"), ip("h2"), 5001,
            TRANSFER_LENGTH, seed, threads);
        assertEquals(reports[0], reports[1], "bytes and SHA-256 sent and received");
        assertTrue(reports[0].startsWith(TRANSFER_LENGTH + " "), reports[0]);
    }

    private String ip(final String host)
    {
        return fabric.topology().host(host).ipText();
    }
}
