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
     */
    public record FlowSpec(long flowIndex, int sourceHost, int destinationHost, long sizeBytes, long startNs)
    {
    }

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

    private static double exponential(final SplittableRandom random, final double meanNs)
    {
        return -meanNs * Math.log(1 - random.nextDouble());
    }
}
