package io.pfabric.testbed.control;

import io.pfabric.common.control.ControlMode;
import io.pfabric.common.topology.Topologies;
import io.pfabric.common.topology.Topology;
import io.pfabric.controllerd.ControllerConfiguration;
import io.pfabric.controllerd.ControllerDaemon;
import io.pfabric.hostd.HostDaemon;
import io.pfabric.hostd.control.HostControl;
import io.pfabric.hostd.control.HostControlOptions;
import io.pfabric.hostd.io.PacketIos;
import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.transport.TransportListener;
import io.pfabric.switchd.ForwarderCounter;
import io.pfabric.switchd.SwitchDaemon;
import io.pfabric.dataplane.queue.QueueCounter;
import io.pfabric.testbed.FabricRunner;
import io.pfabric.testbed.NetnsFabric;
import io.pfabric.testsupport.Await;
import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SYN and ASY end to end on the namespace testbed (root): a star of 4 namespaces through switchd at 100 Mb/s (SYN
 * also at 10 Mb/s), hostd over kernel UDP on h1-h3, controllerd in h4's namespace, the control messages crossing
 * switchd like any other UDP.
 * All-to-all messages among h1-h3 arrive intact; under SYN every data packet leaves on a grant, under ASY no granted
 * row or column exceeds the link rate. The switch's queue high-water marks are printed, with the longest overshoot of
 * a 1 ms park as a gauge of the machine's stalls.
 */
@Timeout(300)
@RequiresNetns
class ControlledNetnsFabricSystemTest
{
    private static final int HOSTS = 3;
    private static final long RATE_BPS = 100_000_000L;
    private static final long SLOW_RATE_BPS = 10_000_000L;
    private static final long BASE_RTT_NS_AT_100_MBPS = 1_000_000L;
    private static final long SILENCE_NS = 3_000_000_000L;
    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(30);
    private static final byte[] KEY = "controlled netns fabric test key".getBytes(StandardCharsets.UTF_8);

    private final List<HostDaemon> hosts = new ArrayList<>();
    private final Map<String, Map<Long, byte[]>> received = new ConcurrentHashMap<>();
    private NetnsFabric fabric;
    private FabricRunner switches;
    private ControllerDaemon controller;
    private StallMeter stalls;

    private void start(final ControlMode mode) throws Exception
    {
        start(mode, RATE_BPS);
    }

    private void start(final ControlMode mode, final long rateBps) throws Exception
    {
        final String prefix = "pfc" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
        final Topology topology = Topologies.star(HOSTS + 1, "", rateBps, "pfabric");
        fabric = NetnsFabric.build(topology, prefix);
        switches = FabricRunner.start(fabric, SwitchDaemon.Overrides.NONE);
        stalls = new StallMeter();
        controller = ControllerDaemon.start(new ControllerConfiguration.Context()
            .mode(mode)
            .topology(topology)
            .key(KEY)
            .listen(new InetSocketAddress(ControllerConfiguration.DEFAULT_CONTROLLER_PORT))
            .namespace(fabric.namespace("h" + (HOSTS + 1))));
        final InetSocketAddress controllerAddress = new InetSocketAddress(
            topology.hosts().get(HOSTS).ipText(), ControllerConfiguration.DEFAULT_CONTROLLER_PORT);
        final TransportConfiguration configuration = TransportConfiguration.forFabric(rateBps,
            BASE_RTT_NS_AT_100_MBPS * (RATE_BPS / rateBps), 36_000);
        for (int i = 1; i <= HOSTS; i++)
        {
            final String name = "h" + i;
            final Map<Long, byte[]> messages = new ConcurrentHashMap<>();
            received.put(name, messages);
            final TransportListener listener = MessageRecorder.into(messages);
            final HostControlOptions control = HostControlOptions.of(mode, controllerAddress,
                new InetSocketAddress(ControllerConfiguration.DEFAULT_HOST_CONTROL_PORT), KEY).withSilenceNs(SILENCE_NS);
            hosts.add(HostDaemon.start(topology, name,
                new HostDaemon.Options(configuration, rateBps, PacketIos.wireOverheadLength(PacketIos.UDP),
                    fabric.namespace(name), true, control),
                PacketIos.factory(PacketIos.UDP), listener));
        }
    }

