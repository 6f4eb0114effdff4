package io.pfabric.controllerd.asy;

import java.util.Arrays;

/**
 * Turns an offered-rate matrix R (row: source host, column: destination host, entries as fractions of the host link
 * rate) into a rate matrix W that keeps every host link within capacity, every row and column sum at most 1, and
 * fills the links as far as R's pattern allows: W = diag(a) R diag(b), Sinkhorn-Knopp scaling towards row and column
 * sums of 1, then one row-then-column scale-down.
 * <p>
 * The matrix is sparse, in compressed-row form: row {@code i}'s entries are {@code rowStart[i]} to
 * {@code rowStart[i + 1] - 1} of {@code column} and {@code offered}. A priority weight per entry multiplies it before
 * scaling, so a flow of weight 2 gets twice the share of a flow of weight 1 on the same links.
 * <p>
 * An iteration scales the rows to sum 1, then the columns. After a column pass the columns are exact, so the largest
 * row error measures convergence; it stops when that is within the tolerance, when it has not improved by 1% in
 * {@value #STALL_ITERATIONS} iterations (a matrix without total support, such as [[1, 1], [1, 0]], only converges
 * towards a pattern with zeros, and slowly), or at the iteration cap. Rows and columns with no entries are left out.
 * Whatever the stop, the final scale-down (each row by min(1, 1 / sum), then each column likewise) makes W feasible.
 * The scaling vectors are kept, so the next call starts warm from the last result unless {@link #coldStart()} is
 * called. Only the products {@code a[i] b[j]} matter: multiplying a connected block's row scales by t and its column
 * scales by 1 / t changes nothing, and where the pattern cannot meet its sums (ten rows with one entry each in one
 * column: an incast) every iteration moves the scales along that freedom, the rows' up and the column's down, by the
 * same factor. So each call first re-centres every block (the mean log row scale made equal to the mean log column
 * scale); without that the warm start carries the drift from call to call until a scale underflows to 0. A row whose
 * positive entries sum to 0 or to no finite number restarts the scaling cold. Nothing is allocated per call.
 */
public final class RateNormalizer
{
    /**
     * Default largest row error, a fraction of the link rate.
     */
    public static final double DEFAULT_TOLERANCE = 1e-3;

    /**
     * Default iteration cap.
     */
    public static final int DEFAULT_MAX_ITERATIONS = 200;

    /**
     * Iterations without a 1% improvement of the row error that count as a stall.
     */
    public static final int STALL_ITERATIONS = 5;

    private static final double STALL_IMPROVEMENT = 0.99;

    /**
     * Why the iterations stopped.
     */
    public enum StopReason
    {
        /**
         * Every row within the tolerance of 1.
         */
        TOLERANCE,

        /**
         * The row error stopped improving.
         */
        STALL,

        /**
         * The iteration cap.
         */
        ITERATION_CAP,

        /**
         * The scaling overflowed; it restarted cold and only the scale-down was applied.
         */
        DIVERGED,

        /**
         * The matrix has no entry.
         */
        EMPTY
    }

    private final int hostCount;
    private final double tolerance;
    private final int maxIterations;
    private final double[] rowScale;
    private final double[] columnScale;
    private final double[] rowSum;
    private final double[] columnSum;
    private final int[] block;
    private final double[] blockLogRows;
    private final double[] blockLogColumns;
    private final int[] blockRows;
    private final int[] blockColumns;

    private int iterations;
    private double rowError;
    private StopReason stopReason = StopReason.EMPTY;

    /**
     * A normalizer with the default tolerance and iteration cap.
     *
     * @param hostCount rows and columns.
     */
    public RateNormalizer(final int hostCount)
    {
        this(hostCount, DEFAULT_TOLERANCE, DEFAULT_MAX_ITERATIONS);
    }

    /**
     * A normalizer.
     *
     * @param hostCount     rows and columns.
     * @param tolerance     largest row error to stop at, a fraction of the link rate, positive.
     * @param maxIterations iteration cap; 0 for the scale-down alone, R (or the last scaling of R) made feasible.
     */
    public RateNormalizer(final int hostCount, final double tolerance, final int maxIterations)
    {
        if (hostCount < 1 || !(tolerance > 0) || maxIterations < 0)
        {
            throw new IllegalArgumentException("need hostCount >= 1, tolerance > 0 and maxIterations >= 0");
        }
        this.hostCount = hostCount;
        this.tolerance = tolerance;
        this.maxIterations = maxIterations;
        rowScale = new double[hostCount];
        columnScale = new double[hostCount];
        rowSum = new double[hostCount];
        columnSum = new double[hostCount];
        block = new int[2 * hostCount];
        blockLogRows = new double[2 * hostCount];
        blockLogColumns = new double[2 * hostCount];
        blockRows = new int[2 * hostCount];
        blockColumns = new int[2 * hostCount];
        coldStart();
    }

