package io.pfabric.testbed;

import io.pfabric.common.topology.Topologies;
import io.pfabric.common.topology.Topology;
import io.pfabric.hostd.HostDaemon;
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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The switch of a 4-host namespace fabric (100 Mb/s) dies in the middle of an all-to-all exchange of checksummed
 * messages (its forwarder stops and its daemon closes: every frame it held is lost, as under kill -9) and a new one
 * starts on the same interfaces 1 s later. Every flow completes, every message arrives exactly once and intact, and
 * the outage shows as timeouts in the senders' counters.
 */
@Timeout(240)
@RequiresNetns
class SwitchRestartSystemTest
{
    private static final long RATE_BPS = 100_000_000L;
    private static final long BASE_RTT_NS = 1_000_000L;
    private static final int HOSTS = 4;
    private static final long OUTAGE_NS = 1_000_000_000L;
    private static final Duration PROGRESS_TIMEOUT = Duration.ofSeconds(30);

    private final List<HostDaemon> hosts = new ArrayList<>();
    private final Map<String, Map<Long, byte[]>> received = new ConcurrentHashMap<>();
    private final Map<String, Map<Long, AtomicInteger>> deliveries = new ConcurrentHashMap<>();
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
        final Map<Long, AtomicInteger> counts = deliveries.computeIfAbsent(host, name -> new ConcurrentHashMap<>());
        return new TransportListener()
        {
            public void onMessage(final int sourceHost, final long flowId, final DirectBuffer message,
                final int length)
            {
                final byte[] bytes = new byte[length];
                message.getBytes(0, bytes);
                messages.put(flowId, bytes);
                counts.computeIfAbsent(flowId, id -> new AtomicInteger()).incrementAndGet();
            }
        };
    }

    @Test
    void everyMessageArrivesOnceAndIntactAcrossASwitchRestart() throws Exception
    {
        final String prefix = "pfr" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
        final Topology topology = Topologies.star(HOSTS, "", RATE_BPS, "pfabric");
        fabric = NetnsFabric.build(topology, prefix);
        switches = FabricRunner.start(fabric, SwitchDaemon.Overrides.NONE);
        final TransportConfiguration configuration = TransportConfiguration.forFabric(RATE_BPS, BASE_RTT_NS, 36_000);
        final List<String> names = new ArrayList<>();
        for (int i = 1; i <= HOSTS; i++)
        {
            names.add("h" + i);
        }
        hosts.addAll(HostDaemon.startAll(topology, names, name -> new HostDaemon.Options(configuration, RATE_BPS,
            PacketIos.wireOverheadLength(PacketIos.UDP), fabric.namespace(name), true), PacketIos.UDP, this::recorder,
            true));

        final SplittableRandom random = new SplittableRandom(11);
        final List<CompletableFuture<FlowRecord>> sends = new ArrayList<>();
        final List<byte[]> payloads = new ArrayList<>();
        final List<String> destinations = new ArrayList<>();
        for (int from = 0; from < HOSTS; from++)
        {
            for (int to = 0; to < HOSTS; to++)
            {
                if (from != to)
                {
                    final byte[] payload = new byte[1_000_000 + random.nextInt(2_000_000)];
                    random.nextBytes(payload);
                    payloads.add(payload);
                    destinations.add("h" + (to + 1));
                    sends.add(hosts.get(from).send("h" + (to + 1), payload));
                }
            }
        }
        Await.await(() -> hosts.get(0).counters().acksReceived() >= 200, PROGRESS_TIMEOUT,
            "the exchange got going (h1 received 200 acknowledgements)");
        final long timeoutsBefore = hosts.stream().mapToLong(h -> h.counters().timeouts()).sum();
        switches.close();
        switches = null;
        final long diedNs = System.nanoTime();
        assertTrue(sends.stream().anyMatch(send -> !send.isDone()), "flows were in flight when the switch died");
        long waitNs;
        while ((waitNs = diedNs + OUTAGE_NS - System.nanoTime()) > 0)
        {
            LockSupport.parkNanos(waitNs);
        }
        switches = FabricRunner.start(fabric, SwitchDaemon.Overrides.NONE);

        CompletableFuture.allOf(sends.toArray(new CompletableFuture<?>[0])).get(180, TimeUnit.SECONDS);
        for (int i = 0; i < sends.size(); i++)
        {
            final FlowRecord record = sends.get(i).join();
            final String to = destinations.get(i);
            assertArrayEquals(payloads.get(i), received.get(to).get(record.flowId()), "flow " + i + " intact");
            assertEquals(1, deliveries.get(to).get(record.flowId()).get(), "flow " + i + " delivered once");
        }
        final long deliveredTotal = deliveries.values().stream().mapToLong(Map::size).sum();
        assertEquals(sends.size(), deliveredTotal, "nothing but the messages sent was delivered");
        final long timeouts = hosts.stream().mapToLong(h -> h.counters().timeouts()).sum() - timeoutsBefore;
        assertTrue(timeouts > 0, "the outage shows as timeouts: " + timeouts);
        assertTrue(sends.stream().mapToInt(send -> send.join().timeouts()).sum() > 0,
            "the flows that lived through it record their timeouts");
    }
}
