package io.pfabric.experiment;

import io.pfabric.common.topology.Topologies;
import io.pfabric.common.topology.Topology;
import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.hostd.HostDaemon;
import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A run is marked by its invariants on a namespace fabric, under conditions whose outcome does not depend on the
 * machine's speed: switch ports paced at 1 Tb/s, which no forwarder sending a frame per system call can keep while
 * two hosts' windows queue at one port, are marked {@code broken:port-rate}; one-segment flows sent one after another
 * at 100 Mb/s, which never leave a frame waiting at a port or a host, are marked {@code ok}.
 */
@Timeout(120)
@RequiresNetns
class FidelitySystemTest
{
    private static final long PATIENCE_SEC = 60;

    private final Teardown teardown = new Teardown();

    @AfterEach
    void tearDown()
    {
        teardown.closeAll();
    }

    private static String prefix()
    {
        return "pffs" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
    }

    private List<HostDaemon> hosts(final Topology topology, final long rateBitsPerSec, final EmulatedFabric fabric)
        throws Exception
    {
        final PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        final HostdReplay replay = new HostdReplay(topology, rateBitsPerSec, quiet, new ProgressBar(quiet, 1),
            teardown, () -> false);
        return replay.startHosts(fabric, replay.configuration("pfabric", TimeUnit.MILLISECONDS.toNanos(1)), null);
    }

    @Test
    void portsPacedAboveWhatTheForwarderCanSendAreMarkedBrokenWhileBacklogged() throws Exception
    {
        final long rateBitsPerSec = 1_000_000_000_000L;
        final Topology topology = Topologies.star(3, "", rateBitsPerSec, "pfabric");
        final EmulatedFabric fabric = teardown.add(new NetnsTestbed(topology, prefix()).up(DisciplineKind.PFABRIC));
        final List<HostDaemon> hosts = hosts(topology, rateBitsPerSec, fabric);
        final FidelityMonitor monitor = teardown.add(FidelityMonitor.start(topology, fabric.switches(),
            () -> hosts, text -> { }));
        final List<CompletableFuture<FlowRecord>> flows = new ArrayList<>();
        flows.add(hosts.get(0).send("h3", 2_000_000));
        flows.add(hosts.get(1).send("h3", 2_000_000));
        for (final CompletableFuture<FlowRecord> flow : flows)
        {
            flow.get(PATIENCE_SEC, TimeUnit.SECONDS);
        }
        final Fidelity fidelity = monitor.finish();
        assertTrue(fidelity.backloggedNs() > 0, "the incast left frames waiting at h3's port: " + fidelity.figures());
        assertTrue(fidelity.broken().contains("port-rate"), fidelity.label() + ": " + fidelity.figures());
        assertTrue(fidelity.label().startsWith("broken:"), fidelity.label());
    }

    @Test
    void oneSegmentFlowsOneAfterAnotherAreMarkedOk() throws Exception
    {
        final long rateBitsPerSec = 100_000_000L;
        final Topology topology = Topologies.star(3, "", rateBitsPerSec, "pfabric");
        final EmulatedFabric fabric = teardown.add(new NetnsTestbed(topology, prefix()).up(DisciplineKind.PFABRIC));
        final List<HostDaemon> hosts = hosts(topology, rateBitsPerSec, fabric);
        final FidelityMonitor monitor = teardown.add(FidelityMonitor.start(topology, fabric.switches(),
            () -> hosts, text -> { }));
        for (int i = 0; i < 20; i++)
        {
            hosts.get(i % 2).send("h3", 1_000).get(PATIENCE_SEC, TimeUnit.SECONDS);
        }
        final Fidelity fidelity = monitor.finish();
        assertEquals(0, fidelity.backloggedNs(), fidelity.figures());
        assertEquals(0, fidelity.lateSends(), fidelity.figures());
        assertEquals(Fidelity.OK, fidelity.label(), fidelity.figures());
    }
}
