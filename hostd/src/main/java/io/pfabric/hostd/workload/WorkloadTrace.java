package io.pfabric.hostd.workload;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The flows of a workload run, generated as the pFabric simulations generate them: every host is the source of a
 * Poisson process of flows at {@code load × link rate / (mean size in packets × 1500 × 8)} flows per second (so the
 * load counts headers on the access link), each to a uniformly random other host, its size drawn from the
 * distribution. Deterministic for a seed; each host's process has its own generator, so a host's flows do not depend
 * on how many flows the others draw.
 */
public final class WorkloadTrace
{
    /**
     * One flow.
     *
     * @param flowIndex       position in the trace, in order of start.
     * @param sourceHost      index of the sending host.
     * @param destinationHost index of the receiving host.
     * @param sizeBytes       whole 1460-byte packets.
     * @param startNs         arrival time from the start of the run.
     * @param dscp            IPv4 DSCP of the flow's packets, its traffic class at switches that have classes.
     * @param deadlineNs      time the flow has to complete, from its start; 0 if it has no deadline.
     */
    public record FlowSpec(long flowIndex, int sourceHost, int destinationHost, long sizeBytes, long startNs, int dscp,
        long deadlineNs)
    {
        /**
         * A flow without a deadline.
         *
         * @param flowIndex       position in the trace, in order of start.
         * @param sourceHost      index of the sending host.
         * @param destinationHost index of the receiving host.
         * @param sizeBytes       whole 1460-byte packets.
         * @param startNs         arrival time from the start of the run.
         * @param dscp            IPv4 DSCP of the flow's packets.
         */
        public FlowSpec(
            final long flowIndex, final int sourceHost, final int destinationHost, final long sizeBytes,
            final long startNs, final int dscp)
        {
            this(flowIndex, sourceHost, destinationHost, sizeBytes, startNs, dscp, 0);
        }

        /**
         * A flow of DSCP 0 without a deadline.
         *
         * @param flowIndex       position in the trace, in order of start.
         * @param sourceHost      index of the sending host.
         * @param destinationHost index of the receiving host.
         * @param sizeBytes       whole 1460-byte packets.
         * @param startNs         arrival time from the start of the run.
         */
        public FlowSpec(
            final long flowIndex, final int sourceHost, final int destinationHost, final long sizeBytes,
            final long startNs)
        {
            this(flowIndex, sourceHost, destinationHost, sizeBytes, startNs, 0, 0);
        }

        /**
         * A flow's deadline must not be negative.
         */
        public FlowSpec
        {
            if (deadlineNs < 0)
            {
                throw new IllegalArgumentException("a deadline is positive, or 0 for none: " + deadlineNs);
            }
        }

        /**
         * Whether the flow has a deadline.
         *
         * @return true if it has one.
         */
        public boolean hasDeadline()
        {
            return deadlineNs > 0;
        }

        /**
         * The same flow with another DSCP.
         *
         * @param newDscp the DSCP.
         * @return the flow marked.
         */
        public FlowSpec withDscp(final int newDscp)
        {
            return new FlowSpec(flowIndex, sourceHost, destinationHost, sizeBytes, startNs, newDscp, deadlineNs);
        }

        /**
         * The same flow with a deadline.
         *
         * @param newDeadlineNs time it has to complete from its start, 0 for none.
         * @return the flow.
         */
        public FlowSpec withDeadline(final long newDeadlineNs)
        {
            return new FlowSpec(flowIndex, sourceHost, destinationHost, sizeBytes, startNs, dscp, newDeadlineNs);
        }
    }

    private static final long DSCP_SEED_MIX = 0x5EED_D5C9_0000_0001L;

    private WorkloadTrace()
    {
    }

    /**
     * Flows per second each host starts.
     *
     * @param load               offered load on the access link, in (0, 1].
     * @param linkRateBitsPerSec the access link's rate.
     * @param meanPackets        the mean flow size in packets.
     * @return flows per second per host.
     */
    public static double flowsPerSecondPerHost(final double load, final long linkRateBitsPerSec,
        final double meanPackets)
    {
        if (!(load > 0 && load <= 1))
        {
            throw new IllegalArgumentException("load must be in (0, 1]: " + load);
        }
        if (linkRateBitsPerSec <= 0 || !(meanPackets > 0))
        {
            throw new IllegalArgumentException("the link rate and the mean size must be positive");
        }
        return load * linkRateBitsPerSec / (meanPackets * FlowSizeDistribution.SEGMENT_WIRE_BYTES * 8);
    }

