package io.pfabric.sim;

import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.hostd.workload.FlowSizeDistribution;
import io.pfabric.hostd.workload.WorkloadTrace;
import io.pfabric.sim.pdq.PdqSettings;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PDQ end to end in the simulator: a small trace on a small leaf-spine, every variant, per-flow ECMP and spraying.
 */
class SimPdqTest
{
    private static final long LIMIT_NS = 10_000_000_000L;
    private static final SimFabric FABRIC = SimFabric.paper().withShape(2, 4, 2)
        .withQueues("droptail", SimRun.BASELINE_BUFFER_LENGTH);

    private static List<WorkloadTrace.FlowSpec> trace() throws IOException
    {
        return WorkloadTrace.generate(FABRIC.hosts(), 0.6, FABRIC.edgeRateBitsPerSec(),
            FlowSizeDistribution.load("websearch"), 3, 40, 0);
    }

    private static Simulator simulator(final String variant, final boolean spray)
    {
        final SimSettings settings = SimSettings.forFabric(FABRIC);
        return new Simulator(FABRIC, PdqSettings.forScheme(variant, settings.baseRttNs(), spray), settings, 5);
    }

    @Test
    void everyFlowCompletesUnderEveryVariantAndEveryLinkForgetsItsFlows() throws IOException
    {
        final List<WorkloadTrace.FlowSpec> trace = trace();
        for (final String variant : PdqSettings.VARIANTS)
        {
            for (final boolean spray : new boolean[]{ false, true })
            {
                final Simulator simulator = simulator(variant, spray);
                final Simulator.Result result = simulator.run(trace, LIMIT_NS);
                for (int i = 0; i < trace.size(); i++)
                {
                    assertNotNull(result.records()[i], variant + (spray ? " sprayed" : "") + ": flow " + i);
                }
                assertEquals(result.sentPackets(), result.receivedPackets() + result.droppedPackets(),
                    "every packet accounted for");
                for (int s = 0; s < simulator.switchCount(); s++)
                {
                    for (int p = 0; p < simulator.portCount(s); p++)
                    {
                        assertEquals(0, simulator.pdqController(s, p).listSize(),
                            variant + (spray ? " sprayed" : "") + ": the TERMs emptied link " + s + "/" + p);
                    }
                }
            }
        }
    }

    @Test
    void theSameSeedGivesTheSameRun() throws IOException
    {
        final List<WorkloadTrace.FlowSpec> trace = trace();
        final FlowRecord[] first = simulator("pdq", false).run(trace, LIMIT_NS).records();
        final FlowRecord[] second = simulator("pdq", false).run(trace, LIMIT_NS).records();
        assertArrayEquals(first, second);
        assertTrue(Arrays.stream(first).allMatch(r -> r.fctNs() > 0));
    }

    @Test
    void aLoneFlowStartsDataOneRttAfterItsSyn()
    {
        final long segments = 100;
        final FlowRecord record = simulator("pdq", false)
            .run(List.of(new WorkloadTrace.FlowSpec(0, 0, 5, segments * 1_460, 0, 0)), LIMIT_NS).records()[0];
        final long idleNs = FABRIC.baseRttNs(0, 5);
        final long serializationNs = segments * 1_247;
        assertTrue(record.fctNs() > idleNs + serializationNs && record.fctNs() < 2 * idleNs + serializationNs + 2_000,
            "one RTT for the SYN, then the flow at line rate: " + record.fctNs());
    }

    @Test
    void anUnknownVariantNamesTheOption()
    {
        final IllegalArgumentException error =
            assertThrows(IllegalArgumentException.class, () -> SimRun.requireScheme("pdq-fast"));
        assertTrue(error.getMessage().startsWith("--scheme: unknown PDQ variant 'pdq-fast'"), error.getMessage());
    }
}
