package io.pfabric.testbed.control;

import io.pfabric.common.control.ControlAuthenticator;
import io.pfabric.common.control.ControlMessageFlyweight;
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
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static io.pfabric.testsupport.Await.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * controllerd and hostd end to end on the unprivileged loopback fabric (switchd with VXLAN ports on 127.0.0.1, the
 * hosts' frames in the tunnels, the control sockets on 127.0.0.1 too), at an emulated 100 Mb/s: all-to-all messages
 * arrive intact under SYN (also at 10 Mb/s, where a slot is 1.4 ms) and under ASY; under SYN packets leave only on
 * grants and the hosts know the controller's slot clock, also when the control messages cross a
 * network that loses 20%, duplicates 10% and reorders them while a forger adds its own; ASY's rates never add up to
 * more than a host link; and when the controller stops mid-run the hosts fall back to pFabric (counted) and finish.
 */
@Timeout(240)
class ControlledLoopbackFabricTest
{
    private static final int HOSTS = 3;
    private static final long RATE_BPS = 100_000_000L;
    private static final long SLOW_RATE_BPS = 10_000_000L;
    private static final long BASE_RTT_NS_AT_100_MBPS = 1_000_000L;
    private static final byte[] KEY = "controlled loopback fabric test key".getBytes(StandardCharsets.UTF_8);

    /**
     * The default 50 ms of silence is shorter than the stalls of a JVM with five busy threads on two shared cores
     * (up to about 550 ms seen): the tests that must not fall back give the controller 3 s.
     */
    private static final long RELAXED_SILENCE_NS = 3_000_000_000L;
    private static final long FALLBACK_SILENCE_NS = 200_000_000L;
    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(30);

    private final List<HostDaemon> hosts = new ArrayList<>();
    private final Map<String, Map<Long, byte[]>> received = new ConcurrentHashMap<>();
    private Topology topology;
    private FabricRunner switches;
    private ControllerDaemon controller;
    private List<InetSocketAddress> controllerAddresses;
    private StallMeter stalls;
    private LossyControlRelay toHosts;
    private LossyControlRelay toController;

    private void start(final ControlMode mode, final long silenceNs) throws Exception
    {
        start(mode, silenceNs, false);
    }

    private void start(final ControlMode mode, final long silenceNs, final boolean lossy) throws Exception
    {
        start(mode, silenceNs, lossy, RATE_BPS);
    }

    private void start(final ControlMode mode, final long silenceNs, final boolean lossy, final long rateBps)
        throws Exception
    {
        final int firstPort = 20_000 + 16 * ThreadLocalRandom.current().nextInt(2_000);
        topology = Topologies.starOverUdp(HOSTS, firstPort, rateBps, "pfabric");
        switches = FabricRunner.start(topology, name -> null, SwitchDaemon.Overrides.NONE);
        stalls = new StallMeter();
        final List<InetSocketAddress> hostControl = new ArrayList<>();
        for (int i = 0; i < HOSTS; i++)
        {
            hostControl.add(new InetSocketAddress("127.0.0.1", firstPort + 2 * HOSTS + i));
        }
        List<InetSocketAddress> controllerSendsTo = hostControl;
        if (lossy)
        {
            toHosts = new LossyControlRelay(hostControl, 0.2, 0.1, forgeries());
            controllerSendsTo = new ArrayList<>();
            for (int i = 0; i < HOSTS; i++)
            {
                controllerSendsTo.add(toHosts.entry(i));
            }
        }
        controllerAddresses = controllerSendsTo;
        controller = ControllerDaemon.start(new ControllerConfiguration.Context()
            .mode(mode)
            .topology(topology)
            .key(KEY)
            .listen(new InetSocketAddress("127.0.0.1", 0))
            .hostAddresses(controllerSendsTo));
        InetSocketAddress hostsSendTo = controller.localAddress();
        if (lossy)
        {
            toController = new LossyControlRelay(List.of(controller.localAddress()), 0.2, 0.1, forgeries());
            hostsSendTo = toController.entry(0);
        }
        final TransportConfiguration configuration = TransportConfiguration.forFabric(rateBps,
            BASE_RTT_NS_AT_100_MBPS * (RATE_BPS / rateBps), 36_000);
        for (int i = 0; i < HOSTS; i++)
        {
            final String name = topology.hosts().get(i).name();
            final Map<Long, byte[]> messages = new ConcurrentHashMap<>();
            received.put(name, messages);
            final TransportListener listener = MessageRecorder.into(messages);
            final HostControlOptions control = HostControlOptions.of(mode, hostsSendTo,
                hostControl.get(i), KEY).withSilenceNs(silenceNs);
            hosts.add(HostDaemon.start(topology, name,
                new HostDaemon.Options(configuration, rateBps, PacketIos.wireOverheadLength(PacketIos.VXLAN), null,
                    true, control),
                PacketIos.factory(PacketIos.VXLAN), listener));
        }
    }

    private static List<byte[]> forgeries()
    {
        final ControlAuthenticator forgersKey =
            new ControlAuthenticator("the forger's own key, 32 bytes..".getBytes(StandardCharsets.UTF_8));
        final List<byte[]> forgeries = new ArrayList<>();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[ControlMessageFlyweight.MAX_MESSAGE_LENGTH]);
        final ControlMessageFlyweight message = new ControlMessageFlyweight();
        for (int host = 0; host < HOSTS; host++)
        {
            message.wrap(buffer, 0).start(ControlMessageFlyweight.TYPE_GRANTS, host, Long.MAX_VALUE, Long.MAX_VALUE);
            for (int slot = 0; slot < 50; slot++)
            {
                message.appendEntry((host + 1) % HOSTS, 0, 0, slot);
            }
            forgeries.add(Arrays.copyOf(buffer.byteArray(), forgersKey.sign(buffer, 0, message.bodyLength())));
            message.wrap(buffer, 0).start(ControlMessageFlyweight.TYPE_DEMAND, host, Long.MAX_VALUE, Long.MAX_VALUE);
            message.appendEntry((host + 1) % HOSTS, 0, 0, 1_000_000);
            forgeries.add(Arrays.copyOf(buffer.byteArray(), forgersKey.sign(buffer, 0, message.bodyLength())));
        }
        forgeries.add("not a control message at all".getBytes(StandardCharsets.UTF_8));
        return forgeries;
    }

    @AfterEach
    void tearDown() throws Exception
    {
        if (null != stalls)
        {
            stalls.close();
        }
        hosts.forEach(HostDaemon::close);
        if (null != toHosts)
        {
            toHosts.close();
        }
        if (null != toController)
        {
            toController.close();
        }
        if (null != controller)
        {
            controller.close();
        }
        if (null != switches)
        {
            switches.close();
        }
    }

    private void allToAllArrivesIntact(final int sizeBytes, final long seed) throws Exception
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
                    final byte[] payload = new byte[sizeBytes / 2 + random.nextInt(sizeBytes)];
                    random.nextBytes(payload);
                    payloads.add(payload);
                    destinations.add("h" + (to + 1));
                    sends.add(hosts.get(from).send("h" + (to + 1), payload));
                }
            }
        }
        CompletableFuture.allOf(sends.toArray(new CompletableFuture<?>[0])).get(120, TimeUnit.SECONDS);
        for (int i = 0; i < sends.size(); i++)
        {
            final long flowId = sends.get(i).join().flowId();
            final Map<Long, byte[]> messages = received.get(destinations.get(i));
            await(() -> messages.containsKey(flowId), DELIVERY_TIMEOUT, "flow " + flowId + " was delivered");
            assertArrayEquals(payloads.get(i), messages.get(flowId), "flow " + i + " intact");
        }
    }

    private long switchHighWater(final QueueCounter counter)
    {
        final SwitchDaemon s1 = switches.daemon("s1");
        long highWater = 0;
        for (int port = 0; port < s1.portCount(); port++)
        {
            highWater = Math.max(highWater, s1.port(port).queue().counters().get(counter));
        }
        return highWater;
    }

    private String report()
    {
        final StringBuilder text = new StringBuilder("controller: ").append(controller.summary());
        if (null != controller.failure())
        {
            text.append(" FAILED: ").append(controller.failure());
        }
        for (final HostDaemon host : hosts)
        {
            final HostControl control = host.control();
            text.append(String.format("%n%s: sent %d, held back %d, timeouts %d; accepted %d, fallbacks %d, longest silence %.1f ms%s",
                host.host().name(), host.counters().packetsSent(), host.counters().packetsHeldBack(),
                host.counters().timeouts(), control.inbox().accepted(), control.fallbacks(), control.longestSilenceNs() / 1e6,
                null == control.syn() ? "" : String.format("; grants received %d, used %d, expired %d, lost %d",
                    control.syn().grantsReceived(), control.syn().grantsUsed(), control.syn().grantsExpired(),
                    control.ledger().lostGrants())));
        }
        return text.append(String.format("%nswitch queue high water: %d frames, %d bytes; switch's longest gap " +
            "between duty cycles %.1f ms; longest 1 ms park overshot by %.1f ms",
            switchHighWater(QueueCounter.HIGH_WATER_PACKETS), switchHighWater(QueueCounter.HIGH_WATER_BYTES),
            switches.daemon("s1").forwarder().counters().get(ForwarderCounter.LONGEST_DUTY_CYCLE_GAP_NS) / 1e6,
            stalls.longestOvershootNs() / 1e6)).toString();
    }

    private String synAllToAllArrivesIntactOnGrants(final long rateBps) throws Exception
    {
        start(ControlMode.SYN, RELAXED_SILENCE_NS, false, rateBps);
        final long startNs = System.nanoTime();
        allToAllArrivesIntact(200_000, 3);
        System.out.printf("SYN all-to-all at %d Mb/s: %.0f ms%n", rateBps / 1_000_000, (System.nanoTime() - startNs) / 1e6);
        final String report = report();
        System.out.println(report);
        assertTrue(controller.counters().grantsSent() > 6 * 100, report);
        long used = 0;
        long sent = 0;
        for (final HostDaemon host : hosts)
        {
            assertEquals(0, host.control().fallbacks(), "the controller never went silent\n" + report);
            assertEquals(0, host.control().packetsAdmittedInFallback(), report);
            assertEquals(controller.slotNs(), host.control().slotClockNs(), "the host knows the slot clock\n" + report);
            used += host.control().syn().grantsUsed();
            sent += host.counters().packetsSent();
        }
        assertEquals(sent, used, "every data packet left on a grant\n" + report);
        return report;
    }

    @Test
    void underSynMessagesArriveIntactAndPacketsLeaveOnGrants() throws Exception
    {
        synAllToAllArrivesIntactOnGrants(RATE_BPS);
    }

    @Test
    void underSynAt10MbpsMessagesArriveIntactAndPacketsLeaveOnGrants() throws Exception
    {
        synAllToAllArrivesIntactOnGrants(SLOW_RATE_BPS);
    }

    @Test
    void underAsyMessagesArriveIntactAndNoHostLinkIsOversubscribed() throws Exception
    {
        start(ControlMode.ASY, RELAXED_SILENCE_NS);
        final long startNs = System.nanoTime();
        allToAllArrivesIntact(200_000, 4);
        System.out.printf("ASY all-to-all: %.0f ms%n", (System.nanoTime() - startNs) / 1e6);
        final String report = report();
        System.out.println(report);
        assertTrue(controller.counters().normalizations() > 0, report);
        assertTrue(controller.counters().maxRowRateBps() <= RATE_BPS, "no source link oversubscribed\n" + report);
        assertTrue(controller.counters().maxColumnRateBps() <= RATE_BPS,
            "no destination link oversubscribed\n" + report);
        assertTrue(controller.counters().maxRowRateBps() > RATE_BPS / 2, "rates were granted\n" + report);
        for (final HostDaemon host : hosts)
        {
            assertEquals(0, host.control().fallbacks(), report);
        }
    }

    @Test
    void synSurvivesALossyDuplicatingReorderingControlNetworkAndAForger() throws Exception
    {
        start(ControlMode.SYN, RELAXED_SILENCE_NS, true);
        toHosts.startForging();
        toController.startForging();
        allToAllArrivesIntact(100_000, 6);
        for (final HostDaemon host : hosts)
        {
            await(() -> host.control().inbox().unauthenticated() > 0, DELIVERY_TIMEOUT,
                host.host().name() + " refused a forgery");
        }
        await(() -> controller.inbox().unauthenticated() > 0, DELIVERY_TIMEOUT, "the controller refused a forgery");
        final String report = report() + String.format("%nrelays: lost %d, duplicated %d, forged %d",
            toHosts.lost() + toController.lost(), toHosts.duplicated() + toController.duplicated(),
            toHosts.forged() + toController.forged());
        System.out.println(report);
        assertTrue(toHosts.lost() > 0 && toController.lost() > 0, "the relays lost datagrams\n" + report);
        assertTrue(toHosts.duplicated() > 0, "the relay to the hosts duplicated datagrams\n" + report);
        assertTrue(controller.inbox().duplicates() > 0, "the controller refused a duplicate\n" + report);
        long grantsReceived = 0;
        for (final HostDaemon host : hosts)
        {
            grantsReceived += host.control().syn().grantsReceived();
            assertEquals(0, host.control().fallbacks(), host.host().name() + " never fell back\n" + report);
            assertEquals(host.counters().packetsSent(), host.control().syn().grantsUsed(),
                "every data packet of " + host.host().name() + " left on a genuine grant\n" + report);
        }
        assertTrue(grantsReceived <= controller.counters().grantsSent(),
            "the hosts took no more grants than the controller sent (" + grantsReceived + ")\n" + report);
    }

    @Test
    void whenTheControllerStopsMidRunTheHostsFallBackToPfabricAndFinish() throws Exception
    {
        start(ControlMode.SYN, FALLBACK_SILENCE_NS);
        final SplittableRandom random = new SplittableRandom(5);
        final byte[] payload = new byte[3_000_000];
        random.nextBytes(payload);
        final CompletableFuture<FlowRecord> flow = hosts.get(0).send("h2", payload);
        await(() -> hosts.get(0).control().syn().grantsUsed() > 100, DELIVERY_TIMEOUT, "the flow got going under SYN");
        assertFalse(flow.isDone(), "still running when the controller stops");
        controller.close();
        final FlowRecord record = flow.get(120, TimeUnit.SECONDS);
        await(() -> received.get("h2").containsKey(record.flowId()), DELIVERY_TIMEOUT, "the message was delivered");
        assertArrayEquals(payload, received.get("h2").get(record.flowId()));
        final String report = report();
        System.out.println(report);
        final HostControl control = hosts.get(0).control();
        assertTrue(control.fallback(), "in fallback\n" + report);
        assertTrue(control.fallbacks() >= 1, "counted\n" + report);
        assertTrue(control.packetsAdmittedInFallback() > 0, "the rest went as plain pFabric\n" + report);
    }

    /**
     * Close the controller, wait until every host has fallen back (and a flow running through it has finished), then
     * start a new controller on the same address and wait until every host is back under control.
     */
    private FlowRecord restartControllerAfterFallback(final ControlMode mode, final CompletableFuture<FlowRecord> flow)
        throws Exception
    {
        final InetSocketAddress listen = controller.localAddress();
        controller.close();
        for (final HostDaemon host : hosts)
        {
            await(() -> host.control().fallback(), DELIVERY_TIMEOUT, host.host().name() + " fell back after the silence");
        }
        final FlowRecord record = null == flow ? null : flow.get(120, TimeUnit.SECONDS);
        controller = ControllerDaemon.start(new ControllerConfiguration.Context()
            .mode(mode).topology(topology).key(KEY).listen(listen).hostAddresses(controllerAddresses));
        for (final HostDaemon host : hosts)
        {
            await(() -> !host.control().fallback(), DELIVERY_TIMEOUT,
                host.host().name() + " came back under the restarted controller");
        }
        return record;
    }

    @Test
    void aRestartedSynControllerTakesTheHostsBackUnderControlAndEveryPacketLeavesOnAGrant() throws Exception
    {
        start(ControlMode.SYN, RELAXED_SILENCE_NS);
        final SplittableRandom random = new SplittableRandom(6);
        final byte[] before = new byte[2_000_000];
        random.nextBytes(before);
        final CompletableFuture<FlowRecord> first = hosts.get(0).send("h2", before);
        await(() -> hosts.get(0).control().syn().grantsUsed() > 100, DELIVERY_TIMEOUT, "the flow got going under SYN");
        final FlowRecord firstRecord = restartControllerAfterFallback(ControlMode.SYN, first);
        final long sentBefore = hosts.get(2).counters().packetsSent();
        final long grantsBefore = hosts.get(2).control().syn().grantsUsed();
        final long fallbacksBefore = hosts.get(2).control().fallbacks();
        final byte[] after = new byte[2_000_000];
        random.nextBytes(after);
        final FlowRecord secondRecord = hosts.get(2).send("h2", after).get(120, TimeUnit.SECONDS);

        await(() -> received.get("h2").containsKey(secondRecord.flowId()), DELIVERY_TIMEOUT, "delivered");
        assertArrayEquals(before, received.get("h2").get(firstRecord.flowId()));
        assertArrayEquals(after, received.get("h2").get(secondRecord.flowId()));
        final String report = report();
        assertEquals(fallbacksBefore, hosts.get(2).control().fallbacks(), "no fallback after the restart\n" + report);
        assertEquals(hosts.get(2).counters().packetsSent() - sentBefore,
            hosts.get(2).control().syn().grantsUsed() - grantsBefore,
            "after the restart every data packet of h3 left on a grant of the new controller\n" + report);
        assertTrue(controller.counters().demandEntries() > 0, "the new controller took the hosts' demand\n" + report);
    }

    @Test
    void aRestartedAsyControllerTakesTheHostsBackUnderControlWithinCapacity() throws Exception
    {
        start(ControlMode.ASY, RELAXED_SILENCE_NS);
        allToAllArrivesIntact(100_000, 2);
        restartControllerAfterFallback(ControlMode.ASY, null);
        final long[] fallbacksBefore = hosts.stream().mapToLong(host -> host.control().fallbacks()).toArray();
        allToAllArrivesIntact(200_000, 4);
        final String report = report();
        assertTrue(controller.counters().normalizations() > 0, "the new controller set rates\n" + report);
        assertTrue(controller.counters().maxRowRateBps() <= RATE_BPS, "no source link oversubscribed\n" + report);
        assertTrue(controller.counters().maxColumnRateBps() <= RATE_BPS,
            "no destination link oversubscribed\n" + report);
        for (int i = 0; i < hosts.size(); i++)
        {
            assertEquals(fallbacksBefore[i], hosts.get(i).control().fallbacks(), "no fallback after the restart\n" +
                report);
        }
    }
}
