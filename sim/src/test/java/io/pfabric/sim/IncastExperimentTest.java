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
 * Fig 6 at a tiny scale: pFabric completes a striped request near the ideal however many senders share it, where
 * TCP's synchronized windows overflow the last hop and time out.
 */
class IncastExperimentTest
{
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    @TempDir
    Path dir;

    @Test
    void pfabricStaysNearTheIdealWhereTcpTimesOut() throws Exception
    {
        final IncastExperiment.Config config = new IncastExperiment.Config(SimFabric.paper(),
            SimSettings.forFabric(SimFabric.paper()), List.of(1, 40), 2_000_000, 2, List.of("pfabric", "tcp"), 1);
        final List<IncastExperiment.Point> points = IncastExperiment.run(config, dir.resolve("a"), QUIET);
        assertEquals(4, points.size());
        final IncastExperiment.Point pfabricOne = points.get(0);
        final IncastExperiment.Point pfabricMany = points.get(1);
        final IncastExperiment.Point tcpMany = points.get(3);
        assertTrue(pfabricOne.requestMeanNs() < 1.1 * config.idealRequestNs(), "one sender: " +
            pfabricOne.requestMeanNs());
        assertTrue(pfabricMany.requestMeanNs() < 1.25 * config.idealRequestNs(), "40 senders: " +
            pfabricMany.requestMeanNs() + " against " + config.idealRequestNs());
        assertTrue(tcpMany.timeouts() > 0, "40 windows of 12 overflow 225 KB");
        assertEquals(0, pfabricMany.incomplete() + tcpMany.incomplete());
        IncastExperiment.run(config, dir.resolve("b"), QUIET);
        assertArrayEquals(Files.readAllBytes(dir.resolve("a/incast.csv")),
            Files.readAllBytes(dir.resolve("b/incast.csv")));
    }

    @Test
    void badInputIsRefused()
    {
        final SimFabric fabric = SimFabric.paper();
        final SimSettings settings = SimSettings.forFabric(fabric);
        assertThrows(IllegalArgumentException.class, () -> new IncastExperiment.Config(fabric, settings,
            List.of(0), 1_000_000, 1, List.of("pfabric"), 1));
        assertThrows(IllegalArgumentException.class, () -> new IncastExperiment.Config(fabric, settings,
            List.of(5), 1_000_000, 0, List.of("pfabric"), 1));
        assertThrows(IllegalArgumentException.class, () -> new IncastExperiment.Config(fabric, settings,
            List.of(5), 1_000_000, 1, List.of("ideal"), 1));
        assertThrows(IllegalArgumentException.class, () -> new IncastExperiment.Config(fabric, settings,
            List.of(5), 3, 1, List.of("pfabric"), 1));
    }
}
