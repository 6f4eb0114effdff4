package io.pfabric.experiment;

import io.pfabric.common.topology.Topologies;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CalibrationTest
{
    private static ExperimentSettings settings(final String workload, final Path out)
    {
        return new ExperimentSettings("netns", "star:4", Topologies.star(4, "", 100_000_000L, "pfabric"),
            100_000_000L, workload, List.of(0.2, 0.6), List.of("pfabric", "tcp"), 400, 1, out, "cubic", 0,
            1_000_000_000L, "./pfabric experiment --calibrate");
    }

    private static Fidelity run(final boolean broken)
    {
        return new Fidelity(100, 100, broken ? 100 : 0, null, 0, 0, 0, 0, 0, Double.NaN, Double.NaN, Double.NaN,
            true, false);
    }

    @Test
    void aProbeHoldsOnlyWhenEveryRunKeptItsInvariants()
    {
        assertTrue(new Calibration.Probe(1, Map.of("pfabric,0.6", run(false), "tcp,0.6", run(false))).held());
        assertFalse(new Calibration.Probe(1, Map.of("pfabric,0.6", run(false), "tcp,0.6", run(true))).held());
        assertFalse(new Calibration.Probe(1, Map.of()).held(), "a probe that ran nothing proves nothing");
    }

    @Test
    void aRecordedRateIsFoundForItsTopologyAndWorkloadAndReplacedByTheNextCalibration(@TempDir final Path directory)
        throws Exception
    {
        final Path file = directory.resolve("calibration.csv");
        assertEquals(Optional.empty(), Calibration.recorded(file, "star:4", "websearch"));
        Calibration.record(file, settings("websearch", directory), new Calibration.Result(300_000_000L, List.of()));
        Calibration.record(file, settings("datamining", directory), new Calibration.Result(100_000_000L, List.of()));
        Calibration.record(file, settings("websearch", directory), new Calibration.Result(200_000_000L, List.of()));
        assertEquals(200_000_000L, Calibration.recorded(file, "star:4", "websearch").orElseThrow().rateBitsPerSec());
        assertEquals(100_000_000L, Calibration.recorded(file, "star:4", "datamining").orElseThrow().rateBitsPerSec());
        assertEquals(Optional.empty(), Calibration.recorded(file, "star:3", "websearch"));
        final List<String> lines = java.nio.file.Files.readAllLines(file);
        assertEquals(Calibration.CSV_HEADER, lines.get(0));
        assertEquals(3, lines.size());
        assertTrue(lines.get(2).startsWith("star:4,websearch,0.6,400,200000000,"), lines.get(2));
    }
}
