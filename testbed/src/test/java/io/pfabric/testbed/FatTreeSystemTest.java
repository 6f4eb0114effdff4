package io.pfabric.testbed;

import io.pfabric.common.os.Commands;
import io.pfabric.common.os.KernelTcpTransfer;
import io.pfabric.common.topology.TopologySpec;
import io.pfabric.switchd.PortCounter;
import io.pfabric.switchd.SwitchDaemon;
import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Kernel traffic across {@code fattree:4} (20 switches, 16 hosts) in namespaces, built as {@code testbed up --topo
 * fattree:4} builds it: ping and a TCP transfer between pods cross edge, aggregation and core switches, sprayed over
 * more than one core switch, and a ping within a pod never reaches the core.
 */
@Timeout(300)
@RequiresNetns
class FatTreeSystemTest
{
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

    private long coreFrames(final String coreName)
    {
        final SwitchDaemon daemon = switches.daemon(coreName);
        long frames = 0;
        for (int i = 0; i < daemon.portCount(); i++)
        {
            frames += daemon.port(i).counters().get(PortCounter.TRANSMITTED_FRAMES);
        }
        return frames;
    }

    private long allCoreFrames()
    {
        long frames = 0;
        for (int c = 1; c <= 4; c++)
        {
            frames += coreFrames("c" + c);
        }
        return frames;
    }

    @Test
    void trafficBetweenPodsCrossesTheCoreSprayedAndTrafficWithinAPodDoesNot() throws Exception
    {
        final String prefix = "pff" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
        fabric = NetnsFabric.build(TopologySpec.parse("fattree:4").toTopology(100_000_000L, "pfabric"), prefix);
        switches = FabricRunner.start(fabric, SwitchDaemon.Overrides.NONE);

        final String samePod = fabric.topology().host("h3").ipText();
        final String withinPod = Commands.inNamespace(fabric.namespace("h1"), "ping", "-c", "3", "-i", "0.2", "-W",
            "2", samePod);
        assertTrue(withinPod.contains("3 received"), withinPod);
        assertEquals(0, allCoreFrames(), "h1 to h3 stays in pod 1");

        final String otherPod = fabric.topology().host("h16").ipText();
        final String ping = Commands.inNamespace(fabric.namespace("h1"), "ping", "-c", "5", "-i", "0.2", "-W", "2",
            otherPod);
        assertTrue(ping.contains("5 received"), ping);
        final ExecutorService listener = Executors.newSingleThreadExecutor();
        try
        {
            final String[] reports = KernelTcpTransfer.run(
                fabric.namespace("h16"), fabric.namespace("h1"), otherPod, 5001, 1_000_000, 11, listener);
            assertEquals(reports[0], reports[1]);
            assertTrue(reports[0].startsWith("1000000 "), reports[0]);
        }
        finally
        {
            listener.shutdownNow();
        }
        int coresUsed = 0;
        for (int c = 1; c <= 4; c++)
        {
            coresUsed += coreFrames("c" + c) > 50 ? 1 : 0;
        }
        assertTrue(coresUsed >= 2, "the transfer was sprayed over several core switches: " + coresUsed);
    }
}