    @AfterEach
    void tearDown() throws Exception
    {
        try
        {
            if (null != stalls)
            {
                stalls.close();
            }
            hosts.forEach(HostDaemon::close);
            if (null != controller)
            {
                controller.close();
            }
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

    private void allToAllArrivesIntact(final long seed) throws Exception
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<CompletableFuture<FlowRecord>> sends = new ArrayList<>();
        final List<byte[]> payloads = new ArrayList<>();
        final List<String> destinations = new ArrayList<>();
        for (int from = 0; from < HOSTS; from++)
        {
            for (int to = 0; to < HOSTS; to++)
            {
                if (from != to)
                {
                    final byte[] payload = new byte[100_000 + random.nextInt(200_000)];
                    random.nextBytes(payload);
                    payloads.add(payload);
                    destinations.add("h" + (to + 1));
                    sends.add(hosts.get(from).send("h" + (to + 1), payload));
                }
            }
        }
        CompletableFuture.allOf(sends.toArray(new CompletableFuture<?>[0])).get(180, TimeUnit.SECONDS);
        for (int i = 0; i < sends.size(); i++)
        {
            final long flowId = sends.get(i).join().flowId();
            final Map<Long, byte[]> messages = received.get(destinations.get(i));
            Await.await(() -> messages.containsKey(flowId), DELIVERY_TIMEOUT,
                "flow " + i + " was delivered whole to " + destinations.get(i));
            assertArrayEquals(payloads.get(i), messages.get(flowId), "flow " + i + " intact");
        }
    }

    private String report()
    {
        final StringBuilder text = new StringBuilder("controller: ").append(controller.summary());
        for (final HostDaemon host : hosts)
        {
            final HostControl control = host.control();
            text.append(String.format("%n%s: sent %d, held back %d, timeouts %d; accepted %d, fallbacks %d, longest " +
                "silence %.1f ms%s", host.host().name(), host.counters().packetsSent(),
                host.counters().packetsHeldBack(), host.counters().timeouts(), control.inbox().accepted(),
                control.fallbacks(), control.longestSilenceNs() / 1e6,
                null == control.syn() ? "" : String.format("; grants received %d, used %d, expired %d, lost %d",
                    control.syn().grantsReceived(), control.syn().grantsUsed(), control.syn().grantsExpired(),
                    control.ledger().lostGrants())));
        }
        final SwitchDaemon s1 = switches.daemon("s1");
        for (int port = 0; port < s1.portCount(); port++)
        {
            text.append(String.format("%ns1 port %s queue high water: %d frames, %d bytes", s1.port(port).name(),
                s1.port(port).queue().counters().get(QueueCounter.HIGH_WATER_PACKETS),
                s1.port(port).queue().counters().get(QueueCounter.HIGH_WATER_BYTES)));
        }
        text.append(String.format("%nswitch's longest gap between duty cycles %.1f ms; longest 1 ms park overshot by " +
            "%.1f ms", s1.forwarder().counters().get(ForwarderCounter.LONGEST_DUTY_CYCLE_GAP_NS) / 1e6,
            stalls.longestOvershootNs() / 1e6));
        return text.toString();
    }

    private String synRunsEndToEnd(final long rateBps) throws Exception
    {
        start(ControlMode.SYN, rateBps);
        final long startNs = System.nanoTime();
        allToAllArrivesIntact(21);
        final String report = String.format("SYN all-to-all in namespaces at %d Mb/s: %.0f ms%n", rateBps / 1_000_000,
            (System.nanoTime() - startNs) / 1e6) + report();
        System.out.println(report);
        for (final HostDaemon host : hosts)
        {
            assertEquals(0, host.control().fallbacks(), report);
            assertEquals(host.counters().packetsSent(), host.control().syn().grantsUsed(),
                "every data packet left on a grant\n" + report);
        }
        return report;
    }

    @Test
    void synRunsEndToEndThroughSwitchd() throws Exception
    {
        synRunsEndToEnd(RATE_BPS);
    }

    @Test
    void synAt10MbpsRunsEndToEndThroughSwitchd() throws Exception
    {
        synRunsEndToEnd(SLOW_RATE_BPS);
    }

    @Test
    void asyRunsEndToEndThroughSwitchdWithoutOversubscribingALink() throws Exception
    {
        start(ControlMode.ASY);
        final long startNs = System.nanoTime();
        allToAllArrivesIntact(22);
        final String report = String.format("ASY all-to-all in namespaces: %.0f ms%n", (System.nanoTime() - startNs) /
            1e6) + report();
        System.out.println(report);
        assertTrue(controller.counters().maxRowRateBps() <= RATE_BPS, report);
        assertTrue(controller.counters().maxColumnRateBps() <= RATE_BPS, report);
        assertTrue(controller.counters().normalizations() > 0, report);
        for (final HostDaemon host : hosts)
        {
            assertEquals(0, host.control().fallbacks(), report);
        }
    }
}
