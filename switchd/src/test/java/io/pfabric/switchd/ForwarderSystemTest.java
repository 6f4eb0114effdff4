package io.pfabric.switchd;

import io.pfabric.common.os.KernelTcpTransfer;
import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Kernel traffic between two hosts in their own namespaces through a forwarder on raw-socket ports in a third.
 */
@Timeout(120)
@RequiresNetns
class ForwarderSystemTest
{
    private StarFabric fabric;
    private String h1;
    private String h2;

    @BeforeEach
    void buildStarOfTwo() throws Exception
    {
        fabric = new StarFabric(2, 100_000_000L, DisciplineKind.PFABRIC);
        h1 = fabric.host(1);
        h2 = fabric.host(2);
    }

    @AfterEach
    void tearDown() throws Exception
    {
        if (null != fabric)
        {
            fabric.close();
        }
    }

    @Test
    void kernelPingCrossesTheSwitchWhichAnswersArp() throws Exception
    {
        final String output = Namespaces.exec(h1, "ping", "-c", "5", "-i", "0.2", "-W", "2", "10.0.0.2");
        assertTrue(output.contains("5 received"), output);
        final String neighbours = Namespaces.exec(h1, "ip", "neigh", "show", "10.0.0.2");
        assertTrue(neighbours.contains(StarFabric.mac(2)), neighbours);
    }

    @Test
    void kernelTcpCarriesAFileByteForByte() throws Exception
    {
        final String[] reports = KernelTcpTransfer.run(h2, h1, "10.0.0.2", 5001, 2_000_000, 7, fabric.threads());
        final String sent = reports[0];
        assertEquals(sent, reports[1]);
        assertTrue(sent.startsWith("2000000 "), sent);
    }
}
