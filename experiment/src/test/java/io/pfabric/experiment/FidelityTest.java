package io.pfabric.experiment;

import io.pfabric.analysis.FctAnalysis;
import io.pfabric.analysis.ResultsTable;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FidelityTest
{
    private static Fidelity of(final long backloggedNs, final long slowNs, final long waits, final long late,
        final boolean switches, final boolean hosts)
    {
        return new Fidelity(backloggedNs, backloggedNs, slowNs, null, 0, waits, late, 0, 0, Double.NaN, Double.NaN,
            0.5, switches, hosts);
    }

    @Test
    void aRunIsBrokenByEachInvariantBeyondItsShareAndOkWithin()
    {
        final long backlogged = 1_000_000_000L;
        final long atLimit = (long)(Fidelity.MAX_SLOW_SHARE * backlogged);
        assertEquals("ok", of(backlogged, atLimit, 100, 5, true, true).label());
        assertEquals("broken:port-rate", of(backlogged, atLimit + 1, 100, 5, true, true).label());
        assertEquals("broken:host-lag", of(backlogged, 0, 100, 6, true, true).label());
        assertEquals("broken:port-rate+host-lag", of(backlogged, backlogged, 100, 100, true, true).label());
    }

    @Test
    void whatWasNotWatchedNeitherBreaksNorPasses()
    {
        assertEquals("unchecked", of(0, 0, 0, 0, false, false).label());
        assertEquals("ok", of(0, 0, 0, 0, true, false).label(), "kernel TCP hosts: the ports alone");
        assertEquals("ok", of(0, 0, 10, 0, false, true).label());
        assertEquals("unchecked", of(10, 10, 0, 0, false, false).label());
    }

    @Test
    void aTableLineTakesTheVerdictOfItsRunAndOtherSchemesNone()
    {
        final Map<String, Fidelity> runs = Map.of("pfabric,0.6", of(10, 10, 0, 0, true, false),
            "tcp,0.6", of(10, 0, 0, 0, true, false));
        final FctAnalysis.Summary summary = new FctAnalysis.Summary(FctAnalysis.Bin.SMALL, 1, 0, 1, 1, 1);
        assertEquals("broken:port-rate", Fidelity.labelOf(runs, new ResultsTable.Line("pfabric", "0.6", summary)));
        assertEquals("broken:port-rate",
            Fidelity.labelOf(runs, new ResultsTable.Line("pfabric" + ResultsTable.DSCP_SUFFIX + "8", "0.6", summary)));
        assertEquals("ok", Fidelity.labelOf(runs, new ResultsTable.Line("tcp", "0.6", summary)));
        assertEquals("-", Fidelity.labelOf(runs, new ResultsTable.Line("ideal", "0.6", summary)));
        assertEquals(Set.of("pfabric,0.6"), Fidelity.brokenRuns(runs));
        assertEquals(List.of(), of(0, 0, 0, 0, true, true).broken());
    }
}
