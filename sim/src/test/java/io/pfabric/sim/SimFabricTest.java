package io.pfabric.sim;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A simulated fabric fitted to an emulated one's measured base RTTs.
 */
class SimFabricTest
{
    @Test
    void aStarTakesTheMeasuredBaseRttAsLinkDelay()
    {
        final SimFabric idle = new SimFabric(1, 4, 0, 100_000_000L, 0, 0, 0, 36_000, "pfabric");
        final SimFabric fitted = idle.withBaseRtts(273_000, 273_000);

        assertEquals(273_000, fitted.baseRttNs(0, 3), 4);
        assertEquals((273_000 - idle.baseRttNs(0, 3)) / 4, fitted.edgeDelayNs());
        assertEquals(0, idle.withBaseRtts(1_000, 1_000).edgeDelayNs(), "no negative delay below the rates' own");
    }

    @Test
    void aLeafSpineFitsBothClassesOfPath()
    {
        final SimFabric idle = new SimFabric(2, 3, 2, 1_000_000_000L, 1_000_000_000L, 0, 0, 36_000, "pfabric");
        final SimFabric fitted = idle.withBaseRtts(120_000, 190_000);

        assertEquals(120_000, fitted.baseRttNs(0, 1), 4, "under one leaf");
        assertEquals(190_000, fitted.baseRttNs(0, 5), 8, "across a spine");
    }

    @Test
    void oneHostPerLeafSharesTheDelayBetweenEdgeAndCore()
    {
        final SimFabric idle = new SimFabric(3, 1, 1, 1_000_000_000L, 1_000_000_000L, 0, 0, 36_000, "pfabric");
        final SimFabric fitted = idle.withBaseRtts(0, 200_000);

        assertEquals(200_000, fitted.baseRttNs(0, 2), 8);
        assertEquals(fitted.edgeDelayNs(), fitted.coreDelayNs());
    }
}
