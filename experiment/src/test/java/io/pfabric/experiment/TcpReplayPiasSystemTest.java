package io.pfabric.experiment;

import io.pfabric.common.os.Commands;
import io.pfabric.common.topology.HostSpec;
import io.pfabric.common.topology.Topologies;
import io.pfabric.common.topology.Topology;
import io.pfabric.hostd.transport.PiasThresholds;
import io.pfabric.hostd.workload.FctLogReader;
import io.pfabric.hostd.workload.FctLogWriter;
import io.pfabric.hostd.workload.WorkloadTrace;
import io.pfabric.switchd.SwitchDaemon;
import io.pfabric.switchd.SwitchPort;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PIAS on kernel TCP: h1 replays three 200 KB flows to h2 through switchd's pias queues with thresholds of 20,000
 * and 100,000 bytes. Every flow completes and is logged as pias; the switch forwards frames of all three DSCPs; and
 * since the kernel tags a byte with the socket's TOS of the moment it transmits it, never earlier than the replay set
 * it, no more than each flow's first 20,009 bytes (its 8-byte length and the 20,001 bytes sent before the first
 * threshold is passed) leave with DSCP 0, no more than its first 100,009 with DSCP 0 or 1, and at least its last
 * 99,999 with DSCP 2.
 */
@Timeout(180)
@RequiresNetns
class TcpReplayPiasSystemTest
{
    private static final long FLOW_BYTES = 200_000;
    private static final int FLOWS = 3;
    private static final long HEADER_ALLOWANCE = 100;

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
    void aPiasHostsFlowsLeaveWithTheDscpOfTheBytesTheyHaveWritten(@TempDir final Path directory) throws Exception
    {
        final String prefix = "pfp" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
        final Topology topology = Topologies.star(2, "", 100_000_000L, "droptail");
        fabric = NetnsFabric.build(topology, prefix);
        switches = FabricRunner.start(fabric, new SwitchDaemon.Overrides(-1, "pias:3:22500", 225_000));
        final PiasThresholds thresholds = PiasThresholds.of(20_000, 100_000);
        final List<InetAddress> addresses = new ArrayList<>();
        final List<String> names = new ArrayList<>();
        for (final HostSpec host : topology.hosts())
        {
            addresses.add(InetAddress.getByName(host.ipText()));
            names.add(host.name());
            Commands.inNamespace(fabric.namespace(host.name()), "sysctl", "-qw", "net.ipv4.tcp_ecn=1");
        }
        final List<WorkloadTrace.FlowSpec> trace = new ArrayList<>();
        for (int i = 0; i < FLOWS; i++)
        {
            trace.add(new WorkloadTrace.FlowSpec(i, 0, 1, FLOW_BYTES, i * 200_000_000L));
        }
        final CountDownLatch serving = new CountDownLatch(2);
        final CountDownLatch replayed = new CountDownLatch(2);
        final List<CompletableFuture<Integer>> hosts = new ArrayList<>();
        for (int host = 0; host < 2; host++)
        {
            final int self = host;
            final CompletableFuture<Integer> done = new CompletableFuture<>();
            hosts.add(done);
            final Thread thread = new Thread(() ->
            {
                int completed = -1;
                try (TcpReplay replay = TcpReplay.start(fabric.namespace(names.get(self)), addresses, self,
                    thresholds);
                    FctLogWriter log = new FctLogWriter(directory.resolve("fct-pias-h" + (self + 1) + ".csv")))
                {
                    serving.countDown();
                    serving.await(30, TimeUnit.SECONDS);
                    replay.connect(1);
                    completed = replay.replay(trace, names, log, TimeUnit.SECONDS.toNanos(30));
                    replayed.countDown();
                    replayed.await(120, TimeUnit.SECONDS);
                }
                catch (final Exception ex)
                {
                    serving.countDown();
                    replayed.countDown();
                    done.completeExceptionally(ex);
                    return;
                }
                done.complete(completed);
            }, "pias-host-" + self);
            thread.start();
        }
        assertEquals(FLOWS, hosts.get(0).get(150, TimeUnit.SECONDS));
        assertEquals(0, hosts.get(1).get(150, TimeUnit.SECONDS));
        final List<FctLogReader.Row> rows = FctLogReader.read(directory.resolve("fct-pias-h1.csv"));
        assertEquals(FLOWS, rows.size());
        for (final FctLogReader.Row row : rows)
        {
            assertTrue(row.isComplete(), row::toString);
            assertEquals("pias", row.scheme());
        }

        final SwitchDaemon daemon = switches.daemon("s1");
        final long[] frames = new long[3];
        final long[] bytes = new long[3];
        for (int i = 0; i < daemon.portCount(); i++)
        {
            final SwitchPort port = daemon.port(i);
            for (int dscp = 0; dscp < 3; dscp++)
            {
                frames[dscp] += port.transmittedFrames(dscp);
                bytes[dscp] += port.transmittedBytes(dscp);
            }
        }
        assertTrue(frames[0] > 0 && frames[1] > 0 && frames[2] > 0, () -> "frames by DSCP " + List.of(frames[0],
            frames[1], frames[2]));
        final long payloadAtMost0 = bytes[0] - HEADER_ALLOWANCE * frames[0];
        final long payloadAtMost01 = bytes[0] + bytes[1] - HEADER_ALLOWANCE * (frames[0] + frames[1]);
        assertTrue(payloadAtMost0 <= FLOWS * (20_001 + 8L) + FLOWS, () -> "DSCP 0: " + bytes[0] + " B in " +
            frames[0] + " frames");
        assertTrue(payloadAtMost01 <= FLOWS * (100_001 + 8L) + FLOWS, () -> "DSCP 0-1: " + (bytes[0] + bytes[1]) +
            " B in " + (frames[0] + frames[1]) + " frames");
        assertTrue(bytes[2] >= FLOWS * (FLOW_BYTES - 100_001), () -> "DSCP 2: " + bytes[2] + " B");
    }
}
