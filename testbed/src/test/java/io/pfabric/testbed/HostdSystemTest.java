package io.pfabric.testbed;

import io.pfabric.hostd.HostDaemon;
import io.pfabric.common.os.Commands;
import io.pfabric.common.topology.Topologies;
import io.pfabric.common.topology.Topology;
import io.pfabric.hostd.io.PacketIos;
import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.transport.TransportListener;
import io.pfabric.switchd.SwitchDaemon;
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
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hosts in network namespaces running the transport over kernel UDP through switchd at an emulated 100 Mb/s.
 */
@Timeout(180)
@RequiresNetns
class HostdSystemTest
{
    private static final long RATE_BPS = 100_000_000L;
    private static final long BASE_RTT_NS = 1_000_000L;
    private static final Duration PROGRESS_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(10);

    private final List<HostDaemon> hosts = new ArrayList<>();
    private final Map<String, Map<Long, byte[]>> received = new ConcurrentHashMap<>();
    private NetnsFabric fabric;
    private FabricRunner switches;

    private void start(final int hostCount) throws Exception
    {
        start(hostCount, PacketIos.UDP);
    }

    private void start(final int hostCount, final String io) throws Exception
    {
        start(hostCount, io, false);
    }

    private void start(final int hostCount, final String io, final boolean sharedThread) throws Exception
    {
        final String prefix = "pfh" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
        final Topology topology = Topologies.star(hostCount, "", RATE_BPS, "pfabric");
        fabric = NetnsFabric.build(topology, prefix);
        switches = FabricRunner.start(fabric, SwitchDaemon.Overrides.NONE);
        final TransportConfiguration configuration =
            TransportConfiguration.forFabric(RATE_BPS, BASE_RTT_NS, 36_000);
        final List<String> names = new ArrayList<>();
        for (int i = 1; i <= hostCount; i++)
        {
            names.add("h" + i);
        }
        final Function<String, HostDaemon.Options> options = name -> new HostDaemon.Options(configuration, RATE_BPS,
            PacketIos.wireOverheadLength(io), fabric.namespace(name), true);
        hosts.addAll(HostDaemon.startAll(topology, names, options, io, this::recorder, sharedThread));
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
            }
        };
    }

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

    private static byte[] randomBytes(final SplittableRandom random, final int length)
    {
        final byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    @Test
    void allToAllAmongFourHostsArrivesIntact() throws Exception
    {
        start(4);
        sendAllToAllAndCheckIntact();
    }

    @Test
    void oneThreadServesFourHostsInTheirOwnNamespacesAllToAllIntact() throws Exception
    {
        start(4, PacketIos.UDP, true);
        for (final HostDaemon host : hosts)
        {
            assertEquals(hosts.get(0).threadId(), host.threadId(), host.host().name() + " on the shared thread");
            assertEquals(List.of(host.host().ipText()), addressesIn(host.host().name()),
                "each host's address exists only in its own namespace, where its socket is bound");
        }
        sendAllToAllAndCheckIntact();
    }

    @Test
    void oneThreadServesThreeHostsOnPacketSocketsAllToAllIntact() throws Exception
    {
        start(3, PacketIos.RAW, true);
        assertEquals(hosts.get(0).threadId(), hosts.get(2).threadId(), "h1 and h3 on the shared thread");
        sendAllToAllAndCheckIntact();
    }

    @Test
    void aHostClosedOnASharedThreadLeavesTheOthersServed() throws Exception
    {
        start(3, PacketIos.UDP, true);
        final CompletableFuture<FlowRecord> doomed = hosts.get(0).send("h2", 50_000_000L);
        Await.await(() -> hosts.get(0).counters().acksReceived() >= 100, PROGRESS_TIMEOUT,
            "the long flow got going (h1 received 100 acknowledgements)");
        hosts.get(0).close();
        assertTrue(doomed.isCompletedExceptionally(), "the closed host's flow is reported incomplete");
        final byte[] payload = randomBytes(new SplittableRandom(21), 400_000);
        final FlowRecord record = hosts.get(1).send("h3", payload).get(60, TimeUnit.SECONDS);
        assertArrayEquals(payload, delivered("h3", record.flowId()), "the thread still serves h2 and h3");
    }

    private List<String> addressesIn(final String host) throws Exception
    {
        final List<String> addresses = new ArrayList<>();
        for (final String line : Commands.inNamespace(fabric.namespace(host), "ip", "-4", "-o", "addr", "show",
            "scope", "global").split("\n"))
        {
            final String[] fields = line.trim().split("\\s+");
            if (fields.length > 3)
            {
                addresses.add(fields[3].substring(0, fields[3].indexOf('/')));
            }
        }
        return addresses;
    }

    private void sendAllToAllAndCheckIntact() throws Exception
    {
        final SplittableRandom random = new SplittableRandom(3);
        final List<CompletableFuture<FlowRecord>> sends = new ArrayList<>();
        final List<byte[]> payloads = new ArrayList<>();
        final List<String> destinations = new ArrayList<>();
        for (int from = 0; from < hosts.size(); from++)
        {
            for (int to = 0; to < hosts.size(); to++)
            {
                if (from != to)
                {
                    final byte[] payload = randomBytes(random, 50_000 + random.nextInt(150_000));
                    payloads.add(payload);
                    destinations.add("h" + (to + 1));
                    sends.add(hosts.get(from).send("h" + (to + 1), payload));
                }
            }
        }
        CompletableFuture.allOf(sends.toArray(new CompletableFuture<?>[0])).get(120, TimeUnit.SECONDS);
        for (int i = 0; i < sends.size(); i++)
        {
            final FlowRecord record = sends.get(i).join();
            final byte[] arrived = delivered(destinations.get(i), record.flowId());
            assertArrayEquals(payloads.get(i), arrived, "flow " + i + " intact");
        }
    }

    @Test
    void aShortFlowStartedDuringALongFlowToTheSameReceiverFinishesFirst() throws Exception
    {
        start(3);
        final CompletableFuture<FlowRecord> longFlow = hosts.get(0).send("h3", 20_000_000L);
        Await.await(() -> hosts.get(0).counters().acksReceived() >= 100, PROGRESS_TIMEOUT,
            "the long flow got going (h1 received 100 acknowledgements)");
        final CompletableFuture<FlowRecord> shortFlow = hosts.get(1).send("h3", 100_000L);
        final FlowRecord shortRecord = shortFlow.get(60, TimeUnit.SECONDS);
        assertTrue(!longFlow.isDone(), "the long flow is still running when the short one is done");
        final FlowRecord longRecord = longFlow.get(120, TimeUnit.SECONDS);
        assertTrue(shortRecord.endNs() < longRecord.endNs());
    }

    @Test
    void aHostKilledMidFlowLeavesTheOthersUnaffected() throws Exception
    {
        start(4);
        final CompletableFuture<FlowRecord> doomed = hosts.get(0).send("h2", 50_000_000L);
        Await.await(() -> hosts.get(0).counters().acksReceived() >= 100, PROGRESS_TIMEOUT,
            "the long flow got going (h1 received 100 acknowledgements)");
        hosts.get(0).close();
        assertTrue(doomed.isCompletedExceptionally(), "the killed host's flow is reported incomplete");
        final SplittableRandom random = new SplittableRandom(8);
        final byte[] payload = randomBytes(random, 500_000);
        final FlowRecord record = hosts.get(2).send("h4", payload).get(60, TimeUnit.SECONDS);
        assertArrayEquals(payload, delivered("h4", record.flowId()));
        final byte[] toOrphan = randomBytes(random, 200_000);
        final FlowRecord orphanRecord = hosts.get(3).send("h2", toOrphan).get(60, TimeUnit.SECONDS);
        assertArrayEquals(toOrphan, delivered("h2", orphanRecord.flowId()),
            "the host the dead one was sending to still receives");
        assertEquals(0, hosts.get(2).counters().malformedPackets());
    }

    @Test
    void rawIpv4ProtocolModeDeliversIntactAndTheKernelSendsNoUnreachables() throws Exception
    {
        start(2, PacketIos.RAW);
        final long unreachablesBefore = icmpOutDestUnreachs("h2");
        final byte[] payload = randomBytes(new SplittableRandom(12), 300_000);
        final FlowRecord record = hosts.get(0).send("h2", payload).get(60, TimeUnit.SECONDS);
        assertArrayEquals(payload, delivered("h2", record.flowId()));
        final byte[] back = randomBytes(new SplittableRandom(13), 20_000);
        final FlowRecord backRecord = hosts.get(1).send("h1", back).get(60, TimeUnit.SECONDS);
        assertArrayEquals(back, delivered("h1", backRecord.flowId()));
        assertEquals(unreachablesBefore, icmpOutDestUnreachs("h2"), "the kernel answered protocol 253 with ICMP");
    }

    private long icmpOutDestUnreachs(final String host) throws Exception
    {
        final String[] lines = Commands.inNamespace(fabric.namespace(host), "cat", "/proc/net/snmp").split("\n");
        for (int i = 0; i + 1 < lines.length; i++)
        {
            if (lines[i].startsWith("Icmp:") && lines[i + 1].startsWith("Icmp:"))
            {
                final List<String> names = List.of(lines[i].trim().split("\\s+"));
                final String[] values = lines[i + 1].trim().split("\\s+");
                return Long.parseLong(values[names.indexOf("OutDestUnreachs")]);
            }
        }
        throw new AssertionError("no Icmp counters in /proc/net/snmp");
    }

    private byte[] delivered(final String host, final long flowId)
    {
        final Map<Long, byte[]> messages = received.get(host);
        Await.await(() -> messages.containsKey(flowId), DELIVERY_TIMEOUT,
            "flow " + Long.toHexString(flowId) + " was delivered whole to " + host);
        return messages.get(flowId);
    }
}
