package io.pfabric.sim;

import io.pfabric.dataplane.queue.QueueDiscipline;

import java.util.Arrays;

/**
 * Queue occupancy sampled on virtual time while a run lasts: one port's bytes every period, and every port's bytes
 * summed by tier (host NICs, leaves, the switches above the leaves: spines, or a fat-tree's aggregation and core
 * switches) every period. The simulator schedules the samples.
 */
final class QueueSampler
{
    private final SimFabric fabric;
    private final SimSwitch[] switches;
    private QueueDiscipline sampledQueue;
    private long samplePeriodNs;
    private long[] samples = new long[0];
    private int sampleCount;
    private long tierPeriodNs;
    private final double[] tierByteSums = new double[3];
    private final int[] tierPorts = new int[3];
    private long tierSamples;

    QueueSampler(final SimFabric fabric, final SimSwitch[] switches)
    {
        this.fabric = fabric;
        this.switches = switches;
        for (int s = 0; s < switches.length; s++)
        {
            tierPorts[tierOf(s)] += switches[s].ports.length;
        }
    }

    private int tierOf(final int switchIndex)
    {
        return switchIndex == switches.length - 1 ? 0 : switchIndex < fabric.leaves() ? 1 : 2;
    }

    void sampleQueue(final QueueDiscipline queue, final long periodNs)
    {
        sampledQueue = queue;
        samplePeriodNs = periodNs;
        samples = new long[1024];
        sampleCount = 0;
    }

    boolean samplesQueue()
    {
        return null != sampledQueue;
    }

    long queuePeriodNs()
    {
        return samplePeriodNs;
    }

    void recordQueue()
    {
        if (sampleCount == samples.length)
        {
            samples = Arrays.copyOf(samples, 2 * sampleCount);
        }
        samples[sampleCount++] = sampledQueue.byteCount();
    }

    long[] queueSamples()
    {
        return Arrays.copyOf(samples, sampleCount);
    }

    void sampleTiers(final long periodNs)
    {
        tierPeriodNs = periodNs;
    }

    boolean samplesTiers()
    {
        return tierPeriodNs > 0;
    }

    long tierPeriodNs()
    {
        return tierPeriodNs;
    }

    void recordTiers()
    {
        tierSamples++;
        for (int s = 0; s < switches.length; s++)
        {
            final int tier = tierOf(s);
            for (final SimPort port : switches[s].ports)
            {
                tierByteSums[tier] += port.queue.byteCount();
            }
        }
    }

    double meanTierQueueBytes(final int tier)
    {
        final int ports = tierPorts[tier];
        return 0 == tierSamples || 0 == ports ? 0 : tierByteSums[tier] / tierSamples / ports;
    }
}
