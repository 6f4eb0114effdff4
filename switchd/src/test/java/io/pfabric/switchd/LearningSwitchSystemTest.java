package io.pfabric.switchd;

import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The topology-free learning mode: hosts resolve each other with their own ARP broadcasts, which the switch floods,
 * then it switches by the addresses it learned.
 */
@Timeout(120)
@RequiresNetns
class LearningSwitchSystemTest
{
    private StarFabric fabric;

    @AfterEach
    void tearDown() throws Exception
    {
        if (null != fabric)
        {
            fabric.close();
        }
    }

    @Test
    void floodsWhatItDoesNotKnowAndSwitchesWhatItLearned() throws Exception
    {
        fabric = new StarFabric(3, 100_000_000L, DisciplineKind.PFABRIC, true);
        final String ping = Namespaces.exec(fabric.host(1), "ping", "-c", "5", "-i", "0.2", "-W", "2", "10.0.0.2");
        assertTrue(ping.contains("5 received"), ping);
        assertTrue(fabric.port(1).counters().get(PortCounter.FLOODED_FRAMES) >= 1, "h1's ARP request was flooded");
        final long toBystander = fabric.port(3).counters().get(PortCounter.TRANSMITTED_FRAMES);
        assertTrue(toBystander >= 1, "the bystander h3 saw the flooded ARP request");
        assertTrue(toBystander <= 3, "but none of the ten pings: " + toBystander);
        assertTrue(fabric.port(2).counters().get(PortCounter.TRANSMITTED_FRAMES) >= 6, "h2 got the ARP and the pings");
    }
}
