package io.pfabric.testbed;

import io.pfabric.common.os.Commands;
import io.pfabric.common.topology.LinkSpec;
import io.pfabric.common.topology.PortRef;
import io.pfabric.common.topology.Topologies;
import io.pfabric.common.topology.Topology;
import io.pfabric.hostd.HostDaemon;
import io.pfabric.hostd.io.PacketIos;
import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.transport.TransportListener;
import io.pfabric.switchd.PortCounter;
import io.pfabric.switchd.SwitchDaemon;
import io.pfabric.switchd.SwitchPort;
import io.pfabric.testsupport.Await;
import io.pfabric.testsupport.RequiresNetns;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A leaf-spine link set down and up again (`ip link set ... down`) while hosts on different leaves exchange
 * checksummed messages: both switches on the link notice (the leaf's interface is down, the spine's has lost carrier),
 * the leaf sprays around the link while it is down, uses it again once it is up, and every message arrives once and
 * intact.
 */
@Timeout(240)
@RequiresNetns
class LinkDownSystemTest
{
    private static final long RATE_BPS = 100_000_000L;
    private static final long BASE_RTT_NS = 1_000_000L;
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final long QUEUED_FRAMES_BOUND = 64;

    private final List<HostDaemon> hosts = new ArrayList<>();
    private final Map<String, Map<Long, byte[]>> received = new ConcurrentHashMap<>();
    private final Map<Long, AtomicInteger> deliveries = new ConcurrentHashMap<>();
    private final SplittableRandom random = new SplittableRandom(17);
    private NetnsFabric fabric;
    private FabricRunner switches;

    @AfterEach
    void tearDown() throws Exception
    {
        try
        {
            hosts.forEach(HostDaemon::close);
            if (null != switches)
            {
                switches.close();
            }
        }
        finally
        {
            if (null != fabric)
            {
                fabric.close();
            }
        }
    }

    private TransportListener recorder(final String host)
    {
        final Map<Long, byte[]> messages = received.computeIfAbsent(host, name -> new ConcurrentHashMap<>());
        return new TransportListener()
        {
            public void onMessage(final int sourceHost, final long flowId, final DirectBuffer message,
                final int length)
            {
                final byte[] bytes = new byte[length];
                message.getBytes(0, bytes);
                messages.put(flowId, bytes);
                deliveries.computeIfAbsent(flowId, id -> new AtomicInteger()).incrementAndGet();
            }
        };
    }

    private SwitchPort port(final String switchName, final String portName)
    {
        final SwitchDaemon daemon = switches.daemon(switchName);
        for (int i = 0; i < daemon.portCount(); i++)
        {
            if (daemon.port(i).name().equals(portName))
            {
                return daemon.port(i);
            }
        }
        throw new IllegalArgumentException(switchName + ":" + portName);
    }

    /**
     * Each host sends a message of 1-3 MB to the host of the same position on the other leaf; waits for all, checks
     * each arrived once and intact.
     */
    private void exchangeAcrossTheSpines(final Runnable whileRunning) throws Exception
    {
        final List<CompletableFuture<FlowRecord>> sends = new ArrayList<>();
        final List<byte[]> payloads = new ArrayList<>();
        final List<String> destinations = new ArrayList<>();
        final String[][] pairs = { { "h1", "h3" }, { "h2", "h4" }, { "h3", "h1" }, { "h4", "h2" } };
        for (final String[] pair : pairs)
        {
            final byte[] payload = new byte[1_000_000 + random.nextInt(2_000_000)];
            random.nextBytes(payload);
            payloads.add(payload);
            destinations.add(pair[1]);
            sends.add(hosts.get(Integer.parseInt(pair[0].substring(1)) - 1).send(pair[1], payload));
        }
        whileRunning.run();
        CompletableFuture.allOf(sends.toArray(new CompletableFuture<?>[0])).get(180, TimeUnit.SECONDS);
        for (int i = 0; i < sends.size(); i++)
        {
            final FlowRecord record = sends.get(i).join();
            assertArrayEquals(payloads.get(i), received.get(destinations.get(i)).get(record.flowId()), "intact");
            assertEquals(1, deliveries.get(record.flowId()).get(), "delivered once");
        }
    }

    @Test
    void aLeafSpineLinkSetDownIsSprayedAroundAndUsedAgainOnceUp() throws Exception
    {
        final String prefix = "pfk" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
        final Topology topology = Topologies.leafSpine(2, 2, 2, "", RATE_BPS, "pfabric");
        fabric = NetnsFabric.build(topology, prefix);
        switches = FabricRunner.start(fabric, SwitchDaemon.Overrides.NONE);
        final TransportConfiguration configuration = TransportConfiguration.forFabric(RATE_BPS, BASE_RTT_NS, 36_000);
        hosts.addAll(HostDaemon.startAll(topology, List.of("h1", "h2", "h3", "h4"),
            name -> new HostDaemon.Options(configuration, RATE_BPS, PacketIos.wireOverheadLength(PacketIos.UDP),
                fabric.namespace(name), true), PacketIos.UDP, this::recorder, true));

        final PortRef leafEnd = new PortRef("l1", "u1");
        final LinkSpec link = topology.links().stream()
            .filter(l -> l.a().equals(leafEnd) || l.b().equals(leafEnd)).findFirst().orElseThrow();
        final PortRef spineEnd = link.a().equals(leafEnd) ? link.b() : link.a();
        final String leafInterface = topology.switchNamed("l1").port("u1").interfaceName();
        final SwitchPort leafPort = port("l1", "u1");
        final SwitchPort spinePort = port(spineEnd.switchName(), spineEnd.portName());
        final SwitchPort otherUplink = port("l1", "u2");
        final long[] transmittedWhenDown = new long[1];

        exchangeAcrossTheSpines(() ->
        {
            Await.await(() -> hosts.get(0).counters().acksReceived() >= 200, PATIENCE, "the exchange got going");
            try
            {
                Commands.inNamespace(fabric.namespace("l1"), "ip", "link", "set", leafInterface, "down");
            }
            catch (final Exception ex)
            {
                throw new AssertionError(ex);
            }
            Await.await(() -> !leafPort.linkUp() && !spinePort.linkUp(), PATIENCE,
                () -> "both ends saw the link down (leaf " + leafPort.linkUp() + ", spine " + spinePort.linkUp() + ")");
            transmittedWhenDown[0] = leafPort.counters().get(PortCounter.TRANSMITTED_FRAMES);
        });
        assertEquals(1, leafPort.counters().get(PortCounter.LINK_DOWNS));
        assertEquals(1, spinePort.counters().get(PortCounter.LINK_DOWNS));
        assertTrue(leafPort.counters().get(PortCounter.REROUTED_AROUND_DOWN_LINK) > 0, "sprayed around the link");
        assertTrue(leafPort.counters().get(PortCounter.TRANSMITTED_FRAMES) - transmittedWhenDown[0] <
            QUEUED_FRAMES_BOUND, "only what was queued for it left by the down link");

        Commands.inNamespace(fabric.namespace("l1"), "ip", "link", "set", leafInterface, "up");
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
