package io.pfabric.analysis;

import io.pfabric.hostd.workload.FctLogWriter;
import io.pfabric.hostd.workload.FlowSizeDistribution;
import io.pfabric.hostd.workload.WorkloadTrace;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Ideal scheme of the pFabric paper (Algorithm 1) at flow level, on a non-blocking fabric where only the hosts'
 * access links constrain: whenever a flow arrives or finishes, walk the active flows in increasing remaining size
 * (ties by arrival) and run each whose source and destination are both free, at the full access rate, marking both
 * busy. A flow of n segments occupies its links for n full packets on the wire; its completion time adds the idle
 * path's latency beyond one packet's serialization, so that a flow alone on the fabric completes in exactly the
 * best possible time: base RTT + (n - 1) × packet time.
 */
public final class IdealScheduler
{
    private static final int SEGMENT_PAYLOAD_BYTES = FlowSizeDistribution.SEGMENT_PAYLOAD_BYTES;
    private static final int SEGMENT_WIRE_BYTES = FlowSizeDistribution.SEGMENT_WIRE_BYTES;

    /**
     * A flow to schedule.
     *
     * @param flowId          its id.
     * @param sourceHost      index of the sending host.
     * @param destinationHost index of the receiving host.
     * @param sizeBytes       payload bytes.
     * @param startNs         arrival time.
     */
    public record Flow(long flowId, int sourceHost, int destinationHost, long sizeBytes, long startNs)
    {
    }

    /**
     * A scheduled flow.
     *
     * @param flow  the flow.
     * @param endNs when its last byte is acknowledged.
     */
    public record Result(Flow flow, long endNs)
    {
        /**
         * The flow completion time.
         *
         * @return nanoseconds.
         */
        public long fctNs()
        {
            return endNs - flow.startNs();
        }
    }

    /**
     * The idle path's round trip between two hosts: one full packet there and its ACK back.
     */
    @FunctionalInterface
    public interface BaseRtt
    {
        /**
         * The base RTT.
         *
         * @param sourceHost      sending host.
         * @param destinationHost receiving host.
         * @return nanoseconds.
         */
        long nanos(int sourceHost, int destinationHost);
    }

    private final long rateBitsPerSec;
    private final BaseRtt baseRtt;
    private final int segmentWireLength;

    /**
     * A scheduler.
     *
     * @param rateBitsPerSec the hosts' access link rate.
     * @param baseRtt        the base RTT of each path.
     */
    public IdealScheduler(final long rateBitsPerSec, final BaseRtt baseRtt)
    {
        this(rateBitsPerSec, baseRtt, SEGMENT_WIRE_BYTES);
    }

    /**
     * A scheduler whose full segment takes another wire length than the paper's 1,500 bytes (the simulator counts
     * its real headers, FCS, preamble and gap).
     *
     * @param rateBitsPerSec    the hosts' access link rate.
     * @param baseRtt           the base RTT of each path.
     * @param segmentWireLength bytes of wire time a full segment takes.
     */
    public IdealScheduler(final long rateBitsPerSec, final BaseRtt baseRtt, final int segmentWireLength)
    {
        if (rateBitsPerSec <= 0 || segmentWireLength <= 0)
        {
            throw new IllegalArgumentException("the rate and the wire length must be positive: " + rateBitsPerSec +
                ", " + segmentWireLength);
        }
        this.rateBitsPerSec = rateBitsPerSec;
        this.baseRtt = baseRtt;
        this.segmentWireLength = segmentWireLength;
    }

    /**
     * Segments of a flow.
     *
     * @param sizeBytes payload bytes.
     * @return whole segments, at least 1.
     */
    public static long segments(final long sizeBytes)
    {
        return Math.max(1, (sizeBytes + SEGMENT_PAYLOAD_BYTES - 1) / SEGMENT_PAYLOAD_BYTES);
    }

    /**
     * The best possible completion time of a flow alone on the idle fabric: base RTT + (n - 1) packet times.
     *
     * @param flow the flow.
     * @return nanoseconds.
     */
    public double idealFctNs(final Flow flow)
    {
        return baseRtt.nanos(flow.sourceHost(), flow.destinationHost()) +
            (segments(flow.sizeBytes()) - 1) * packetTimeNs();
    }

    private double packetTimeNs()
    {
        return segmentWireLength * 8e9 / rateBitsPerSec;
    }

