package io.pfabric.sim;

import io.pfabric.hostd.transport.PiasThresholds;
import io.pfabric.hostd.workload.WorkloadTrace;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PIAS in the simulator: DCTCP hosts tagging their segments by bytes sent, on PIAS queues.
 */
class SimPiasTest
{
    private static final long SECOND_NS = 1_000_000_000L;

    private static Simulator.Result run(final String scheme, final PiasThresholds thresholds,
        final List<WorkloadTrace.FlowSpec> flows, final TransmitObserver observer)
    {
        final SimFabric fabric = SimFabric.paper().withShape(1, 4, 0);
        final SimSettings settings = SimSettings.forFabric(fabric).withPias(thresholds);
        final Simulator simulator = "pias".equals(scheme) ?
            new Simulator(fabric.withQueues(SimRun.piasQueues(fabric, settings), SimRun.BASELINE_BUFFER_LENGTH),
                Simulator.Scheme.PIAS, settings, 1) :
            new Simulator(fabric.withQueues("ecn", SimRun.BASELINE_BUFFER_LENGTH), Simulator.Scheme.DCTCP,
                settings, 1);
        simulator.transmitObserver(observer);
        return simulator.run(flows, SECOND_NS);
    }

    @Test
    void aFlowsSegmentsCarryTheDscpOfTheBytesSentBeforeThemAndItsAcksDscpZero()
    {
        final long[] dataByDscp = new long[8];
        final long[] acksByDscp = new long[8];
        final TransmitObserver observer = new TransmitObserver()
        {
            public void onTransmit(final int switchIndex, final int port, final long nowNs, final int payloadLength)
            {
            }

            public void onTransmit(final int switchIndex, final int port, final long nowNs, final int payloadLength,
                final int frameLength, final int dscp)
            {
                (payloadLength > 0 ? dataByDscp : acksByDscp)[dscp]++;
            }
        };
        final Simulator.Result result = run("pias", PiasThresholds.of(10 * 1_460, 20 * 1_460),
            List.of(new WorkloadTrace.FlowSpec(0, 0, 1, 50 * 1_460L, 0)), observer);
        assertNotNull(result.records()[0]);
        assertEquals(0, result.droppedPackets());
        // Each segment crosses the source's NIC and the switch: segments 0-10 start at or below 10 x 1460 bytes,
        // 11-20 at or below 20 x 1460, 21-49 beyond.
        assertArrayEquals(new long[]{ 2 * 11, 2 * 10, 2 * 29, 0, 0, 0, 0, 0 }, dataByDscp);
        assertTrue(acksByDscp[0] > 0);
        assertEquals(acksByDscp[0], acksByDscp[0] + acksByDscp[1] + acksByDscp[2]);
    }

    @Test
    void aNewFlowPassesDemotedLongOnesUnderPiasAndWaitsBehindThemUnderDctcp()
    {
        final List<WorkloadTrace.FlowSpec> flows = List.of(
            new WorkloadTrace.FlowSpec(0, 1, 0, 3_000_000L, 0),
            new WorkloadTrace.FlowSpec(1, 2, 0, 3_000_000L, 0),
            new WorkloadTrace.FlowSpec(2, 3, 0, 20_000L, 1_000_000L));
        final long piasNs = run("pias", PiasThresholds.WEB_SEARCH, flows, null).records()[2].fctNs();
        final long dctcpNs = run("dctcp", PiasThresholds.WEB_SEARCH, flows, null).records()[2].fctNs();
        final long aloneNs = run("pias", PiasThresholds.WEB_SEARCH, List.of(flows.get(2)), null).records()[0].fctNs();
        assertTrue(piasNs < dctcpNs, "pias " + piasNs + " ns, dctcp " + dctcpNs + " ns");
        assertTrue(piasNs - aloneNs < (dctcpNs - aloneNs) / 4, "pias " + piasNs + " ns, dctcp " + dctcpNs +
            " ns, alone " + aloneNs + " ns");
    }
}