    /**
     * Forget the last scaling: the next call starts from R itself.
     */
    public void coldStart()
    {
        Arrays.fill(rowScale, 1.0);
        Arrays.fill(columnScale, 1.0);
    }

    /**
     * @return iterations (row pass plus column pass) of the last call.
     */
    public int iterations()
    {
        return iterations;
    }

    /**
     * @return the largest row error when the last call stopped iterating, before the scale-down.
     */
    public double rowError()
    {
        return rowError;
    }

    /**
     * @return why the last call stopped iterating.
     */
    public StopReason stopReason()
    {
        return stopReason;
    }

    /**
     * @return the largest row error to stop at.
     */
    public double tolerance()
    {
        return tolerance;
    }

    /**
     * Normalize a matrix.
     *
     * @param rowStart {@code hostCount + 1} offsets into {@code column}, {@code offered} and {@code rate}.
     * @param column   each entry's column.
     * @param offered  each entry's offered rate, non-negative.
     * @param weight   each entry's priority weight, positive, or null for all 1.
     * @param rate     receives each entry's rate.
     * @return why the iterations stopped.
     */
    public StopReason normalize(
        final int[] rowStart, final int[] column, final double[] offered, final double[] weight, final double[] rate)
    {
        final int n = hostCount;
        if (rowStart[n] == 0)
        {
            iterations = 0;
            rowError = 0;
            return stopReason = StopReason.EMPTY;
        }
        recentre(rowStart, column);
        double best = Double.POSITIVE_INFINITY;
        int bestIteration = 0;
        int iteration = 0;
        boolean restarted = false;
        StopReason reason;
        while (true)
        {
            final double error = rowSums(rowStart, column, offered, weight);
            if (!Double.isFinite(error))
            {
                coldStart();
                rowError = error;
                if (!restarted)
                {
                    restarted = true;
                    best = Double.POSITIVE_INFINITY;
                    bestIteration = 0;
                    iteration = 0;
                    continue;
                }
                reason = StopReason.DIVERGED;
                break;
            }
            rowError = error;
            if (iteration > 0)
            {
                if (error <= tolerance)
                {
                    reason = StopReason.TOLERANCE;
                    break;
                }
                if (error < best * STALL_IMPROVEMENT)
                {
                    best = error;
                    bestIteration = iteration;
                }
                else if (iteration - bestIteration >= STALL_ITERATIONS)
                {
                    reason = StopReason.STALL;
                    break;
                }
            }
            if (iteration >= maxIterations)
            {
                reason = StopReason.ITERATION_CAP;
                break;
            }
            for (int i = 0; i < n; i++)
            {
                final double sum = rowSum[i];
                if (sum > 0)
                {
                    rowScale[i] = 1.0 / sum;
                }
            }
            scaleColumns(rowStart, column, offered, weight);
            iteration++;
        }
        iterations = iteration;
        stopReason = reason;
        scaleDown(rowStart, column, offered, weight, rate);
        return reason;
    }

