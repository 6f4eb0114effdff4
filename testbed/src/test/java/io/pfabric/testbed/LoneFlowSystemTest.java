package io.pfabric.testbed;

import io.pfabric.common.os.SchedulerTick;
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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The fabric a user builds by hand, as the README's hostd block does: star:2 in namespaces, its switch paced at the
 * line rate, a host on a thread of its own at each end (the {@code pfabric hostd} way, not the experiments' shared
 * thread), each host's window and timeout from the base RTT it measures at start, as {@code pfabric hostd} derives
 * them. Ten 1 MB flows one after another at 100 Mb/s on the otherwise idle path: none times out, and every byte of
 * every flow arrives once. h2 sends the last acknowledgement before it hands the message over, on its own thread, so
 * a flow's record can be complete at h1 before h2's delivery: the test waits for the delivery.
 * <p>
 * It runs in a JVM set up as the launcher sets up the daemons' (testbed/pom.xml, execution {@code lone-flow}): ZGC and
 * C1 alone. Under G1 a young pause mid-run, and under C2 a deoptimization, each stopped a host's transport thread for
 * longer than the timeout (hostd/README.md, 'A lone flow').
 * <p>
 * An idle path needs idle cores: on a machine whose run queue holds as many other threads as it has cores, a thread
 * that wakes may wait milliseconds for one, the path is silent for that long and a timeout is the transport's right
 * answer; there the test is skipped, saying so.
 */
@Timeout(300)
@RequiresNetns
class LoneFlowSystemTest
{
    private static final int FLOWS = 10;
    private static final int RTT_SAMPLES = 5;
    /**
     * How long each one-segment flow may take; the first waits for h2's socket and both ends' ARP.
     */
    private static final long RTT_PATIENCE_NS = 10_000_000_000L;
    private static final long BUFFER_LENGTH = 36_000;
    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(10);

    private final List<HostDaemon> hosts = new ArrayList<>();
    private final Map<Long, byte[]> received = new ConcurrentHashMap<>();
    private final Map<Long, AtomicInteger> deliveries = new ConcurrentHashMap<>();
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

    /**
     * Threads ready to run besides the caller, the mean of ten looks at the kernel's count a tenth of a second apart.
     */
    private static double otherRunnableThreads() throws IOException, InterruptedException
    {
        double sum = 0;
        for (int i = 0; i < 10; i++)
        {
            for (final String line : Files.readAllLines(Path.of("/proc/stat")))
            {
                if (line.startsWith("procs_running "))
                {
                    sum += Integer.parseInt(line.substring("procs_running ".length()).trim()) - 1;
                }
            }
            Thread.sleep(100);
        }
        return sum / 10;
    }

    @Test
    void tenLoneFlowsInARowNeverTimeOutAndArriveOnce() throws Exception
    {
        final int cores = Runtime.getRuntime().availableProcessors();
        final double busy = otherRunnableThreads();
        assumeTrue(busy < cores, "the machine is busy (" + busy + " other threads ready to run on " + cores +
            " cores): no path on it is idle");
        final long rateBps = 100_000_000L;
        final int sizeBytes = 1_000_000;
        final Topology topology = Topologies.star(2, "", rateBps, "pfabric");
        fabric = NetnsFabric.build(topology,
            "pfh" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000)));
        switches = FabricRunner.start(fabric, SwitchDaemon.Overrides.NONE);
        final TransportListener recorder = new TransportListener()
        {
            public void onMessage(final int sourceHost, final long flowId, final DirectBuffer message,
                final int length)
            {
                final byte[] bytes = new byte[length];
                message.getBytes(0, bytes);
                received.put(flowId, bytes);
                deliveries.computeIfAbsent(flowId, id -> new AtomicInteger()).incrementAndGet();
            }
        };
        final TransportConfiguration untilMeasured =
            TransportConfiguration.forEmulatedFabric(rateBps, 100_000, BUFFER_LENGTH, SchedulerTick.periodNs());
        for (final String name : List.of("h2", "h1"))
        {
            hosts.add(HostDaemon.start(topology, name, new HostDaemon.Options(untilMeasured, rateBps,
                PacketIos.wireOverheadLength(PacketIos.UDP), fabric.namespace(name), true),
                PacketIos.factory(PacketIos.UDP), recorder));
        }
        final HostDaemon sender = hosts.get(1);
        final long baseRttNs = sender.measureBaseRttNs("h2", RTT_SAMPLES, RTT_PATIENCE_NS);
        sender.reconfigure(
            TransportConfiguration.forEmulatedFabric(rateBps, baseRttNs, BUFFER_LENGTH, SchedulerTick.periodNs()));

        final long duplicatesBeforeFlows = hosts.get(0).counters().duplicatePackets();
        final SplittableRandom random = new SplittableRandom(33);
        for (int i = 0; i < FLOWS; i++)
        {
            final byte[] payload = new byte[sizeBytes];
            random.nextBytes(payload);
            final FlowRecord record = sender.send("h2", payload).get(60, TimeUnit.SECONDS);
            assertEquals(0, record.timeouts(), "flow " + i + " of " + FLOWS + " timed out on an idle path " +
                "(base RTT measured " + baseRttNs / 1e3 + " us)");
            assertEquals(0, record.retransmittedBytes(), "flow " + i + ": nothing sent twice");
            final int flow = i;
            Await.await(() -> deliveries.containsKey(record.flowId()), DELIVERY_TIMEOUT,
                () -> "flow " + flow + " was delivered whole to h2");
            assertArrayEquals(payload, received.get(record.flowId()), "flow " + i + " intact");
            assertEquals(1, deliveries.get(record.flowId()).get(), "flow " + i + " delivered once");
        }
        assertEquals(duplicatesBeforeFlows, hosts.get(0).counters().duplicatePackets(),
            "h2 received no packet of the ten flows twice");
    }
}
