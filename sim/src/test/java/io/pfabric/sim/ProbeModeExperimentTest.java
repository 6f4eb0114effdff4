package io.pfabric.sim;

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
 * Fig 5b at a tiny scale: many long-lived flows into one port lose far more without probe mode than with it, and one
 * flow alone loses nothing either way.
 */
class ProbeModeExperimentTest
{
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    @TempDir
    Path dir;

    @Test
    void probeModeKeepsTheLossOfManyFlowsLow() throws Exception
    {
        final ProbeModeExperiment.Config config = new ProbeModeExperiment.Config(SimFabric.paper(),
            SimSettings.forFabric(SimFabric.paper()), List.of(1, 30), List.of(5, ProbeModeExperiment.OFF),
            10_000_000, 1);
        final List<ProbeModeExperiment.Point> points = ProbeModeExperiment.run(config, dir.resolve("a"), QUIET);
        assertEquals(4, points.size());
        final ProbeModeExperiment.Point aloneWith = points.get(0);
        final ProbeModeExperiment.Point manyWith = points.get(1);
        final ProbeModeExperiment.Point aloneWithout = points.get(2);
        final ProbeModeExperiment.Point manyWithout = points.get(3);
        assertEquals(0, aloneWith.droppedPackets());
        assertEquals(0, aloneWithout.droppedPackets());
        assertTrue(manyWithout.lossRate() > 0.05, "30 flows without probe mode: " + manyWithout.lossRate());
        assertTrue(manyWith.lossRate() < manyWithout.lossRate() / 5, "with probe mode " + manyWith.lossRate() +
            ", without " + manyWithout.lossRate());
        assertTrue(manyWith.throughputGbps() > 8, "the port stays busy: " + manyWith.throughputGbps());
        ProbeModeExperiment.run(config, dir.resolve("b"), QUIET);
        assertArrayEquals(Files.readAllBytes(dir.resolve("a/probe-mode.csv")),
            Files.readAllBytes(dir.resolve("b/probe-mode.csv")));
    }

    @Test
    void badInputIsRefused()
    {
        final SimFabric fabric = SimFabric.paper();
        final SimSettings settings = SimSettings.forFabric(fabric);
        assertThrows(IllegalArgumentException.class,
            () -> new ProbeModeExperiment.Config(fabric, settings, List.of(0), List.of(5), 1_000_000, 1));
        assertThrows(IllegalArgumentException.class,
            () -> new ProbeModeExperiment.Config(fabric, settings, List.of(144), List.of(5), 1_000_000, 1));
        assertThrows(IllegalArgumentException.class,
            () -> new ProbeModeExperiment.Config(fabric, settings, List.of(5), List.of(0), 1_000_000, 1));
        assertThrows(IllegalArgumentException.class,
            () -> new ProbeModeExperiment.Config(fabric, settings, List.of(5), List.of(5), 0, 1));
    }
}
