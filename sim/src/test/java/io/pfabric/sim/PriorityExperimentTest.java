package io.pfabric.sim;

import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.hostd.transport.PriorityPolicy;
import io.pfabric.hostd.workload.FlowSizeDistribution;
import io.pfabric.hostd.workload.WorkloadTrace;
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
 * The priorities of Fig 14 on two flows that start together, and the experiment at a tiny scale.
 */
class PriorityExperimentTest
{
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());
    private static final long SECOND_NS = 1_000_000_000L;

    @TempDir
    Path dir;

    private static FlowRecord[] smallAndLargeTogether(final PriorityPolicy policy)
    {
        final SimFabric fabric = SimFabric.paper().withShape(1, 3, 0);
        final List<WorkloadTrace.FlowSpec> trace = List.of(
            new WorkloadTrace.FlowSpec(0, 1, 0, 1_000 * 1460L, 0),
            new WorkloadTrace.FlowSpec(1, 2, 0, 100 * 1460L, 0));
        return new Simulator(fabric, Simulator.Scheme.PFABRIC, SimSettings.forFabric(fabric).withPriority(policy), 1)
            .run(trace, SECOND_NS).records();
    }

    @Test
    void sizeAndRemainingServeTheSmallFlowFirstAndBytesSentSharesTheLink()
    {
        final long bySizeNs = smallAndLargeTogether(PriorityPolicy.FLOW_SIZE)[1].endNs();
        final long byRemainingNs = smallAndLargeTogether(PriorityPolicy.REMAINING_SIZE)[1].endNs();
        final long byBytesSentNs = smallAndLargeTogether(PriorityPolicy.BYTES_SENT)[1].endNs();
        final long aloneNs = 100 * 1_240 + 13_000;
        assertTrue(bySizeNs < 1.3 * aloneNs, "by size the small flow goes first: " + bySizeNs);
        assertTrue(byRemainingNs < 1.3 * aloneNs, "by remaining size too: " + byRemainingNs);
        assertTrue(byBytesSentNs > 1.7 * bySizeNs, "by bytes sent the two flows alternate: " + byBytesSentNs);
    }

    @Test
    void theSameSeedWritesTheSameFiles() throws Exception
    {
        final PriorityExperiment.Config config = new PriorityExperiment.Config(SimFabric.paper(),
            SimSettings.forFabric(SimFabric.paper()), FlowSizeDistribution.load("websearch"), List.of(0.5), 150, 2,
            PriorityExperiment.POLICIES, List.of("pdq", "ideal"));
        final List<PriorityExperiment.Point> points = PriorityExperiment.run(config, dir.resolve("a"), QUIET);
        PriorityExperiment.run(config, dir.resolve("b"), QUIET);
        assertEquals(5, points.size());
        assertArrayEquals(Files.readAllBytes(dir.resolve("a/priority.csv")),
            Files.readAllBytes(dir.resolve("b/priority.csv")));
        assertArrayEquals(Files.readAllBytes(dir.resolve("a/summary.csv")),
            Files.readAllBytes(dir.resolve("b/summary.csv")));
    }

    @Test
    void badInputIsRefused()
    {
        final SimFabric fabric = SimFabric.paper();
        final FlowSizeDistribution websearch = load();
        assertThrows(IllegalArgumentException.class, () -> new PriorityExperiment.Config(fabric,
            SimSettings.forFabric(fabric), websearch, List.of(0.5), 10, 1, List.of(PriorityPolicy.DEADLINE),
            List.of()));
        assertThrows(IllegalArgumentException.class, () -> new PriorityExperiment.Config(fabric,
            SimSettings.forFabric(fabric), websearch, List.of(0.5), 10, 1, List.of(), List.of("tcp")));
        assertThrows(IllegalArgumentException.class, () -> new PriorityExperiment.Config(fabric,
            SimSettings.forFabric(fabric), websearch, List.of(1.5), 10, 1, PriorityExperiment.POLICIES, List.of()));
    }

    private static FlowSizeDistribution load()
    {
        try
        {
            return FlowSizeDistribution.load("websearch");
        }
        catch (final java.io.IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
    }
}
