package io.pfabric.sim;

import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.workload.FlowSizeDistribution;
import io.pfabric.hostd.workload.WorkloadTrace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * pFabric's transport, unchanged, on the commodity-switch disciplines in the simulator, at a tiny scale.
 */
class CommoditySimulatorTest
{
    private static final long SECOND_NS = 1_000_000_000L;

    /**
     * Two 3 MB flows into h0 build a queue at its port; a 20 KB flow joins them at 1 ms.
     */
    private static List<WorkloadTrace.FlowSpec> shortBehindLong()
    {
        return List.of(
            new WorkloadTrace.FlowSpec(0, 1, 0, 3_000_000L, 0),
            new WorkloadTrace.FlowSpec(1, 2, 0, 3_000_000L, 0),
            new WorkloadTrace.FlowSpec(2, 3, 0, 20_000L, 1_000_000L));
    }

    private static Simulator.Result run(final String discipline, final long bufferLength,
        final List<WorkloadTrace.FlowSpec> flows, final long seed)
    {
        final SimFabric fabric = SimFabric.paper().withShape(1, 4, 0).withQueues(discipline, bufferLength);
        return new Simulator(fabric, TransportConfiguration.PAPER, seed).run(flows, SECOND_NS);
    }

    @Test
    void aShortFlowPassesTheLongOnesOnlyWhenAThresholdSetsItAbove()
    {
        final long fifoNs = run("strict:1", 225_000, shortBehindLong(), 1).records()[2].fctNs();
        final long strictNs = run("strict:2:100000", 225_000, shortBehindLong(), 1).records()[2].fctNs();
        final long pfabricNs = run("pfabric", 36_000, shortBehindLong(), 1).records()[2].fctNs();
        assertTrue(strictNs * 3 < fifoNs, "above the threshold it skips the queue: " + strictNs + " vs " + fifoNs);
        assertEquals(pfabricNs, strictNs, "in a queue of its own it finishes as under pFabric");
    }

    @ParameterizedTest
    @ValueSource(strings = { "strict:4:15000,150000,1500000", "sp-pifo:8", "aifo", "pias:2" })
    void everyFlowCompletesAndTheSameSeedGivesTheSameRun(final String discipline)
    {
        final List<WorkloadTrace.FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < 40; i++)
        {
            flows.add(new WorkloadTrace.FlowSpec(i, i % 8, (i * 3 + 1) % 8 == i % 8 ? (i + 1) % 8 : (i * 3 + 1) % 8,
                10_000L + 37_000L * (i % 7), i * 2_000L));
        }
        final SimFabric fabric = SimFabric.paper().withShape(2, 4, 2).withQueues(discipline, 60_000);
        assertTrue(fabric.hasCommodityQueues());
        final Simulator.Result first = new Simulator(fabric, TransportConfiguration.PAPER, 42).run(flows, SECOND_NS);
        final Simulator.Result second = new Simulator(fabric, TransportConfiguration.PAPER, 42).run(flows, SECOND_NS);
        for (int i = 0; i < flows.size(); i++)
        {
            assertNotNull(first.records()[i], "flow " + i + " completed");
            assertEquals(first.records()[i].endNs(), second.records()[i].endNs(), "flow " + i);
        }
        assertEquals(first.events(), second.events());
        assertEquals(first.rankInversions(), second.rankInversions());
        assertEquals(first.sentPackets(), first.receivedPackets() + first.droppedPackets());
        assertTrue(first.rankInversions() > 0, "FIFO queues send some packets ahead of more urgent ones");
    }

    @Test
    void aStrictFabricTakesTheModelsThresholdsForTheRunsWorkloadAndLoad() throws IOException
    {
        final SimFabric fabric = SimFabric.paper().withQueues("strict:4", 225_000);
        final SimFabric resolved = fabric.withThresholdsFor(FlowSizeDistribution.load("websearch"), 0.5);
        assertTrue(resolved.discipline().startsWith("strict:4:"), resolved.discipline());
        assertFalse(resolved.discipline().endsWith(":model"), resolved.discipline());
        final SimFabric given = SimFabric.paper().withQueues("strict:2:5000", 225_000);
        assertEquals(given, given.withThresholdsFor(FlowSizeDistribution.load("websearch"), 0.5));
    }
}
