package io.pfabric.sim;

import io.pfabric.analysis.DeadlineReport;
import io.pfabric.dataplane.queue.PfabricEdfQueue;
import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.hostd.transport.PriorityPolicy;
import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.workload.FctLogReader;
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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Deadlines through the simulator: pFabric-EDF's priorities and queue on simulated ports, and the deadline
 * experiment at a tiny scale.
 */
class DeadlineSimulationTest
{
    private static final long SECOND_NS = 1_000_000_000L;
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    @TempDir
    Path dir;

    private static List<WorkloadTrace.FlowSpec> aSmallFlowAndALargerOneWithADeadline()
    {
        return List.of(
            new WorkloadTrace.FlowSpec(0, 1, 0, 100 * 1460L, 0),
            new WorkloadTrace.FlowSpec(1, 2, 0, 150 * 1460L, 0, 0, 5_000_000));
    }

    @Test
    void pfabricServesTheSmallerFlowFirstAndPfabricEdfTheDeadlineFlow()
    {
        final SimFabric fabric = SimFabric.paper().withShape(1, 3, 0);
        final SimSettings settings = SimSettings.forFabric(fabric);
        final FlowRecord[] bySize = new Simulator(fabric, Simulator.Scheme.PFABRIC, settings, 1)
            .run(aSmallFlowAndALargerOneWithADeadline(), SECOND_NS).records();
        assertTrue(bySize[0].endNs() < bySize[1].endNs(), "remaining size: the smaller flow first");
        final FlowRecord[] edf = new Simulator(fabric.withQueues(PfabricEdfQueue.NAME, 2 * fabric.bufferLength()),
            Simulator.Scheme.PFABRIC, settings.withPriority(PriorityPolicy.DEADLINE), 1)
            .run(aSmallFlowAndALargerOneWithADeadline(), SECOND_NS).records();
        assertTrue(edf[1].endNs() < edf[0].endNs(), "EDF: the deadline flow first, in the deadline queue");
        assertEquals(5_000_000, edf[1].deadlineNs());
        assertTrue(edf[1].metDeadline());
    }

    @Test
    void amongDeadlineFlowsTheEarliestDeadlineGoesFirstWhateverItsSize()
    {
        final SimFabric fabric = SimFabric.paper().withShape(1, 3, 0);
        final List<WorkloadTrace.FlowSpec> flows = List.of(
            new WorkloadTrace.FlowSpec(0, 1, 0, 50 * 1460L, 0, 0, 5_000_000),
            new WorkloadTrace.FlowSpec(1, 2, 0, 150 * 1460L, 0, 0, 1_000_000));
        final FlowRecord[] records = new Simulator(fabric.withQueues(PfabricEdfQueue.NAME, 2 * fabric.bufferLength()),
            Simulator.Scheme.PFABRIC, SimSettings.forFabric(fabric).withPriority(PriorityPolicy.DEADLINE), 1)
            .run(flows, SECOND_NS).records();
        assertTrue(records[1].endNs() < records[0].endNs(), "EDF: the 1 ms deadline before the 5 ms one");
        final FlowRecord[] bySize = new Simulator(fabric, Simulator.Scheme.PFABRIC, SimSettings.forFabric(fabric), 1)
            .run(flows, SECOND_NS).records();
        assertTrue(bySize[0].endNs() < bySize[1].endNs(), "remaining size: the smaller flow first");
    }

    @Test
    void deadlinePrioritiesOnPlainPfabricQueuesCompareUnitsAndDoNotPutDeadlinesFirst()
    {
        final SimFabric fabric = SimFabric.paper().withShape(1, 3, 0);
        final List<WorkloadTrace.FlowSpec> flows = List.of(
            new WorkloadTrace.FlowSpec(0, 1, 0, 100 * 1460L, 0),
            new WorkloadTrace.FlowSpec(1, 2, 0, 150 * 1460L, 0, 0, 500_000_000));
        final FlowRecord[] records = new Simulator(fabric, Simulator.Scheme.PFABRIC,
            SimSettings.forFabric(fabric).withPriority(PriorityPolicy.DEADLINE), 1).run(flows, SECOND_NS).records();
        assertTrue(records[0].endNs() < records[1].endNs(),
            "500,000 us against 146,000 bytes: without the deadline queue the smaller number wins");
        final FlowRecord[] edf = new Simulator(fabric.withQueues(PfabricEdfQueue.NAME, 2 * fabric.bufferLength()),
            Simulator.Scheme.PFABRIC, SimSettings.forFabric(fabric).withPriority(PriorityPolicy.DEADLINE), 1)
            .run(flows, SECOND_NS).records();
        assertTrue(edf[1].endNs() < edf[0].endNs(), "the deadline queue goes first whatever the numbers");
    }

    @Test
    void aDeadlineFlowThatCannotMakeItIsDemotedBehindTheOthers()
    {
        final SimFabric fabric = SimFabric.paper().withShape(1, 3, 0);
        final List<WorkloadTrace.FlowSpec> flows = List.of(
            new WorkloadTrace.FlowSpec(0, 1, 0, 100 * 1460L, 0),
            new WorkloadTrace.FlowSpec(1, 2, 0, 150 * 1460L, 0, 0, 20_000));
        final FlowRecord[] records = new Simulator(fabric.withQueues(PfabricEdfQueue.NAME, 2 * fabric.bufferLength()),
            Simulator.Scheme.PFABRIC, SimSettings.forFabric(fabric).withPriority(PriorityPolicy.DEADLINE), 1)
            .run(flows, SECOND_NS).records();
        assertFalse(records[1].metDeadline(), "150 packets need 180 us at 10 Gb/s, not 20 us");
        assertTrue(records[0].endNs() < records[1].endNs(), "demoted to the least urgent priority");
    }

