package io.pfabric.sim;

import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.workload.WorkloadTrace;
import io.pfabric.dataplane.pacer.EgressPacer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CancellationException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SimulatorTest
{
    private static final int DATA_FRAME = Simulator.FRAME_OVERHEAD + 32 + 1_460;
    private static final int ACK_FRAME = Simulator.FRAME_OVERHEAD + 32;
    private static final long SECOND_NS = 1_000_000_000L;

    private static long wire(final int frameLength, final long rateBitsPerSec)
    {
        return new EgressPacer(rateBitsPerSec, 1).wireTimeNs(frameLength);
    }

    /**
     * The idle-fabric FCT of n full segments: the source serializes all n, the last crosses every hop store and
     * forward, and its ACK comes back the same way.
     */
    private static long idleFctNs(final SimFabric fabric, final long segments, final boolean acrossSpine)
    {
        final long edge = fabric.edgeRateBitsPerSec();
        final long core = fabric.coreRateBitsPerSec();
        long oneWayData = fabric.edgeDelayNs() + wire(DATA_FRAME, edge) + fabric.edgeDelayNs();
        long oneWayAck = wire(ACK_FRAME, edge) + fabric.edgeDelayNs() + wire(ACK_FRAME, edge) + fabric.edgeDelayNs();
        if (acrossSpine)
        {
            oneWayData += 2 * (wire(DATA_FRAME, core) + fabric.coreDelayNs());
            oneWayAck += 2 * (wire(ACK_FRAME, core) + fabric.coreDelayNs());
        }
        return segments * wire(DATA_FRAME, edge) + oneWayData + oneWayAck;
    }

    private static FlowRecord runOne(final SimFabric fabric, final int source, final int destination, final long size)
    {
        final Simulator simulator = new Simulator(fabric, TransportConfiguration.PAPER, 1);
        final Simulator.Result result = simulator.run(
            List.of(new WorkloadTrace.FlowSpec(0, source, destination, size, 1_000)), SECOND_NS);
        assertNotNull(result.records()[0], "the flow completed");
        return result.records()[0];
    }

    @Test
    void aLoneFlowTakesExactlyTheIdleFabricTime()
    {
        final SimFabric fabric = SimFabric.paper();
        for (final long segments : new long[]{ 1, 1_000 })
        {
            final FlowRecord inRack = runOne(fabric, 0, 1, segments * 1_460);
            assertEquals(idleFctNs(fabric, segments, false), inRack.fctNs(), segments + " segments within a rack");
            assertEquals(0, inRack.timeouts());
            final FlowRecord acrossSpine = runOne(fabric, 0, 17, segments * 1_460);
            assertEquals(idleFctNs(fabric, segments, true), acrossSpine.fctNs(), segments + " segments across");
            assertEquals(0, acrossSpine.timeouts());
        }
        assertEquals(fabric.baseRttNs(0, 1), runOne(fabric, 0, 1, 1_460).fctNs(), "base RTT within a rack");
        assertEquals(fabric.baseRttNs(0, 17), runOne(fabric, 0, 17, 1_460).fctNs(), "base RTT across the spine");
    }

    @Test
    void anIncastDeliversEveryFlowAndTheShortestFirst()
    {
        final SimFabric fabric = SimFabric.paper().withShape(1, 9, 0);
        final List<WorkloadTrace.FlowSpec> flows = new ArrayList<>();
        for (int sender = 1; sender <= 8; sender++)
        {
            flows.add(new WorkloadTrace.FlowSpec(sender, sender, 0, sender * 200_000L, 0));
        }
        final Simulator.Result result =
            new Simulator(fabric, TransportConfiguration.PAPER, 3).run(flows, SECOND_NS);
        final long[] ends = new long[flows.size()];
        for (int i = 0; i < flows.size(); i++)
        {
            assertNotNull(result.records()[i], "flow " + i + " completed");
            ends[i] = result.records()[i].endNs();
        }
        for (int i = 1; i < ends.length; i++)
        {
            assertTrue(ends[i - 1] < ends[i], "completion in size order: " + Arrays.toString(ends));
        }
        assertTrue(result.droppedPackets() > 0, "the receiver's port dropped under the incast");
        assertEquals(result.sentPackets(), result.receivedPackets() + result.droppedPackets(),
            "every packet sent was received or dropped at a port");
        for (int i = 0; i < flows.size(); i++)
        {
            assertEquals(flows.get(i).sizeBytes(), result.records()[i].sizeBytes());
        }
    }

    @Test
    void theSameSeedGivesTheSameRun()
    {
        final SimFabric fabric = SimFabric.paper().withShape(2, 4, 2);
        final List<WorkloadTrace.FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < 40; i++)
        {
            flows.add(new WorkloadTrace.FlowSpec(i, i % 8, (i * 3 + 1) % 8 == i % 8 ? (i + 1) % 8 : (i * 3 + 1) % 8,
                10_000L + 37_000L * (i % 7), i * 2_000L));
        }
        final Simulator.Result first = new Simulator(fabric, TransportConfiguration.PAPER, 42).run(flows, SECOND_NS);
        final Simulator.Result second = new Simulator(fabric, TransportConfiguration.PAPER, 42).run(flows, SECOND_NS);
        for (int i = 0; i < flows.size(); i++)
        {
            assertNotNull(first.records()[i]);
            assertEquals(first.records()[i].endNs(), second.records()[i].endNs(), "flow " + i);
        }
        assertEquals(first.events(), second.events());
    }

    @Test
    void aRunOnAnInterruptedThreadStopsAtItsFirstProgressCheck()
    {
        final SimFabric fabric = SimFabric.paper().withShape(1, 3, 0);
        final List<WorkloadTrace.FlowSpec> flows = List.of(new WorkloadTrace.FlowSpec(0, 1, 0, 20_000_000L, 0));
        final Simulator.Result whole = new Simulator(fabric, TransportConfiguration.PAPER, 5).run(flows, SECOND_NS);
        assertNotNull(whole.records()[0]);
        assertTrue(whole.events() > 1 << 16, "the run passes a progress check: " + whole.events() + " events");

        Thread.currentThread().interrupt();
        try
        {
            final Simulator interrupted = new Simulator(fabric, TransportConfiguration.PAPER, 5);
            assertThrows(CancellationException.class, () -> interrupted.run(flows, SECOND_NS));
        }
        finally
        {
            Thread.interrupted();
        }
    }

    @Test
    void aStarvedLongFlowProbesAndFinishesAfterTheShorterOne()
    {
        final SimFabric fabric = SimFabric.paper().withShape(1, 3, 0);
        final List<WorkloadTrace.FlowSpec> flows = List.of(
            new WorkloadTrace.FlowSpec(0, 1, 0, 3_000_000L, 0),
            new WorkloadTrace.FlowSpec(1, 2, 0, 2_000_000L, 0));
        final Simulator.Result result = new Simulator(fabric, TransportConfiguration.PAPER, 5).run(flows, SECOND_NS);
        final FlowRecord longer = result.records()[0];
        final FlowRecord shorter = result.records()[1];
        assertNotNull(longer, "the longer flow completed: it left probe mode");
        assertNotNull(shorter);
        assertTrue(shorter.endNs() < longer.endNs(), "the shorter flow finished first");
        assertTrue(longer.timeouts() >= TransportConfiguration.PAPER.probeAfterTimeouts(),
            "the longer flow was starved into probe mode: " + longer.timeouts() + " timeouts");
        assertEquals(result.sentPackets(), result.receivedPackets() + result.droppedPackets());
    }
}
