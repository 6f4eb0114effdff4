package io.pfabric.analysis;

import io.pfabric.common.topology.DisciplineSpec;
import io.pfabric.hostd.workload.FlowSizeDistribution;

/**
 * Computes the thresholds a {@code strict:N} or {@code strict:N:equal} discipline leaves to the run: from
 * {@link StrictQueueModel} for the run's workload and load, or split equally over the workload's flow sizes.
 */
public final class StrictThresholds
{
    private StrictThresholds()
    {
    }

    /**
     * The discipline with its thresholds computed, or as it is if it needs none.
     *
     * @param spec  the discipline.
     * @param sizes the run's flow-size distribution.
     * @param load  the run's offered load, in [0, 1).
     * @return a discipline whose thresholds are known.
     * @throws IllegalArgumentException if the load is not below 1 or the workload cannot fill the queues.
     */
    public static DisciplineSpec resolve(final DisciplineSpec spec, final FlowSizeDistribution sizes,
        final double load)
    {
        if (!spec.needsWorkload())
        {
            return spec;
        }
        final StrictQueueModel model = new StrictQueueModel(sizes.packetProbabilities());
        final long[] packets = DisciplineSpec.Thresholds.EQUAL == spec.thresholds() ?
            model.equalSplit(spec.queueCount()) : model.optimal(load, spec.queueCount()).thresholdsPackets();
        final long[] bytes = new long[packets.length];
        for (int i = 0; i < bytes.length; i++)
        {
            bytes[i] = packets[i] * StrictQueueModel.PACKET_BYTES;
        }
        return spec.withThresholds(bytes);
    }
}
