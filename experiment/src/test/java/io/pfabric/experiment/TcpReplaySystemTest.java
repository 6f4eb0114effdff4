package io.pfabric.experiment;

import io.pfabric.common.os.Commands;
import io.pfabric.common.topology.HostSpec;
import io.pfabric.common.topology.Topologies;
import io.pfabric.common.topology.Topology;
import io.pfabric.hostd.workload.FctLogReader;
import io.pfabric.hostd.workload.FctLogWriter;
import io.pfabric.hostd.workload.WorkloadTrace;
import io.pfabric.switchd.SwitchDaemon;
import io.pfabric.testbed.FabricRunner;
import io.pfabric.testbed.NetnsFabric;
import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The kernel-TCP baseline replays a trace among three hosts in namespaces through switchd with drop-tail queues at
 * 100 Mb/s, with the minimum RTO lowered in each host's namespace: every flow completes and is logged with scheme
 * tcp.
 */
@Timeout(180)
@RequiresNetns
class TcpReplaySystemTest
{
    private static final long HOST_TIMEOUT_S = 120;

    private NetnsFabric fabric;
    private FabricRunner switches;

    @AfterEach
    void tearDown() throws Exception
    {
        try
        {
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

    @Test
    void everyFlowOfTheTraceCompletesOverKernelTcp(@TempDir final Path directory) throws Exception
    {
        final String prefix = "pfh" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
        final Topology topology = Topologies.star(3, "", 100_000_000L, "droptail");
        fabric = NetnsFabric.build(topology, prefix);
        switches = FabricRunner.start(fabric, new SwitchDaemon.Overrides(-1, null, 225_000));
        final List<InetAddress> addresses = new ArrayList<>();
        final List<String> names = new ArrayList<>();
        for (final HostSpec host : topology.hosts())
        {
            addresses.add(InetAddress.getByName(host.ipText()));
            names.add(host.name());
            Commands.inNamespace(fabric.namespace(host.name()), "sysctl", "-qw", "net.ipv4.tcp_rto_min_us=5000");
        }
        assertEquals("5000", Commands.inNamespace(fabric.namespace("h1"), "cat",
            "/proc/sys/net/ipv4/tcp_rto_min_us").trim());

        final SplittableRandom random = new SplittableRandom(21);
        final List<WorkloadTrace.FlowSpec> trace = new ArrayList<>();
        for (int i = 0; i < 30; i++)
        {
            final int source = i % 3;
            final int destination = (source + 1 + random.nextInt(2)) % 3;
            trace.add(new WorkloadTrace.FlowSpec(i, source, destination, 1_460L * (1 + random.nextInt(100)),
                i * 20_000_000L));
        }
        final CountDownLatch serving = new CountDownLatch(3);
        final CountDownLatch replayed = new CountDownLatch(3);
        final List<CompletableFuture<Integer>> hosts = new ArrayList<>();
        for (int host = 0; host < 3; host++)
        {
            final int self = host;
            final CompletableFuture<Integer> done = new CompletableFuture<>();
            hosts.add(done);
            final Thread thread = new Thread(() ->
            {
                boolean served = false;
                boolean ended = false;
                int flowsCompleted = 0;
                try (TcpReplay replay = TcpReplay.start(fabric.namespace(names.get(self)), addresses, self);
                    FctLogWriter log = new FctLogWriter(directory.resolve("fct-tcp-h" + (self + 1) + ".csv")))
                {
                    serving.countDown();
                    served = true;
                    serving.await(30, TimeUnit.SECONDS);
                    replay.connect(2);
                    flowsCompleted = replay.replay(trace, names, log, TimeUnit.SECONDS.toNanos(30));
                    replayed.countDown();
                    ended = true;
                    // The other hosts' flows to this one may still be arriving: its server stays up until every
                    // host's replay has ended, when each of their flows has been read whole and answered.
                    if (!replayed.await(HOST_TIMEOUT_S, TimeUnit.SECONDS))
                    {
                        throw new TimeoutException("the other hosts' replays did not end in " + HOST_TIMEOUT_S + " s");
                    }
                }
                catch (final Exception ex)
                {
                    if (!served)
                    {
                        serving.countDown();
                    }
                    if (!ended)
                    {
                        replayed.countDown();
                    }
                    done.completeExceptionally(ex);
                    return;
                }
                done.complete(flowsCompleted);
            }, "tcp-host-" + self);
            thread.start();
        }
        int completed = 0;
        for (final CompletableFuture<Integer> host : hosts)
        {
            completed += host.get(HOST_TIMEOUT_S, TimeUnit.SECONDS);
        }
        assertEquals(30, completed);
        int rows = 0;
        for (int host = 1; host <= 3; host++)
        {
            for (final FctLogReader.Row row : FctLogReader.read(directory.resolve("fct-tcp-h" + host + ".csv")))
            {
                assertTrue(row.isComplete() && row.fctNs() > 0, row::toString);
                assertEquals("tcp", row.scheme());
                rows++;
            }
        }
        assertEquals(30, rows);
    }
}
