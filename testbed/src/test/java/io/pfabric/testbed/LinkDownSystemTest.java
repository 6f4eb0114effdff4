package io.pfabric.testbed;

import io.pfabric.common.os.Commands;
import io.pfabric.common.topology.LinkSpec;
import io.pfabric.common.topology.PortRef;
import io.pfabric.common.topology.Topologies;
import io.pfabric.common.topology.Topology;
import io.pfabric.hostd.HostDaemon;
import io.pfabric.switchd.PortCounter;
import io.pfabric.switchd.SwitchPort;
import io.pfabric.testsupport.Await;
import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A leaf-spine link set down and up again (`ip link set ... down`) while hosts on different leaves exchange
 * checksummed messages: both switches on the link notice (the leaf's interface is down, the spine's has lost carrier),
 * the leaf sprays around the link while it is down, uses it again once it is up, and every message arrives once and
 * intact.
 * <p>
 * The messages exchanged while the link goes down may all have arrived before the switches notice: at 100 Mb/s the
 * rest of the exchange takes a few hundred milliseconds, and setting the link down through {@code ip} and the switches'
 * next check of their links can take longer. So a second exchange runs while the link is down, and the leaf must spray
 * it around the link.
 */
@Timeout(240)
@RequiresNetns
class LinkDownSystemTest
{
    private static final long RATE_BPS = 100_000_000L;
    private static final long BASE_RTT_NS = 1_000_000L;
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final long QUEUED_FRAMES_BOUND = 64;

    private final SplittableRandom random = new SplittableRandom(17);
    private HostFabric fabric;

    @AfterEach
    void tearDown() throws Exception
    {
        if (null != fabric)
        {
            fabric.close();
        }
    }

    /**
     * Each host sends a message of 1-3 MB to the host of the same position on the other leaf; waits for all, checks
     * each arrived once and intact.
     */
    private void exchangeAcrossTheSpines(final Runnable whileRunning) throws Exception
    {
        final List<HostFabric.Sent> sends = new ArrayList<>();
        for (final String[] pair : new String[][]{ { "h1", "h3" }, { "h2", "h4" }, { "h3", "h1" }, { "h4", "h2" } })
        {
            final byte[] payload = new byte[1_000_000 + random.nextInt(2_000_000)];
            random.nextBytes(payload);
            sends.add(fabric.send(pair[0], pair[1], payload));
        }
        whileRunning.run();
        fabric.assertDeliveredOnceIntact(sends, 180);
    }

    @Test
    void aLeafSpineLinkSetDownIsSprayedAroundAndUsedAgainOnceUp() throws Exception
    {
        final Topology topology = Topologies.leafSpine(2, 2, 2, "", RATE_BPS, "pfabric");
        fabric = HostFabric.start(topology, "pfk", RATE_BPS, BASE_RTT_NS);
        final HostDaemon h1 = fabric.host("h1");

        final PortRef leafEnd = new PortRef("l1", "u1");
        final LinkSpec link = topology.links().stream()
            .filter(l -> l.a().equals(leafEnd) || l.b().equals(leafEnd)).findFirst().orElseThrow();
        final PortRef spineEnd = link.a().equals(leafEnd) ? link.b() : link.a();
        final String leafInterface = topology.switchNamed("l1").port("u1").interfaceName();
        final SwitchPort leafPort = fabric.port("l1", "u1");
        final SwitchPort spinePort = fabric.port(spineEnd.switchName(), spineEnd.portName());
        final SwitchPort otherUplink = fabric.port("l1", "u2");
        final long[] transmittedWhenDown = new long[1];

        exchangeAcrossTheSpines(() ->
        {
            Await.await(() -> h1.counters().acksReceived() >= 200, PATIENCE, "the exchange got going");
            try
            {
                Commands.inNamespace(fabric.fabric().namespace("l1"), "ip", "link", "set", leafInterface, "down");
            }
            catch (final Exception ex)
            {
                throw new AssertionError(ex);
            }
            Await.await(() -> !leafPort.linkUp() && !spinePort.linkUp(), PATIENCE,
                () -> "both ends saw the link down (leaf " + leafPort.linkUp() + ", spine " + spinePort.linkUp() + ")");
            transmittedWhenDown[0] = leafPort.counters().get(PortCounter.TRANSMITTED_FRAMES);
        });
        exchangeAcrossTheSpines(() -> { });
        assertEquals(1, leafPort.counters().get(PortCounter.LINK_DOWNS));
        assertEquals(1, spinePort.counters().get(PortCounter.LINK_DOWNS));
        assertTrue(leafPort.counters().get(PortCounter.REROUTED_AROUND_DOWN_LINK) > 0, "sprayed around the link");
        assertTrue(leafPort.counters().get(PortCounter.TRANSMITTED_FRAMES) - transmittedWhenDown[0] <
            QUEUED_FRAMES_BOUND, "only what was queued for it left by the down link");

        Commands.inNamespace(fabric.fabric().namespace("l1"), "ip", "link", "set", leafInterface, "up");
        Await.await(() -> leafPort.linkUp() && spinePort.linkUp(), PATIENCE, "both ends saw the link up again");
        final long transmittedWhenUp = leafPort.counters().get(PortCounter.TRANSMITTED_FRAMES);
        final long otherWhenUp = otherUplink.counters().get(PortCounter.TRANSMITTED_FRAMES);
        exchangeAcrossTheSpines(() -> { });
        assertEquals(1, leafPort.counters().get(PortCounter.LINK_UPS));
        final long viaLink = leafPort.counters().get(PortCounter.TRANSMITTED_FRAMES) - transmittedWhenUp;
        final long viaOther = otherUplink.counters().get(PortCounter.TRANSMITTED_FRAMES) - otherWhenUp;
        assertTrue(viaLink > viaOther / 4, "the link carries its share again: " + viaLink + " against " + viaOther);
    }
}
