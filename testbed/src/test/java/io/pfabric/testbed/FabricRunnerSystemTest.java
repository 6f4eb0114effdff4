package io.pfabric.testbed;

import io.pfabric.common.os.Commands;
import io.pfabric.common.topology.Addresses;
import io.pfabric.common.topology.Topologies;
import io.pfabric.common.topology.Topology;
import io.pfabric.switchd.SwitchDaemon;
import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A star of two hosts in namespaces: switches {@link FabricRunner#open opened} answer nothing (the hosts' ping finds
 * no path) until {@link FabricRunner#startForwarding()}, after which the same ping is answered; forwarding starts
 * once only.
 */
@Timeout(60)
@RequiresNetns
class FabricRunnerSystemTest
{
    private static final String PREFIX = "pfrun";

    private NetnsFabric fabric;

    @AfterEach
    void tearDown() throws IOException
    {
        if (null != fabric)
        {
            fabric.close();
        }
        NetnsFabric.removeLeftovers(PREFIX);
    }

    @Test
    void openedSwitchesForwardNothingUntilForwardingStarts() throws Exception
    {
        final Topology topology = Topologies.star(2, "", 100_000_000L, "pfabric");
        NetnsFabric.removeLeftovers(PREFIX);
        fabric = NetnsFabric.build(topology, PREFIX);
        final String h1 = fabric.namespace("h1");
        final String h2 = Addresses.formatIpv4(topology.hosts().get(1).ip());
        try (FabricRunner runner = FabricRunner.open(fabric, SwitchDaemon.Overrides.NONE))
        {
            final IOException unanswered = assertThrows(IOException.class,
                () -> Commands.inNamespace(h1, "ping", "-c", "2", "-i", "0.2", "-W", "1", h2));
            assertTrue(unanswered.getMessage().contains("exit 1"), unanswered.getMessage());

            runner.startForwarding();
            final String answered = Commands.inNamespace(h1, "ping", "-c", "3", "-i", "0.2", "-W", "2", h2);
            assertTrue(answered.contains("3 received"), answered);
            assertThrows(IllegalStateException.class, runner::startForwarding);
        }
    }
}
