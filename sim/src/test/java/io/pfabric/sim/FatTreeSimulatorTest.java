package io.pfabric.sim;

import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.hostd.workload.WorkloadTrace;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The simulator on a three-tier fat-tree: the HotNets'12 fabric's round trips, the switches a packet crosses between
 * pods and the spraying over every core switch, and a fattree:4 run of every scheme that completes every flow.
 */
class FatTreeSimulatorTest
{
    private static final long SECOND_NS = 1_000_000_000L;

    private static Simulator.Result runOne(final SimFabric fabric, final int source, final int destination,
        final long size, final TransmitObserver observer)
    {
        final Simulator simulator =
            new Simulator(fabric, Simulator.Scheme.PFABRIC, SimSettings.forFabric(fabric), 1);
        simulator.transmitObserver(observer);
        final Simulator.Result result =
            simulator.run(List.of(new WorkloadTrace.FlowSpec(0, source, destination, size, 1_000)), SECOND_NS);
        assertNotNull(result.records()[0], "the flow completed");
        return result;
    }

    @Test
    void theHotNetsFabricHasA12UsRoundTripAcrossPods()
    {
        final SimFabric fabric = SimFabric.hotNets();

        assertEquals(54, fabric.hosts());
        assertEquals(12_000, fabric.baseRttNs(0, 53));
        assertEquals(fabric.baseRttNs(0, 53), fabric.baseRttNs(0, 9), "any two pods");
        assertEquals(2, fabric.coreLinksBetween(0, 8), "within pod 0: h1 and h9");
        assertEquals(4, fabric.coreLinksBetween(0, 9));
        assertEquals(0, fabric.coreLinksBetween(0, 2));
        assertEquals(8_576, fabric.baseRttNs(0, 3), "within a pod: 2 switch links each way");
        assertEquals(5_152, fabric.baseRttNs(0, 1), "under one edge switch");
        for (final int destination : new int[]{ 1, 3, 53 })
        {
            final FlowRecord record = runOne(fabric, 0, destination, 1_460, null).records()[0];
            assertEquals(fabric.baseRttNs(0, destination), record.fctNs(), "a lone segment to " + destination);
            assertEquals(0, record.timeouts());
        }
    }

    @Test
    void aPacketBetweenPodsCrossesFiveSwitchesAndTheFlowIsSprayedOverEveryCore()
    {
        final SimFabric fabric = SimFabric.hotNets();
        final int firstCore = fabric.leaves() + fabric.aggregations();
        final int nics = firstCore + fabric.spines();
        final int[] dataByTier = new int[4];
        final Set<Integer> cores = new HashSet<>();
        final Set<Integer> aggregations = new HashSet<>();
        final int segments = 400;

        final Simulator.Result result = runOne(fabric, 0, 53, segments * 1_460L, (switchIndex, port, nowNs, payload) ->
        {
            if (payload > 0 && switchIndex != nics)
            {
                final int tier = switchIndex < fabric.leaves() ? 0 : switchIndex < firstCore ? 1 : 2;
                dataByTier[tier]++;
                if (2 == tier)
                {
                    cores.add(switchIndex);
                }
                else if (1 == tier)
                {
                    aggregations.add(switchIndex);
                }
            }
        });

        assertEquals(0, result.droppedPackets());
        assertEquals(0, result.records()[0].timeouts());
        assertEquals(2 * segments, dataByTier[0], "every segment left two edge switches");
        assertEquals(2 * segments, dataByTier[1], "and two aggregation switches");
        assertEquals(segments, dataByTier[2], "and one core switch: five switches in all");
        assertEquals(fabric.spines(), cores.size(), "sprayed over every core switch");
        assertEquals(2 * fabric.hostsPerLeaf(), aggregations.size(), "over every aggregation switch of both pods");
    }

    @Test
    void aPacketWithinAPodStaysBelowTheCore()
    {
        final SimFabric fabric = SimFabric.hotNets();
        final int firstCore = fabric.leaves() + fabric.aggregations();
        final int[] coreData = { 0 };

        runOne(fabric, 0, 8, 100 * 1_460L, (switchIndex, port, nowNs, payload) ->
        {
            if (payload > 0 && switchIndex >= firstCore && switchIndex < firstCore + fabric.spines())
            {
                coreData[0]++;
            }
        });

        assertEquals(0, coreData[0]);
    }

    @Test
    void everySchemeCompletesEveryFlowOnAFatTreeOfFourPortSwitches()
    {
        final SimFabric fabric = SimFabric.fatTree(4, 10_000_000_000L, 10_000_000_000L, 632, 200, 22_500, "pfabric");
        final SplittableRandom random = new SplittableRandom(7);
        final List<WorkloadTrace.FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < 300; i++)
        {
            final int source = random.nextInt(fabric.hosts());
            final int destination = (source + 1 + random.nextInt(fabric.hosts() - 1)) % fabric.hosts();
            flows.add(new WorkloadTrace.FlowSpec(i, source, destination, 1_000L + random.nextInt(400_000), i * 2_000L));
        }
        final SimSettings settings = SimSettings.forFabric(fabric);
        for (final Simulator.Scheme scheme : new Simulator.Scheme[]{
            Simulator.Scheme.PFABRIC, Simulator.Scheme.LINERATE, Simulator.Scheme.TCP, Simulator.Scheme.DCTCP })
        {
            final SimFabric queues = scheme.isTcp() ?
                fabric.withQueues(Simulator.Scheme.TCP == scheme ? "droptail" : "ecn", SimRun.BASELINE_BUFFER_LENGTH) :
                fabric;
            final Simulator.Result result = new Simulator(queues, scheme, settings, 3).run(flows, SECOND_NS);
            for (int i = 0; i < flows.size(); i++)
            {
                assertNotNull(result.records()[i], scheme + ": flow " + i + " completed");
                assertEquals(flows.get(i).sizeBytes(), result.records()[i].sizeBytes());
            }
            assertEquals(result.sentPackets(), result.receivedPackets() + result.droppedPackets(),
                scheme + ": every packet sent was received or dropped at a port");
        }
    }

    @Test
    void aFatTreeKeepsItsShapeThroughItsCopiesAndRefusesAnOddK()
    {
        final SimFabric fabric = SimFabric.hotNets();

        assertEquals(6, fabric.withQueues("droptail", 225_000).pods());
        assertEquals(fabric.baseRttNs(0, 53), fabric.withQueues("ecn", 225_000).baseRttNs(0, 53));
        final SimFabric fitted = fabric.withBaseRtts(20_000, 40_000);
        assertEquals(6, fitted.pods());
        assertEquals(20_000, fitted.baseRttNs(0, 1), 4);
        assertEquals(40_000, fitted.baseRttNs(0, 53), 8);
        assertThrows(IllegalArgumentException.class,
            () -> SimFabric.fatTree(5, 10_000_000_000L, 10_000_000_000L, 0, 0, 22_500, "pfabric"));
        assertThrows(IllegalArgumentException.class, () -> new SimFabric(18, 3, 4, 1, 1, 0, 0, 22_500, "pfabric", 6));
        assertNull(SimSettings.forFabric(fabric).warning());
    }
}