    /**
     * Schedule every flow.
     *
     * @param flows in any order.
     * @return one result per flow, in order of arrival.
     */
    public List<Result> run(final List<Flow> flows)
    {
        final List<Active> arrivals = new ArrayList<>();
        int hosts = 0;
        for (int i = 0; i < flows.size(); i++)
        {
            final Flow flow = flows.get(i);
            hosts = Math.max(hosts, Math.max(flow.sourceHost(), flow.destinationHost()) + 1);
            arrivals.add(new Active(flow, i, segments(flow.sizeBytes()) * segmentWireLength * 8.0));
        }
        arrivals.sort(Comparator.comparingLong((Active a) -> a.flow.startNs()).thenComparingInt(a -> a.order));
        final double bitsPerNs = rateBitsPerSec / 1e9;
        final boolean[] sourceBusy = new boolean[hosts];
        final boolean[] destinationBusy = new boolean[hosts];
        final List<Active> active = new ArrayList<>();
        final Result[] results = new Result[flows.size()];
        final Comparator<Active> byRemaining =
            Comparator.comparingDouble((Active a) -> a.remainingBits).thenComparingInt(a -> a.order);
        int next = 0;
        double nowNs = arrivals.isEmpty() ? 0 : arrivals.get(0).flow.startNs();
        while (next < arrivals.size() || !active.isEmpty())
        {
            while (next < arrivals.size() && arrivals.get(next).flow.startNs() <= nowNs)
            {
                active.add(arrivals.get(next++));
            }
            active.sort(byRemaining);
            Arrays.fill(sourceBusy, false);
            Arrays.fill(destinationBusy, false);
            double nextEventNs = next < arrivals.size() ? arrivals.get(next).flow.startNs() : Double.MAX_VALUE;
            for (final Active flow : active)
            {
                final int source = flow.flow.sourceHost();
                final int destination = flow.flow.destinationHost();
                flow.running = !sourceBusy[source] && !destinationBusy[destination];
                if (flow.running)
                {
                    sourceBusy[source] = true;
                    destinationBusy[destination] = true;
                    nextEventNs = Math.min(nextEventNs, nowNs + flow.remainingBits / bitsPerNs);
                }
            }
            final double elapsedNs = nextEventNs - nowNs;
            final List<Active> finished = new ArrayList<>();
            for (final Active flow : active)
            {
                if (flow.running)
                {
                    flow.remainingBits -= elapsedNs * bitsPerNs;
                    if (flow.remainingBits <= 1e-6)
                    {
                        finished.add(flow);
                    }
                }
            }
            nowNs = nextEventNs;
            for (final Active flow : finished)
            {
                active.remove(flow);
                final double latencyNs =
                    baseRtt.nanos(flow.flow.sourceHost(), flow.flow.destinationHost()) - packetTimeNs();
                results[flow.order] = new Result(flow.flow, Math.round(nowNs + latencyNs));
            }
        }
        final List<Result> inArrivalOrder = new ArrayList<>(flows.size());
        for (final Active arrival : arrivals)
        {
            inArrivalOrder.add(results[arrival.order]);
        }
        return inArrivalOrder;
    }

    private static final class Active
    {
        final Flow flow;
        final int order;
        double remainingBits;
        boolean running;

        Active(final Flow flow, final int order, final double remainingBits)
        {
            this.flow = flow;
            this.order = order;
            this.remainingBits = remainingBits;
        }
    }

    /**
     * Schedule a trace and write the FCT log hostd writes, scheme {@code ideal}, with the flows' DSCPs when any is
     * marked (Ideal itself has no classes: it schedules every flow by SRPT whatever its DSCP).
     *
     * @param trace     the flows.
     * @param hostNames host names by index.
     * @param file      where to write the log.
     * @throws IOException if it cannot be written.
     */
    public void writeFctLog(final List<WorkloadTrace.FlowSpec> trace, final List<String> hostNames, final Path file)
        throws IOException
    {
        final List<Flow> flows = new ArrayList<>(trace.size());
        final Map<Long, Integer> dscpByFlow = new HashMap<>();
        final Map<Long, Long> deadlineByFlow = new HashMap<>();
        for (final WorkloadTrace.FlowSpec flow : trace)
        {
            if (flow.hasDeadline())
            {
                deadlineByFlow.put(flow.flowIndex(), flow.deadlineNs());
            }
            flows.add(new Flow(flow.flowIndex(), flow.sourceHost(), flow.destinationHost(), flow.sizeBytes(),
                flow.startNs()));
            if (0 != flow.dscp())
            {
                dscpByFlow.put(flow.flowIndex(), flow.dscp());
            }
        }
        try (FctLogWriter log = new FctLogWriter(file, !dscpByFlow.isEmpty(), !deadlineByFlow.isEmpty()))
        {
            for (final Result result : run(flows))
            {
                final Flow flow = result.flow();
                log.append(flow.flowId(), hostNames.get(flow.sourceHost()), hostNames.get(flow.destinationHost()),
                    flow.sizeBytes(), flow.startNs(), result.endNs(), 0, 0, "ideal",
                    dscpByFlow.getOrDefault(flow.flowId(), 0), deadlineByFlow.getOrDefault(flow.flowId(), 0L));
            }
        }
    }
}
