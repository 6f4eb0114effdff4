package io.pfabric.sim;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fig 5a at a tiny scale: five flows that start together towards one host complete one after another, each nearly at
 * the line rate, and the last near the ideal.
 */
class FlowSwitchingExperimentTest
{
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    @TempDir
    Path dir;

    @Test
    void flowsCompleteOneAfterAnotherNotSideBySide() throws Exception
    {
        final FlowSwitchingExperiment.Config config = new FlowSwitchingExperiment.Config(SimFabric.paper(),
            SimSettings.forFabric(SimFabric.paper()), 5, 2_000_000, 100_000, 1, "pfabric");
        final FlowSwitchingExperiment.Result result = FlowSwitchingExperiment.run(config, dir.resolve("a"), QUIET);
        final long[] ends = result.endNs().clone();
        Arrays.sort(ends);
        final double oneFlowNs = config.idealWireNs() / 5;
        assertTrue(ends[0] > 0, "every flow completes");
        assertTrue(ends[0] < 1.3 * oneFlowNs, "the first is done in about one flow's time: " + ends[0]);
        for (int k = 1; k < ends.length; k++)
        {
            assertTrue(ends[k] - ends[k - 1] > 0.7 * oneFlowNs && ends[k] - ends[k - 1] < 1.3 * oneFlowNs,
                "each next about one flow's time later: " + Arrays.toString(ends));
        }
        assertTrue(result.lastEndNs() < 1.1 * config.idealWireNs(), "the last near the ideal: " +
            result.lastEndNs() + " against " + config.idealWireNs());
        int sharedIntervals = 0;
        for (int i = 0; i < result.gbps()[0].length; i++)
        {
            int active = 0;
            for (final double[] flow : result.gbps())
            {
                active += flow[i] > 2 ? 1 : 0;
            }
            sharedIntervals += active > 1 ? 1 : 0;
        }
        assertTrue(sharedIntervals <= 5, "at most a switch-over per interval has two flows above 2 Gb/s: " +
            sharedIntervals);
        FlowSwitchingExperiment.run(config, dir.resolve("b"), QUIET);
        assertArrayEquals(Files.readAllBytes(dir.resolve("a/flow-switching.csv")),
            Files.readAllBytes(dir.resolve("b/flow-switching.csv")));
        assertArrayEquals(Files.readAllBytes(dir.resolve("a/flow-switching-summary.csv")),
            Files.readAllBytes(dir.resolve("b/flow-switching-summary.csv")));
    }

    @Test
    void badInputIsRefused()
    {
        final SimFabric fabric = SimFabric.paper();
        final SimSettings settings = SimSettings.forFabric(fabric);
        assertThrows(IllegalArgumentException.class,
            () -> new FlowSwitchingExperiment.Config(fabric, settings, 0, 1_000, 1_000, 1, "pfabric"));
        assertThrows(IllegalArgumentException.class,
            () -> new FlowSwitchingExperiment.Config(fabric, settings, 64, 1_000, 1_000, 1, "pfabric"));
        assertThrows(IllegalArgumentException.class,
            () -> new FlowSwitchingExperiment.Config(fabric, settings, 5, 1_000, 1_000, 1, "dctcp"));
        assertThrows(IllegalArgumentException.class,
            () -> new FlowSwitchingExperiment.Config(fabric, settings, 5, 0, 1_000, 1, "pfabric"));
    }
}