    private void recentre(final int[] rowStart, final int[] column)
    {
        final int n = hostCount;
        for (int v = 0; v < 2 * n; v++)
        {
            block[v] = v;
            blockLogRows[v] = 0;
            blockLogColumns[v] = 0;
            blockRows[v] = 0;
            blockColumns[v] = 0;
        }
        for (int i = 0; i < n; i++)
        {
            for (int k = rowStart[i], end = rowStart[i + 1]; k < end; k++)
            {
                final int a = root(i);
                final int b = root(n + column[k]);
                if (a != b)
                {
                    block[Math.max(a, b)] = Math.min(a, b);
                }
            }
        }
        for (int i = 0; i < n; i++)
        {
            if (rowStart[i + 1] > rowStart[i] && rowScale[i] > 0 && Double.isFinite(rowScale[i]))
            {
                final int r = root(i);
                blockLogRows[r] += Math.log(rowScale[i]);
                blockRows[r]++;
            }
        }
        for (int k = 0, nnz = rowStart[n]; k < nnz; k++)
        {
            final int j = column[k];
            if (block[n + j] >= 0)
            {
                final int r = root(n + j);
                if (columnScale[j] > 0 && Double.isFinite(columnScale[j]))
                {
                    blockLogColumns[r] += Math.log(columnScale[j]);
                    blockColumns[r]++;
                }
                block[n + j] = -1 - r;
            }
        }
        for (int v = 0; v < 2 * n; v++)
        {
            if (block[v] == v && blockRows[v] > 0 && blockColumns[v] > 0)
            {
                blockLogRows[v] = Math.exp(
                    0.5 * (blockLogRows[v] / blockRows[v] - blockLogColumns[v] / blockColumns[v]));
            }
            else if (block[v] == v)
            {
                blockLogRows[v] = 1.0;
            }
        }
        for (int i = 0; i < n; i++)
        {
            if (rowStart[i + 1] > rowStart[i])
            {
                rowScale[i] /= blockLogRows[root(i)];
            }
        }
        for (int j = 0; j < n; j++)
        {
            if (block[n + j] < 0)
            {
                columnScale[j] *= blockLogRows[-1 - block[n + j]];
            }
        }
    }

    private int root(final int vertex)
    {
        int v = vertex;
        while (block[v] != v)
        {
            block[v] = block[block[v]];
            v = block[v];
        }
        return v;
    }

    private double rowSums(final int[] rowStart, final int[] column, final double[] offered, final double[] weight)
    {
        final double[] columnScale = this.columnScale;
        double error = 0;
        for (int i = 0, n = hostCount; i < n; i++)
        {
            double sum = 0;
            boolean positive = false;
            for (int k = rowStart[i], end = rowStart[i + 1]; k < end; k++)
            {
                final double entry = null == weight ? offered[k] : offered[k] * weight[k];
                positive |= entry > 0;
                sum += entry * columnScale[column[k]];
            }
            rowSum[i] = sum;
            if (!Double.isFinite(sum) || (positive && !(sum > 0)) || !(rowScale[i] > 0) ||
                !Double.isFinite(rowScale[i]))
            {
                return Double.NaN;
            }
            if (sum > 0)
            {
                error = Math.max(error, Math.abs(rowScale[i] * sum - 1.0));
            }
        }
        return error;
    }

    private void scaleColumns(final int[] rowStart, final int[] column, final double[] offered, final double[] weight)
    {
        final double[] columnSum = this.columnSum;
        Arrays.fill(columnSum, 0.0);
        for (int i = 0, n = hostCount; i < n; i++)
        {
            final double scale = rowScale[i];
            for (int k = rowStart[i], end = rowStart[i + 1]; k < end; k++)
            {
                final double entry = null == weight ? offered[k] : offered[k] * weight[k];
                columnSum[column[k]] += entry * scale;
            }
        }
        for (int j = 0, n = hostCount; j < n; j++)
        {
            final double sum = columnSum[j];
            if (sum > 0)
            {
                columnScale[j] = 1.0 / sum;
            }
        }
    }

    private void scaleDown(
        final int[] rowStart, final int[] column, final double[] offered, final double[] weight, final double[] rate)
    {
        final double[] columnSum = this.columnSum;
        Arrays.fill(columnSum, 0.0);
        for (int i = 0, n = hostCount; i < n; i++)
        {
            final int start = rowStart[i];
            final int end = rowStart[i + 1];
            final double scale = rowScale[i];
            double sum = 0;
            for (int k = start; k < end; k++)
            {
                final double entry = null == weight ? offered[k] : offered[k] * weight[k];
                final double value = scale * entry * columnScale[column[k]];
                rate[k] = value;
                sum += value;
            }
            if (sum > 1.0)
            {
                final double down = 1.0 / sum;
                for (int k = start; k < end; k++)
                {
                    rate[k] *= down;
                }
            }
            for (int k = start; k < end; k++)
            {
                columnSum[column[k]] += rate[k];
            }
        }
        boolean over = false;
        for (int j = 0, n = hostCount; j < n; j++)
        {
            if (columnSum[j] > 1.0)
            {
                columnSum[j] = 1.0 / columnSum[j];
                over = true;
            }
            else
            {
                columnSum[j] = 1.0;
            }
        }
        if (over)
        {
            for (int k = 0, nnz = rowStart[hostCount]; k < nnz; k++)
            {
                rate[k] *= columnSum[column[k]];
            }
        }
    }
}
