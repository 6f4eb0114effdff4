package io.pfabric.analysis;

import io.pfabric.hostd.workload.FctLogReader;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * Normalized flow completion times, as the pFabric paper reports them: each flow's FCT divided by the best it could
 * do alone on the idle fabric (base RTT of its path + (segments - 1) packet times at the access rate), summarized per
 * size bin (0, 100 KB], (100 KB, 10 MB], (10 MB, ∞) and overall: count, mean, median and 99th percentile (exact,
 * nearest rank). Flows that never completed are counted apart and left out of the statistics.
 */
public final class FctAnalysis
{
    /**
     * Upper bound of the small bin, in bytes (inclusive).
     */
    public static final long SMALL_MAX_BYTES = 100_000;

    /**
     * Upper bound of the medium bin, in bytes (inclusive).
     */
    public static final long MEDIUM_MAX_BYTES = 10_000_000;

    /**
     * The size bins, and all flows.
     */
    public enum Bin
    {
        /**
         * (0, 100 KB].
         */
        SMALL,

        /**
         * (100 KB, 10 MB].
         */
        MEDIUM,

        /**
         * (10 MB, ∞).
         */
        LARGE,

        /**
         * Every flow.
         */
        ALL;

        /**
         * The bin of a flow size.
         *
         * @param sizeBytes payload bytes.
         * @return SMALL, MEDIUM or LARGE.
         */
        public static Bin of(final long sizeBytes)
        {
            return sizeBytes <= SMALL_MAX_BYTES ? SMALL : sizeBytes <= MEDIUM_MAX_BYTES ? MEDIUM : LARGE;
        }
    }

    /**
     * One bin's summary.
     *
     * @param bin        which.
     * @param count      completed flows in it.
     * @param incomplete flows in it that never completed.
     * @param mean       mean normalized FCT.
     * @param p50        median.
     * @param p99        99th percentile.
     */
    public record Summary(Bin bin, int count, int incomplete, double mean, double p50, double p99)
    {
    }

    private final IdealScheduler ideal;

    /**
     * An analysis for a fabric.
     *
     * @param rateBitsPerSec the access link rate.
     * @param baseRtt        the base RTT of each path, by host index.
     */
    public FctAnalysis(final long rateBitsPerSec, final IdealScheduler.BaseRtt baseRtt)
    {
        this.ideal = new IdealScheduler(rateBitsPerSec, baseRtt);
    }

    /**
     * An analysis for a fabric whose full segment takes another wire length than the paper's 1,500 bytes.
     *
     * @param rateBitsPerSec    the access link rate.
     * @param baseRtt           the base RTT of each path, by host index.
     * @param segmentWireLength bytes of wire time a full segment takes.
     */
    public FctAnalysis(final long rateBitsPerSec, final IdealScheduler.BaseRtt baseRtt, final int segmentWireLength)
    {
        this.ideal = new IdealScheduler(rateBitsPerSec, baseRtt, segmentWireLength);
    }

    /**
     * A flow's normalized FCT.
     *
     * @param sourceHost      sending host index.
     * @param destinationHost receiving host index.
     * @param sizeBytes       payload bytes.
     * @param fctNs           its completion time.
     * @return FCT over the best possible.
     */
    public double normalized(final int sourceHost, final int destinationHost, final long sizeBytes, final long fctNs)
    {
        return fctNs / ideal.idealFctNs(new IdealScheduler.Flow(0, sourceHost, destinationHost, sizeBytes, 0));
    }

    /**
     * Summarize a log.
     *
     * @param rows      the flows.
     * @param hostIndex maps a host name to its index for the base RTT.
     * @return one summary per bin, SMALL, MEDIUM, LARGE, ALL.
     */
    public List<Summary> summarize(final List<FctLogReader.Row> rows,
        final ToIntFunction<String> hostIndex)
    {
        final List<List<Double>> values = new ArrayList<>();
        final int[] incomplete = new int[Bin.values().length];
        for (int i = 0; i < Bin.values().length; i++)
        {
            values.add(new ArrayList<>());
        }
        for (final FctLogReader.Row row : rows)
        {
            final Bin bin = Bin.of(row.sizeBytes());
            if (!row.isComplete())
            {
                incomplete[bin.ordinal()]++;
                incomplete[Bin.ALL.ordinal()]++;
                continue;
            }
            final double value = normalized(hostIndex.applyAsInt(row.source()),
                hostIndex.applyAsInt(row.destination()), row.sizeBytes(), row.fctNs());
            values.get(bin.ordinal()).add(value);
            values.get(Bin.ALL.ordinal()).add(value);
        }
        final List<Summary> summaries = new ArrayList<>();
        for (final Bin bin : Bin.values())
        {
            final double[] sorted = values.get(bin.ordinal()).stream().mapToDouble(Double::doubleValue).sorted()
                .toArray();
            final double mean = 0 == sorted.length ? Double.NaN : Arrays.stream(sorted).sum() / sorted.length;
            summaries.add(new Summary(bin, sorted.length, incomplete[bin.ordinal()], mean, percentile(sorted, 50),
                percentile(sorted, 99)));
        }
        return summaries;
    }

    /**
     * The nearest-rank percentile of sorted values.
     *
     * @param sorted     ascending.
     * @param percentile 0 to 100.
     * @return the value, NaN if there are none.
     */
    public static double percentile(final double[] sorted, final double percentile)
    {
        if (0 == sorted.length)
        {
            return Double.NaN;
        }
        final int rank = (int)Math.ceil(percentile / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    /**
     * The percentile of sorted values interpolated linearly between the two closest ranks, the way numpy and R (type
     * 7) compute it by default: position k = (n - 1) * percentile / 100, the value at floor(k) plus the fraction of k
     * of the step to the value at ceil(k).
     *
     * @param sorted     ascending.
     * @param percentile 0 to 100.
     * @return the value, NaN if there are none.
     */
    public static double percentileInterpolated(final double[] sorted, final double percentile)
    {
        if (0 == sorted.length)
        {
            return Double.NaN;
        }
        final double k = (sorted.length - 1) * (percentile / 100.0);
        final int floor = (int)Math.floor(k);
        final int ceiling = (int)Math.ceil(k);
        return floor == ceiling ? sorted[floor] : sorted[floor] + (sorted[ceiling] - sorted[floor]) * (k - floor);
    }
}