    /**
     * Generate the flows that start within a duration, or the first N flows, whichever limit is given.
     *
     * @param hostCount          number of hosts, at least 2.
     * @param load               offered load per access link.
     * @param linkRateBitsPerSec access link rate.
     * @param distribution       flow sizes.
     * @param seed               makes the trace repeatable.
     * @param maxFlows           stop after this many flows (all hosts together); 0 for no limit.
     * @param durationNs         only flows starting before this; 0 for no limit.
     * @return the flows in order of start time.
     */
    public static List<FlowSpec> generate(
        final int hostCount,
        final double load,
        final long linkRateBitsPerSec,
        final FlowSizeDistribution distribution,
        final long seed,
        final long maxFlows,
        final long durationNs)
    {
        if (hostCount < 2)
        {
            throw new IllegalArgumentException("a workload needs at least 2 hosts");
        }
        if (maxFlows <= 0 && durationNs <= 0)
        {
            throw new IllegalArgumentException("give a number of flows or a duration");
        }
        final double meanIntervalNs =
            1e9 / flowsPerSecondPerHost(load, linkRateBitsPerSec, distribution.exactMeanPackets());
        final SplittableRandom root = new SplittableRandom(seed);
        final SplittableRandom[] randoms = new SplittableRandom[hostCount];
        final double[] nextStartNs = new double[hostCount];
        for (int host = 0; host < hostCount; host++)
        {
            randoms[host] = root.split();
            nextStartNs[host] = exponential(randoms[host], meanIntervalNs);
        }
        final List<FlowSpec> flows = new ArrayList<>();
        while (maxFlows <= 0 || flows.size() < maxFlows)
        {
            int source = 0;
            for (int host = 1; host < hostCount; host++)
            {
                if (nextStartNs[host] < nextStartNs[source])
                {
                    source = host;
                }
            }
            final long startNs = (long)nextStartNs[source];
            if (durationNs > 0 && startNs >= durationNs)
            {
                break;
            }
            final SplittableRandom random = randoms[source];
            final int other = random.nextInt(hostCount - 1);
            final int destination = other >= source ? other + 1 : other;
            final long sizeBytes = distribution.samplePackets(random) * FlowSizeDistribution.SEGMENT_PAYLOAD_BYTES;
            flows.add(new FlowSpec(flows.size(), source, destination, sizeBytes, startNs));
            nextStartNs[source] += exponential(random, meanIntervalNs);
        }
        flows.sort(Comparator.comparingLong(FlowSpec::startNs).thenComparingLong(FlowSpec::flowIndex));
        return flows;
    }

    /**
     * Mark each flow of a trace with a DSCP drawn by share, so that traffic classes carry given fractions of the
     * flows: {@code 0:3,8:1} marks three flows in four DSCP 0 and one in four DSCP 8. The draws come from the seed
     * and the flows' order alone, so every host that generated the same trace marks it the same; the flows' sizes,
     * ends and times are those of the trace.
     *
     * @param flows  the trace.
     * @param shares comma-separated {@code DSCP:SHARE}, DSCP 0 to 63 each at most once, shares positive numbers.
     * @param seed   makes the marks repeatable.
     * @return the flows, marked, in the same order.
     * @throws IllegalArgumentException if the shares do not parse.
     */
    public static List<FlowSpec> withDscpShares(final List<FlowSpec> flows, final String shares, final long seed)
    {
        final String[] items = shares.split(",", -1);
        final int[] dscps = new int[items.length];
        final double[] cumulative = new double[items.length];
        double total = 0;
        for (int i = 0; i < items.length; i++)
        {
            final String[] pair = items[i].trim().split(":", -1);
            try
            {
                if (2 != pair.length)
                {
                    throw new NumberFormatException();
                }
                dscps[i] = Integer.parseInt(pair[0].trim());
                final double share = Double.parseDouble(pair[1].trim());
                if (dscps[i] < 0 || dscps[i] > 63 || !(share > 0) || Double.isInfinite(share))
                {
                    throw new NumberFormatException();
                }
                for (int j = 0; j < i; j++)
                {
                    if (dscps[j] == dscps[i])
                    {
                        throw new NumberFormatException();
                    }
                }
                total += share;
                cumulative[i] = total;
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException("DSCP shares '" + shares + "': '" + items[i] + "' is not " +
                    "DSCP:SHARE with a DSCP of 0 to 63 given once and a positive share, as in 0:3,8:1");
            }
        }
        final SplittableRandom random = new SplittableRandom(seed ^ DSCP_SEED_MIX);
        final List<FlowSpec> marked = new ArrayList<>(flows.size());
        for (final FlowSpec flow : flows)
        {
            final double draw = random.nextDouble() * total;
            int i = 0;
            while (i < items.length - 1 && draw >= cumulative[i])
            {
                i++;
            }
            marked.add(flow.withDscp(dscps[i]));
        }
        return marked;
    }

    private static double exponential(final SplittableRandom random, final double meanNs)
    {
        return -meanNs * Math.log(1 - random.nextDouble());
    }
}
