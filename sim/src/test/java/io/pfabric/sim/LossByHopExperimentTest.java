package io.pfabric.sim;

import io.pfabric.hostd.workload.FlowSizeDistribution;
import io.pfabric.hostd.workload.WorkloadTrace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Drops counted by the role of the port that drops: the last hop of an incast, the single uplink of a rack sending
 * across, and the paper's Fig 13 setting at a tiny scale.
 */
class LossByHopExperimentTest
{
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());
    private static final long SECOND_NS = 1_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void anIncastLosesOnlyAtTheLastHop()
    {
        final SimFabric fabric = SimFabric.paper().withShape(1, 9, 0);
        final List<WorkloadTrace.FlowSpec> trace = new ArrayList<>();
        for (int h = 1; h <= 8; h++)
        {
            trace.add(new WorkloadTrace.FlowSpec(h - 1, h, 0, 200 * 1460L, 0));
        }
        final Simulator simulator = new Simulator(fabric, Simulator.Scheme.PFABRIC, SimSettings.forFabric(fabric), 1);
        final HopLossMeter meter = new HopLossMeter(List.of(100_000L));
        simulator.hopLossMeter(meter);
        simulator.run(trace, SECOND_NS);
        assertTrue(meter.droppedPackets(PortRole.LAST_HOP) > 0, "an 8-to-1 incast overflows the last hop");
        assertEquals(0, meter.droppedPackets(PortRole.NIC));
        assertEquals(0, meter.droppedPackets(PortRole.CORE));
        assertTrue(meter.droppedPackets(PortRole.LAST_HOP) <= simulator.droppedPackets(PortRole.LAST_HOP),
            "the meter counts data packets, the queues probes too");
        assertEquals(0, meter.sentPackets(0));
        assertTrue(meter.sentPackets(1) >= 8 * 200, "every segment sent at least once, in the bin above 100 KB");
    }

    @Test
    void aRackSendingAcrossOneUplinkLosesInTheCore()
    {
        final SimFabric fabric = new SimFabric(2, 4, 1, 10_000_000_000L, 10_000_000_000L, 2_700, 200, 36_000,
            "pfabric");
        final List<WorkloadTrace.FlowSpec> trace = new ArrayList<>();
        for (int h = 0; h < 4; h++)
        {
            trace.add(new WorkloadTrace.FlowSpec(h, h, 4 + h, 300 * 1460L, 0));
        }
        final Simulator simulator = new Simulator(fabric, Simulator.Scheme.PFABRIC, SimSettings.forFabric(fabric), 1);
        final HopLossMeter meter = new HopLossMeter(List.of());
        simulator.hopLossMeter(meter);
        simulator.run(trace, SECOND_NS);
        assertTrue(meter.droppedPackets(PortRole.CORE) > 0, "four hosts share one 10 Gb/s uplink");
        assertEquals(0, meter.droppedPackets(PortRole.LAST_HOP), "each destination has one sender");
        assertEquals(simulator.droppedPackets(PortRole.CORE), meter.droppedPackets(PortRole.CORE));
    }

    @Test
    void webSearchAtHighLoadLosesMostlyAtTheLastHopAndTheSameSeedWritesTheSameFiles() throws Exception
    {
        final LossByHopExperiment.Config config = new LossByHopExperiment.Config(SimFabric.paper(),
            SimSettings.forFabric(SimFabric.paper()), FlowSizeDistribution.load("websearch"), 0.8, 400, 3, "pfabric",
            LossByHopExperiment.DEFAULT_EDGES_BYTES);
        final List<LossByHopExperiment.Row> rows = LossByHopExperiment.run(config, dir.resolve("a"), QUIET);
        LossByHopExperiment.run(config, dir.resolve("b"), QUIET);
        long lastHop = 0;
        long elsewhere = 0;
        for (final LossByHopExperiment.Row row : rows)
        {
            lastHop += row.lastHopDropped();
            elsewhere += row.nicDropped() + row.coreDropped();
        }
        assertTrue(lastHop > 0, "web search at 0.8 drops");
        assertTrue(lastHop > 4 * elsewhere, "most loss at the last hop: " + lastHop + " against " + elsewhere);
        assertArrayEquals(Files.readAllBytes(dir.resolve("a/loss-by-hop.csv")),
            Files.readAllBytes(dir.resolve("b/loss-by-hop.csv")));
        assertArrayEquals(Files.readAllBytes(dir.resolve("a/fct-pfabric-0.8.csv")),
            Files.readAllBytes(dir.resolve("b/fct-pfabric-0.8.csv")));
        assertTrue(Files.size(dir.resolve("a/loss-by-hop.png")) > 0);
    }

    @Test
    void badInputIsRefusedBeforeAnythingIsWritten()
    {
        final SimFabric fabric = SimFabric.paper();
        assertThrows(IllegalArgumentException.class, () -> new LossByHopExperiment.Config(fabric,
            SimSettings.forFabric(fabric), FlowSizeDistribution.load("websearch"), 0.8, 10, 1, "tcp", List.of()));
        assertThrows(IllegalArgumentException.class, () -> new LossByHopExperiment.Config(fabric,
            SimSettings.forFabric(fabric), FlowSizeDistribution.load("websearch"), 1.2, 10, 1, "pfabric", List.of()));
        assertThrows(IllegalArgumentException.class, () -> new LossByHopExperiment.Config(fabric,
            SimSettings.forFabric(fabric), FlowSizeDistribution.load("websearch"), 0.8, 10, 1, "pfabric",
            List.of(100L, 10L)));
        assertTrue(Files.notExists(dir.resolve("a")));
    }
}
