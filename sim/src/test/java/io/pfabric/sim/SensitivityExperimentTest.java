package io.pfabric.sim;

import io.pfabric.hostd.workload.FlowSizeDistribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fig 12 at a tiny scale: each run gets the buffer and the timeout asked for, a smaller buffer drops more, and every
 * flow completes across the grid.
 */
class SensitivityExperimentTest
{
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    @TempDir
    Path dir;

    @Test
    void aSmallerBufferDropsMoreAndEveryRunCompletes() throws Exception
    {
        final SimFabric fabric = SimFabric.paper();
        final SensitivityExperiment.Config config = new SensitivityExperiment.Config(fabric,
            SimSettings.forFabric(fabric), FlowSizeDistribution.load("websearch"), 0.8, 300, 1, List.of(0.5, 5.0),
            List.of(3.0, 20.0));
        final List<SensitivityExperiment.Point> points = SensitivityExperiment.run(config, dir.resolve("a"), QUIET);
        assertEquals(4, points.size());
        assertEquals(Math.round(0.5 * SensitivityExperiment.bdpBytes(fabric)), points.get(0).bufferBytes());
        assertEquals(Math.round(20 * SensitivityExperiment.rttNs(fabric)), points.get(1).timeoutNs());
        assertEquals(12, points.get(0).windowCap(), "a small buffer keeps the initial window as the cap");
        assertEquals(61, points.get(2).windowCap(), "5 BDP hold 62 full packets");
        for (final SensitivityExperiment.Point point : points)
        {
            assertEquals(0, point.incomplete());
            assertEquals(300, point.flows());
        }
        assertTrue(points.get(0).droppedPackets() > 2 * points.get(2).droppedPackets(), "0.5 BDP drops " +
            points.get(0).droppedPackets() + ", 5 BDP " + points.get(2).droppedPackets());
        SensitivityExperiment.run(config, dir.resolve("b"), QUIET);
        assertArrayEquals(Files.readAllBytes(dir.resolve("a/sensitivity.csv")),
            Files.readAllBytes(dir.resolve("b/sensitivity.csv")));
    }

    @Test
    void badInputIsRefused() throws Exception
    {
        final SimFabric fabric = SimFabric.paper();
        final SimSettings settings = SimSettings.forFabric(fabric);
        final FlowSizeDistribution websearch = FlowSizeDistribution.load("websearch");
        assertThrows(IllegalArgumentException.class, () -> new SensitivityExperiment.Config(fabric, settings,
            websearch, 0.8, 10, 1, List.of(0.05), List.of(3.0)));
        assertThrows(IllegalArgumentException.class, () -> new SensitivityExperiment.Config(fabric, settings,
            websearch, 0.8, 10, 1, List.of(1.0), List.of(0.0)));
        assertThrows(IllegalArgumentException.class, () -> new SensitivityExperiment.Config(fabric, settings,
            websearch, 0.8, 10, 1, List.of(), List.of(3.0)));
    }
}
