package io.pfabric.testbed;

import io.pfabric.common.os.Commands;
import io.pfabric.common.os.KernelTcpTransfer;
import io.pfabric.common.topology.Multipath;
import io.pfabric.common.topology.SwitchSpec;
import io.pfabric.common.topology.Topologies;
import io.pfabric.common.topology.Topology;
import io.pfabric.switchd.PortCounter;
import io.pfabric.switchd.SwitchDaemon;
import io.pfabric.switchd.SwitchPort;
import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Kernel traffic across a 2-leaf, 2-host-per-leaf, 2-spine fabric of switches in namespaces: it crosses two switches
 * and is sprayed over both uplinks, or, with ECMP, a flow keeps to one.
 */
@Timeout(180)
@RequiresNetns
class LeafSpineSystemTest
{
    private NetnsFabric fabric;
    private FabricRunner switches;

    private void buildFabric(final Multipath multipath) throws Exception
    {
        final String prefix = "pfl" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
        final Topology sprayed = Topologies.leafSpine(2, 2, 2, "", 100_000_000L, "pfabric");
        final List<SwitchSpec> switchSpecs = new ArrayList<>();
        for (final SwitchSpec sw : sprayed.switches())
        {
            switchSpecs.add(new SwitchSpec(sw.name(), multipath, sw.ports()));
        }
        fabric = NetnsFabric.build(new Topology(sprayed.hosts(), switchSpecs, sprayed.links()), prefix);
        switches = FabricRunner.start(fabric, SwitchDaemon.Overrides.NONE);
    }

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

    private String exec(final String host, final String... command) throws Exception
    {
        return Commands.inNamespace(fabric.namespace(host), command);
    }

    private long transmitted(final String switchName, final String portName)
    {
        final SwitchDaemon daemon = switches.daemon(switchName);
        for (int i = 0; i < daemon.portCount(); i++)
        {
            final SwitchPort port = daemon.port(i);
            if (port.name().equals(portName))
            {
                return port.counters().get(PortCounter.TRANSMITTED_FRAMES);
            }
        }
        throw new IllegalArgumentException(portName);
    }

    @Test
    void pingAndTcpCrossTheSpineSprayedOverBothUplinks() throws Exception
    {
        buildFabric(Multipath.SPRAY);
        final String remote = fabric.topology().host("h4").ipText();
        final String ping = exec("h1", "ping", "-c", "5", "-i", "0.2", "-W", "2", remote);
        assertTrue(ping.contains("5 received"), ping);
        transferOneMegabyte(remote);

        assertTrue(transmitted("l1", "u1") > 100, "uplink u1 of l1 carried traffic");
        assertTrue(transmitted("l1", "u2") > 100, "uplink u2 of l1 carried traffic");
    }

    @Test
    void ecmpKeepsATcpFlowOnOneUplink() throws Exception
    {
        buildFabric(Multipath.ECMP);
        final String remote = fabric.topology().host("h4").ipText();
        transferOneMegabyte(remote);

        final long u1 = transmitted("l1", "u1");
        final long u2 = transmitted("l1", "u2");
        assertTrue(Math.max(u1, u2) > 600, "the flow's data crossed one uplink: u1=" + u1 + " u2=" + u2);
        assertTrue(Math.min(u1, u2) < 10, "and not the other (ARP aside): u1=" + u1 + " u2=" + u2);
    }

    private void transferOneMegabyte(final String remote) throws Exception
    {
        final ExecutorService listener = Executors.newSingleThreadExecutor();
        try
        {
            final String[] reports = KernelTcpTransfer.run(
                fabric.namespace("h4"), fabric.namespace("h1"), remote, 5001, 1_000_000, 11, listener);
            final String sent = reports[0];
            assertEquals(sent, reports[1]);
            assertTrue(sent.startsWith("1000000 "), sent);
        }
        finally
        {
            listener.shutdownNow();
        }
    }
}
