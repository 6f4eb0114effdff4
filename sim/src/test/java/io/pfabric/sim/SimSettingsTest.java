package io.pfabric.sim;

import io.pfabric.hostd.transport.TransportConfiguration;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The simulated schemes' settings follow the fabric: the paper's on the paper's fabric, derived elsewhere.
 */
class SimSettingsTest
{
    private static final SimFabric STAR_100M = new SimFabric(1, 4, 0, 100_000_000L, 0, 2_700, 0, 36_000, "pfabric");

    @Test
    void thePapersFabricKeepsThePapersSettings()
    {
        final SimSettings settings = SimSettings.forFabric(SimFabric.paper());

        assertEquals(TransportConfiguration.PAPER, settings.pfabric());
        assertEquals(45_000, settings.pfabric().timeoutNs());
        assertEquals(12, settings.pfabric().initialWindowPackets());
        assertEquals(23, settings.pfabric().maxWindowPackets());
        assertEquals(200_000, settings.tcpMinRtoNs());
        assertEquals(22_500, settings.ecnThresholdLength());
        assertEquals(SimSettings.PAPERS, settings.origin());
        assertNull(settings.warning());
        assertEquals(TransportConfiguration.PAPER,
            SimSettings.forFabric(SimFabric.paper().withShape(2, 4, 2)).pfabric(), "any leaf-spine shape");
    }

    @Test
    void aStarAt100MbpsGetsATimeoutOfThreeBaseRttsAndAWindowOfItsBandwidthDelayProduct()
    {
        final SimSettings settings = SimSettings.forFabric(STAR_100M);
        final long rttNs = STAR_100M.baseRttNs(0, 3);

        assertEquals(rttNs, settings.baseRttNs());
        assertTrue(rttNs > 250_000 && rttNs < 300_000, "a full packet and its ACK at 100 Mb/s: " + rttNs);
        assertEquals(3 * rttNs, settings.pfabric().timeoutNs());
        final long bdpPackets = (long)Math.ceil(100_000_000L / 8.0 * rttNs / 1e9 / 1_500);
        assertEquals(bdpPackets, settings.pfabric().initialWindowPackets());
        assertEquals(23, settings.pfabric().maxWindowPackets(), "the buffer in full packets less one");
        assertEquals(SimSettings.DERIVED, settings.origin());
        assertNull(settings.warning());
    }

    @Test
    void tcpsMinimumRtoAndDctcpsThresholdKeepTheirRatioToThePapersFabric()
    {
        final SimSettings settings = SimSettings.forFabric(STAR_100M);
        final long paperRttNs = SimSettings.largestBaseRttNs(SimFabric.paper());

        assertEquals(200_000.0 * settings.baseRttNs() / paperRttNs, settings.tcpMinRtoNs(), 1.0);
        final double bdpRatio = 100e6 * settings.baseRttNs() / (10e9 * paperRttNs);
        assertEquals(Math.max(1, Math.round(15 * bdpRatio)) * 1_500, settings.ecnThresholdLength());
        assertTrue(settings.tcpMinRtoNs() > settings.baseRttNs(), "the minimum RTO stays above the base RTT");
    }

    @Test
    void overridesReplacePfabricsSettingsAndATimeoutBelowTheBaseRttIsWarnedOf()
    {
        final SimSettings derived = SimSettings.forFabric(STAR_100M);
        final SimSettings overridden = derived.withPfabric(12, 0, 45_000);

        assertEquals(12, overridden.pfabric().initialWindowPackets());
        assertEquals(23, overridden.pfabric().maxWindowPackets());
        assertEquals(45_000, overridden.pfabric().timeoutNs());
        assertEquals(derived.tcpMinRtoNs(), overridden.tcpMinRtoNs());
        assertNotNull(overridden.warning(), "45 us is far below the star's base RTT");
        assertTrue(overridden.origin().contains("overridden"));
        assertEquals(derived, derived.withPfabric(0, 0, 0), "nothing given, nothing changed");
    }
}
