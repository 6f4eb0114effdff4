package io.pfabric.bench.jmh;

import io.pfabric.controllerd.asy.RateNormalizer;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * One ASY normalization ({@link RateNormalizer}, default tolerance 1e-3 and cap) of a sparse offered-rate matrix:
 * {@code perRow} random destinations per source with rates uniform in (0, 1]. Warm: two matrices that differ by up to
 * ±10% in every entry, normalized in turn, each starting from the other's scaling, as successive control periods
 * would. Cold: the first matrix from no scaling. {@link Counters} counts the iterations.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class RateNormalizerBenchmark
{
    /**
     * Hosts.
     */
    @Param({ "1024" })
    public int hosts;

    /**
     * Non-zero entries per row.
     */
    @Param({ "16" })
    public int perRow;

    /**
     * Iterations and normalizations, for iterations per normalization.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Counters
    {
        /**
         * Sinkhorn iterations.
         */
        public long iterations;

        /**
         * Normalizations.
         */
        public long normalizations;

        /**
         * Start each iteration from zero.
         */
        @Setup(Level.Iteration)
        public void reset()
        {
            iterations = 0;
            normalizations = 0;
        }
    }

    private RateNormalizer normalizer;
    private int[] rowStart;
    private int[] column;
    private double[] offered;
    private double[] perturbed;
    private double[] rate;
    private boolean odd;

    /**
     * Build the matrices.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        final SplittableRandom random = new SplittableRandom(7);
        final int nnz = hosts * perRow;
        rowStart = new int[hosts + 1];
        column = new int[nnz];
        offered = new double[nnz];
        perturbed = new double[nnz];
        rate = new double[nnz];
        final boolean[] taken = new boolean[hosts];
        int k = 0;
        for (int i = 0; i < hosts; i++)
        {
            rowStart[i] = k;
            Arrays.fill(taken, false);
            for (int placed = 0; placed < perRow; placed++)
            {
                int j = random.nextInt(hosts);
                while (taken[j])
                {
                    j = random.nextInt(hosts);
                }
                taken[j] = true;
                column[k] = j;
                offered[k] = 1.0 - random.nextDouble();
                perturbed[k] = offered[k] * (0.9 + 0.2 * random.nextDouble());
                k++;
            }
        }
        rowStart[hosts] = k;
        normalizer = new RateNormalizer(hosts);
        normalizer.normalize(rowStart, column, offered, null, rate);
    }

    /**
     * Normalize the next of two nearby matrices, warm from the last result.
     *
     * @param counters counts the iterations.
     * @return a rate, so the work cannot be eliminated.
     */
    @Benchmark
    public double warm(final Counters counters)
    {
        odd = !odd;
        normalizer.normalize(rowStart, column, odd ? perturbed : offered, null, rate);
        counters.iterations += normalizer.iterations();
        counters.normalizations++;
        return rate[0];
    }

    /**
     * Normalize the first matrix from no scaling.
     *
     * @param counters counts the iterations.
     * @return a rate, so the work cannot be eliminated.
     */
    @Benchmark
    public double cold(final Counters counters)
    {
        normalizer.coldStart();
        normalizer.normalize(rowStart, column, offered, null, rate);
        counters.iterations += normalizer.iterations();
        counters.normalizations++;
        return rate[0];
    }
}
