package io.pfabric.controllerd.asy;

import java.util.Random;

/**
 * A test matrix in the compressed-row form {@link RateNormalizer} reads, with its row and column sums.
 */
final class SparseMatrix
{
    final int n;
    final int[] rowStart;
    final int[] column;
    final double[] offered;
    final double[] rate;

    SparseMatrix(final double[][] dense)
    {
        n = dense.length;
        int nnz = 0;
        for (final double[] row : dense)
        {
            for (final double value : row)
            {
                nnz += value != 0 ? 1 : 0;
            }
        }
        rowStart = new int[n + 1];
        column = new int[nnz];
        offered = new double[nnz];
        rate = new double[nnz];
        int k = 0;
        for (int i = 0; i < n; i++)
        {
            rowStart[i] = k;
            for (int j = 0; j < n; j++)
            {
                if (dense[i][j] != 0)
                {
                    column[k] = j;
                    offered[k++] = dense[i][j];
                }
            }
        }
        rowStart[n] = k;
    }

    /**
     * {@code perRow} distinct random columns per row, entries uniform in (0, 1].
     */
    static SparseMatrix random(final Random random, final int n, final int perRow)
    {
        final double[][] dense = new double[n][n];
        for (int i = 0; i < n; i++)
        {
            int placed = 0;
            while (placed < perRow)
            {
                final int j = random.nextInt(n);
                if (dense[i][j] == 0)
                {
                    dense[i][j] = 1.0 - random.nextDouble();
                    placed++;
                }
            }
        }
        return new SparseMatrix(dense);
    }

    double[] rowSums()
    {
        final double[] sums = new double[n];
        for (int i = 0; i < n; i++)
        {
            for (int k = rowStart[i]; k < rowStart[i + 1]; k++)
            {
                sums[i] += rate[k];
            }
        }
        return sums;
    }

    double[] columnSums()
    {
        final double[] sums = new double[n];
        for (int k = 0; k < rowStart[n]; k++)
        {
            sums[column[k]] += rate[k];
        }
        return sums;
    }

    double total()
    {
        double total = 0;
        for (int k = 0; k < rowStart[n]; k++)
        {
            total += rate[k];
        }
        return total;
    }
}
