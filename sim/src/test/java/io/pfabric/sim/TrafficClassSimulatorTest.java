package io.pfabric.sim;

import io.pfabric.common.topology.TrafficClasses;
import io.pfabric.dataplane.queue.PfabricClassQueue;
import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.workload.WorkloadTrace;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * pfabric-classes in the simulator: two classes of weights 3 and 1 share the port to one receiver, each from three
 * senders of two flows, all starting at once, on a star of 7 hosts (the paper's rates, delays and buffer). The hosts
 * run hostd's transport without a window (linerate), so that each class offers three times the port's rate until its
 * flows are done: with a window, a class whose flows all wait on a timeout leaves the round for a while.
 * <p>
 * The bound on the split is deficit round robin's (Shreedhar and Varghese): while both classes stay backlogged,
 * class i's deficit grows by its quantum Q<sub>i</sub> at the start of each turn and is, after the turn, less than
 * the class's next frame, at most the longest frame M. So a whole turn sends Q<sub>i</sub> + D<sub>before</sub> -
 * D<sub>after</sub> bytes, within M of Q<sub>i</sub>; n consecutive whole turns send n Q<sub>i</sub> within M (the
 * deficits telescope); and over k whole rounds the classes' bytes per unit of weight differ by less than
 * M / w<sub>0</sub> + M / w<sub>1</sub>.
 */
class TrafficClassSimulatorTest
{
    static final int RECEIVER = 0;
    static final int LEAF = 0;
    static final int[] WEIGHTS = { 3, 1 };
    private static final long SECOND_NS = 1_000_000_000L;
    private static final int CLASS_0_DSCP = 0;
    private static final int CLASS_1_DSCP = 8;

    /**
     * A frame the receiver's port started to send: its class, its length, and whether both classes still held
     * frames once it had left the queue (no class left the round).
     */
    private record Departure(int trafficClass, int length, boolean bothBacklogged)
    {
    }

    /**
     * A turn: consecutive frames of one class within a stretch in which both classes stayed backlogged.
     */
    private record Turn(int trafficClass, long bytes)
    {
    }

    /**
     * Six senders under one leaf, three per class, each with two flows that saturate the receiver's port: class 0's
     * 2.5 times as long.
     */
    static List<WorkloadTrace.FlowSpec> flows()
    {
        final List<WorkloadTrace.FlowSpec> flows = new ArrayList<>();
        int index = 0;
        for (int sender = 1; sender <= 6; sender++)
        {
            final boolean classZero = sender <= 3;
            for (int k = 0; k < 2; k++)
            {
                final int rank = 2 * ((sender - 1) % 3) + k + 1;
                final long segments = classZero ? 200L * rank : 80L * rank;
                flows.add(new WorkloadTrace.FlowSpec(index++, sender, RECEIVER, segments * 1_460,
                    0, classZero ? CLASS_0_DSCP : CLASS_1_DSCP));
            }
        }
        return flows;
    }

    /**
     * The paper's fabric cut to one leaf of seven hosts, classes of {@link #WEIGHTS} on DSCPs 0-7 and 8-15, line-rate
     * hosts, for {@link #flows()}.
     */
    static Simulator saturatedSimulator()
    {
        final SimFabric fabric = SimFabric.paper().withShape(1, 7, 0)
            .withClasses(TrafficClasses.parse(WEIGHTS[0] + ":0-7;" + WEIGHTS[1] + ":8-15"));
        return new Simulator(fabric, TransportConfiguration.PAPER.withLineRate(), 7);
    }

    @Test
    void twoSaturatingClassesSplitThePortByWeightWithinDrrsBoundAndEachKeepsSizeOrder()
    {
        final Simulator simulator = saturatedSimulator();
        final PfabricClassQueue queue = assertInstanceOf(PfabricClassQueue.class, simulator.queue(LEAF, RECEIVER));
        final List<Departure> departures = new ArrayList<>();
        simulator.transmitObserver(new TransmitObserver()
        {
            public void onTransmit(final int switchIndex, final int port, final long nowNs, final int payloadLength)
            {
            }

            public void onTransmit(final int switchIndex, final int port, final long nowNs, final int payloadLength,
                final int frameLength, final int dscp)
            {
                if (LEAF == switchIndex && RECEIVER == port)
                {
                    departures.add(new Departure(queue.classOf(dscp), frameLength,
                        queue.classPacketCount(0) > 0 && queue.classPacketCount(1) > 0));
                }
            }
        });
        final List<WorkloadTrace.FlowSpec> flows = flows();
        final Simulator.Result result = simulator.run(flows, SECOND_NS);

        for (final int trafficClass : new int[]{ 0, 1 })
        {
            long previousEndNs = -1;
            for (final WorkloadTrace.FlowSpec flow : flows.stream()
                .filter(f -> queue.classOf(f.dscp()) == trafficClass)
                .sorted((a, b) -> Long.compare(a.sizeBytes(), b.sizeBytes())).toList())
            {
                final FlowRecord record = result.records()[(int)flow.flowIndex()];
                assertNotNull(record, "flow " + flow.flowIndex() + " completed");
                assertTrue(record.endNs() > previousEndNs, "class " + trafficClass + ": the flow of " +
                    flow.sizeBytes() + " B finished after every smaller flow of its class");
                previousEndNs = record.endNs();
            }
        }

        final int longestFrame = departures.stream().mapToInt(Departure::length).max().orElseThrow();
        assertTrue(longestFrame <= queue.maxFrameLength());
        final List<Turn> turns = longestStretchOfWholeTurns(departures);
        final long busyBytes = departures.stream().mapToLong(Departure::length).sum();
        final long stretchBytes = turns.stream().mapToLong(Turn::bytes).sum();
        assertTrue(stretchBytes > busyBytes * 85 / 100, "both classes stayed backlogged for most of the busy " +
            "period: " + stretchBytes + " of " + busyBytes + " B in whole turns of one stretch");

        final long[] sum = new long[2];
        final int[] count = new int[2];
        for (final Turn turn : turns)
        {
            final int k = turn.trafficClass();
            final long quantum = queue.quantumLength(k);
            assertEquals((long)WEIGHTS[k] * queue.maxFrameLength(), quantum);
            assertTrue(Math.abs(turn.bytes() - quantum) < longestFrame,
                "a whole turn of class " + k + " sends its quantum " + quantum + " within a frame: " + turn.bytes());
            sum[k] += turn.bytes();
            count[k]++;
            assertTrue(Math.abs(sum[k] - count[k] * quantum) < longestFrame,
                "class " + k + "'s first " + count[k] + " turns send that many quanta within a frame: " + sum[k]);
        }
        final int rounds = Math.min(count[0], count[1]);
        final long[] roundBytes = new long[2];
        final int[] taken = new int[2];
        for (final Turn turn : turns)
        {
            if (taken[turn.trafficClass()] < rounds)
            {
                taken[turn.trafficClass()]++;
                roundBytes[turn.trafficClass()] += turn.bytes();
            }
        }
        final double perWeightGap = Math.abs((double)roundBytes[0] / WEIGHTS[0] - (double)roundBytes[1] / WEIGHTS[1]);
        assertTrue(perWeightGap < (double)longestFrame / WEIGHTS[0] + (double)longestFrame / WEIGHTS[1],
            "over " + rounds + " rounds the classes sent " + roundBytes[0] + " and " + roundBytes[1] + " B");
    }

    @Test
    void aSendingHostSharesItsLinkBetweenClassesByWeightNotBySizeAcrossClasses()
    {
        final SimFabric fabric = SimFabric.paper().withShape(1, 3, 0)
            .withClasses(TrafficClasses.parse(WEIGHTS[0] + ":0-7;" + WEIGHTS[1] + ":8-15"));
        final Simulator simulator = new Simulator(fabric, TransportConfiguration.PAPER, 7);
        final int sender = 1;
        final int class0Receiver = 0;
        final int class1Receiver = 2;
        final long class0Segments = 2_000;
        final List<Departure> departures = new ArrayList<>();
        simulator.transmitObserver(new TransmitObserver()
        {
            public void onTransmit(final int switchIndex, final int port, final long nowNs, final int payloadLength)
            {
            }

            public void onTransmit(final int switchIndex, final int port, final long nowNs, final int payloadLength,
                final int frameLength, final int dscp)
            {
                if (LEAF == switchIndex && (class0Receiver == port || class1Receiver == port) && payloadLength > 0)
                {
                    departures.add(new Departure(CLASS_0_DSCP == dscp ? 0 : 1, frameLength, true));
                }
            }
        });
        final List<WorkloadTrace.FlowSpec> flows = List.of(
            new WorkloadTrace.FlowSpec(0, sender, class0Receiver, class0Segments * 1_460, 0, CLASS_0_DSCP),
            new WorkloadTrace.FlowSpec(1, sender, class1Receiver, 1_000L * 1_460, 0, CLASS_1_DSCP));
        final Simulator.Result result = simulator.run(flows, SECOND_NS);

        assertNotNull(result.records()[0]);
        assertNotNull(result.records()[1]);
        assertTrue(result.records()[0].endNs() < result.records()[1].endNs(), "the larger flow of the heavier class " +
            "finished first: SRPT across classes would have sent the class 1 flow, half its size, first");
        final long[] bytes = new long[2];
        int longestFrame = 0;
        int class0Packets = 0;
        for (final Departure departure : departures)
        {
            if (class0Packets == class0Segments)
            {
                break;
            }
            bytes[departure.trafficClass()] += departure.length();
            longestFrame = Math.max(longestFrame, departure.length());
            class0Packets += 0 == departure.trafficClass() ? 1 : 0;
        }
        final double perWeightGap = Math.abs((double)bytes[0] / WEIGHTS[0] - (double)bytes[1] / WEIGHTS[1]);
        assertTrue(perWeightGap < 2.0 * longestFrame, "while both flows sent, the host's link carried " + bytes[0] +
            " B of class 0 and " + bytes[1] + " B of class 1");
    }

    /**
     * The whole turns of the longest stretch of departures after each of which both classes still held frames; the
     * stretch's first and last turns are left out, since the stretch may begin or end within them.
     */
    private static List<Turn> longestStretchOfWholeTurns(final List<Departure> departures)
    {
        List<Turn> best = List.of();
        int i = 0;
        while (i < departures.size())
        {
            if (!departures.get(i).bothBacklogged())
            {
                i++;
                continue;
            }
            final List<Turn> turns = new ArrayList<>();
            int trafficClass = departures.get(i).trafficClass();
            long bytes = 0;
            while (i < departures.size() && departures.get(i).bothBacklogged())
            {
                final Departure departure = departures.get(i);
                if (departure.trafficClass() != trafficClass)
                {
                    turns.add(new Turn(trafficClass, bytes));
                    trafficClass = departure.trafficClass();
                    bytes = 0;
                }
                bytes += departure.length();
                i++;
            }
            turns.add(new Turn(trafficClass, bytes));
            if (turns.size() > 2 && turns.size() - 2 > best.size())
            {
                best = turns.subList(1, turns.size() - 1);
            }
        }
        return best;
    }
}
