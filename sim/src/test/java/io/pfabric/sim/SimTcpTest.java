package io.pfabric.sim;

import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.workload.WorkloadTrace;
import io.pfabric.dataplane.queue.EcnQueue;
import io.pfabric.dataplane.queue.QueueCounter;
import io.pfabric.dataplane.queue.QueueDiscipline;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SimTcpTest
{
    private static final long SECOND_NS = 1_000_000_000L;

    private static Simulator simulator(final SimFabric fabric, final Simulator.Scheme scheme)
    {
        return new Simulator(fabric, scheme, TransportConfiguration.PAPER, 7);
    }

    @Test
    void aLoneFlowCompletesWithoutATimeoutNearTheIdleTime()
    {
        final SimFabric fabric = SimFabric.paper().withQueues("droptail", 225_000);
        for (final Simulator.Scheme scheme : new Simulator.Scheme[]{ Simulator.Scheme.TCP, Simulator.Scheme.DCTCP })
        {
            final Simulator.Result result = simulator(fabric.withQueues(
                Simulator.Scheme.TCP == scheme ? "droptail" : "ecn", 225_000), scheme)
                .run(List.of(new WorkloadTrace.FlowSpec(0, 0, 17, 1_000 * 1_460L, 0)), SECOND_NS);
            final FlowRecord record = result.records()[0];
            assertNotNull(record, scheme + " completed");
            assertEquals(0, record.timeouts());
            assertEquals(0, result.droppedPackets());
            final long segmentsNs = 1_000 * 1_230L;
            assertTrue(record.fctNs() > segmentsNs && record.fctNs() < segmentsNs + 40_000,
                scheme + ": about the serialization of 1000 segments plus slow start: " + record.fctNs());
        }
    }

    @Test
    void tcpFillsTheBufferWhereDctcpHoldsTheQueueNearTheMarkingThreshold()
    {
        final SimFabric star = SimFabric.paper().withShape(1, 5, 0);
        final List<WorkloadTrace.FlowSpec> incast = new ArrayList<>();
        for (int sender = 1; sender <= 4; sender++)
        {
            incast.add(new WorkloadTrace.FlowSpec(sender, sender, 0, 3_000_000L, 0));
        }
        final Simulator tcp = simulator(star.withQueues("droptail", 225_000), Simulator.Scheme.TCP);
        tcp.sampleQueue(0, 0, 1_000);
        final Simulator.Result tcpResult = tcp.run(incast, SECOND_NS);
        final Simulator dctcp = simulator(star.withQueues("ecn", 225_000), Simulator.Scheme.DCTCP);
        dctcp.sampleQueue(0, 0, 1_000);
        final Simulator.Result dctcpResult = dctcp.run(incast, SECOND_NS);
        for (int i = 0; i < incast.size(); i++)
        {
            assertNotNull(tcpResult.records()[i], "tcp flow " + i);
            assertNotNull(dctcpResult.records()[i], "dctcp flow " + i);
        }
        final long tcpHighWater = tcp.queue(0, 0).counters().get(QueueCounter.HIGH_WATER_BYTES);
        assertTrue(tcpHighWater > 200_000, "TCP fills the 225 KB buffer: " + tcpHighWater);
        assertTrue(tcpResult.droppedPackets() > 0, "and drops");
        final QueueDiscipline dctcpBottleneck = dctcp.queue(0, 0);
        assertTrue(dctcpBottleneck.counters().get(QueueCounter.ECN_MARKED_PACKETS) > 0, "DCTCP's queue marks");
        assertEquals(0, dctcpResult.droppedPackets(), "DCTCP does not overflow it");
        final long settled = median(steadyState(dctcp.queueSamples()));
        assertTrue(settled > EcnQueue.DEFAULT_MARKING_THRESHOLD_LENGTH / 2 &&
            settled < 3 * EcnQueue.DEFAULT_MARKING_THRESHOLD_LENGTH,
            "DCTCP's queue settles near K = 22.5 KB once the flows are past slow start: median " + settled);
        assertTrue(median(steadyState(tcp.queueSamples())) > 100_000, "TCP's stands far above it");
        assertEquals(tcpResult.sentPackets(), tcpResult.receivedPackets() + tcpResult.droppedPackets());
        assertEquals(dctcpResult.sentPackets(), dctcpResult.receivedPackets() + dctcpResult.droppedPackets());
    }

    @Test
    void onTheSimulatedFabricANinthConcurrentFlowOfAPairPaysAHandshakeWhereAPerFlowConnectionDoesNot()
    {
        final SimFabric fabric = SimFabric.paper().withQueues("droptail", 225_000);
        final List<WorkloadTrace.FlowSpec> burst = new ArrayList<>();
        for (int i = 0; i <= SimTcp.SCRIPTS_CONNECTIONS_PER_PAIR; i++)
        {
            burst.add(new WorkloadTrace.FlowSpec(i, 0, 17, 1_460, 0));
        }
        final Simulator.Result scripts = simulator(fabric, Simulator.Scheme.TCP).run(burst, SECOND_NS);
        final Simulator.Result perFlow = simulator(fabric, Simulator.Scheme.TCP_PER_FLOW).run(burst, SECOND_NS);
        assertEquals(1, scripts.connectionsOpened());
        assertEquals(0, perFlow.connectionsOpened());
        final long rttNs = fabric.baseRttNs(0, 17);
        final FlowRecord ninth = scripts.records()[SimTcp.SCRIPTS_CONNECTIONS_PER_PAIR];
        final FlowRecord ninthPerFlow = perFlow.records()[SimTcp.SCRIPTS_CONNECTIONS_PER_PAIR];
        assertTrue(ninth.fctNs() > ninthPerFlow.fctNs() + rttNs / 2,
            "the handshake adds about a round trip: " + ninth.fctNs() + " against " + ninthPerFlow.fctNs());
    }

    /**
     * The middle half of a run's samples: past the first flows' slow start, before the last flows' tail.
     */
    private static long[] steadyState(final long[] samples)
    {
        return java.util.Arrays.copyOfRange(samples, samples.length / 4, 3 * samples.length / 4);
    }

    private static long median(final long[] values)
    {
        final long[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