    private DeadlineExperiment.Config config(final List<String> schemes) throws Exception
    {
        final SimFabric fabric = SimFabric.paper().withShape(2, 3, 1);
        return new DeadlineExperiment.Config(fabric, SimSettings.forFabric(fabric),
            FlowSizeDistribution.load("websearch"), 0.6, 150, 7, 200_000, List.of(100_000L, 1_000_000L), schemes);
    }

    @Test
    void theExperimentWritesItsTableAndIsDeterministic() throws Exception
    {
        final DeadlineExperiment.Config config = config(List.of("pfabric", "pfabric-edf", "tcp"));
        final List<DeadlineReport.Row> rows = DeadlineExperiment.run(config, dir.resolve("a"), QUIET);
        DeadlineExperiment.run(config, dir.resolve("b"), QUIET);
        assertEquals(6, rows.size());
        final List<String> table = Files.readAllLines(dir.resolve("a/deadlines.csv"));
        assertEquals(DeadlineReport.CSV_HEADER, table.get(0));
        assertTrue(table.get(1).startsWith("pfabric,0.6,100,"), table.get(1));
        assertTrue(table.get(6).startsWith("tcp,0.6,1000,"), table.get(6));
        for (final String file : List.of("deadlines.csv", "deadlines-other-fct.csv", "mean-100us/trace-0.6.csv",
            "mean-1000us/fct-pfabric-edf-0.6.csv", "mean-1000us/fct-tcp-0.6.csv"))
        {
            assertArrayEquals(Files.readAllBytes(dir.resolve("a").resolve(file)),
                Files.readAllBytes(dir.resolve("b").resolve(file)), file);
        }
        assertTrue(Files.size(dir.resolve("a/deadlines.png")) > 0);
        for (final DeadlineReport.Row row : rows)
        {
            assertTrue(row.flows() > 0 && row.otherFlows() > 0, row.toString());
            assertEquals(150, row.flows() + row.otherFlows());
        }
    }

    @Test
    void aSchemeBlindToDeadlinesRunsOnceAndIsJudgedByEachMeansDeadlines() throws Exception
    {
        DeadlineExperiment.run(config(List.of("pfabric")), dir, QUIET);
        final List<FctLogReader.Row> tight = FctLogReader.read(dir.resolve("mean-100us/fct-pfabric-0.6.csv"));
        final List<FctLogReader.Row> loose = FctLogReader.read(dir.resolve("mean-1000us/fct-pfabric-0.6.csv"));
        assertEquals(tight.stream().map(FctLogReader.Row::endNs).toList(),
            loose.stream().map(FctLogReader.Row::endNs).toList());
        assertNotEquals(tight.stream().map(FctLogReader.Row::deadlineNs).toList(),
            loose.stream().map(FctLogReader.Row::deadlineNs).toList());
        assertTrue(DeadlineExperiment.isDeadlineAgnostic("tcp", SimSettings.forFabric(SimFabric.paper())));
        assertFalse(DeadlineExperiment.isDeadlineAgnostic("pfabric-edf", SimSettings.forFabric(SimFabric.paper())));
        assertFalse(DeadlineExperiment.isDeadlineAgnostic("pfabric",
            SimSettings.forFabric(SimFabric.paper()).withPriority(PriorityPolicy.DEADLINE)));
    }

    @Test
    void badConfigurationsAreRejectedBeforeAnythingIsWritten()
    {
        final SimFabric fabric = SimFabric.paper().withShape(2, 3, 1);
        final SimSettings settings = SimSettings.forFabric(fabric);
        assertThrows(IllegalArgumentException.class, () -> new DeadlineExperiment.Config(fabric, settings,
            FlowSizeDistribution.load("websearch"), 0.6, 100, 1, 8_000, List.of(1_000L), List.of("pfabric")));
        assertThrows(IllegalArgumentException.class, () -> new DeadlineExperiment.Config(fabric, settings,
            FlowSizeDistribution.load("websearch"), 0.6, 100, 1, 200_000, List.of(1_000L), List.of("nope")));
        assertThrows(IllegalArgumentException.class, () -> new DeadlineExperiment.Config(fabric, settings,
            FlowSizeDistribution.load("websearch"), 1.5, 100, 1, 200_000, List.of(1_000L), List.of("pfabric")));
        assertFalse(Files.exists(dir.resolve("deadlines.csv")));
    }

    @Test
    void theTransportConfigurationCarriesThePolicy()
    {
        assertEquals(PriorityPolicy.BYTES_SENT, SimSettings.forFabric(SimFabric.paper())
            .withPriority(PriorityPolicy.BYTES_SENT).pfabric().priorityPolicy());
        assertEquals(TransportConfiguration.PAPER.priorityPolicy(),
            SimSettings.forFabric(SimFabric.paper()).pfabric().priorityPolicy());
    }
}
