package io.pfabric.controllerd.asy;

import io.pfabric.controllerd.asy.RateNormalizer.StopReason;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RateNormalizerTest
{
    private static final double ROUNDING = 1e-12;

    @Test
    void denseMatrixIsScaledToWithinTheToleranceOfDoublyStochastic()
    {
        final Random random = new Random(1);
        final double[][] dense = new double[64][64];
        for (final double[] row : dense)
        {
            for (int j = 0; j < row.length; j++)
            {
                row[j] = Math.exp(2 * random.nextGaussian());
            }
        }
        final SparseMatrix matrix = new SparseMatrix(dense);
        final RateNormalizer normalizer = new RateNormalizer(64);
        assertEquals(StopReason.TOLERANCE, normalize(normalizer, matrix));
        assertWithinTolerance(matrix, normalizer.tolerance());
    }

    @Test
    void sparseMatrixIsScaledToWithinTheTolerance()
    {
        final SparseMatrix matrix = SparseMatrix.random(new Random(2), 256, 16);
        final RateNormalizer normalizer = new RateNormalizer(256, 1e-4, 1_000);
        assertEquals(StopReason.TOLERANCE, normalize(normalizer, matrix));
        assertTrue(normalizer.rowError() <= 1e-4);
        assertWithinTolerance(matrix, 1e-4);
    }

    @Test
    void zeroRowsAndColumnsStayZeroAndTheRestFillsUp()
    {
        final SparseMatrix matrix = new SparseMatrix(new double[][]{
            { 0, 0.5, 0, 0.2 },
            { 0, 0, 0, 0 },
            { 0, 0.1, 0, 0.3 },
            { 0, 0, 0, 0 } });
        final RateNormalizer normalizer = new RateNormalizer(4);
        assertEquals(StopReason.TOLERANCE, normalize(normalizer, matrix));
        assertFeasible(matrix);
        final double[] rows = matrix.rowSums();
        final double[] columns = matrix.columnSums();
        assertEquals(0, rows[1]);
        assertEquals(0, rows[3]);
        assertEquals(0, columns[0]);
        assertEquals(0, columns[2]);
        assertEquals(2, matrix.total(), 2 * normalizer.tolerance());
    }

    @Test
    void moreBusyColumnsThanRowsFillsEveryRow()
    {
        final SparseMatrix matrix = new SparseMatrix(new double[][]{
            { 1, 1, 1 },
            { 0, 0, 0 },
            { 1, 0, 1 } });
        final RateNormalizer normalizer = new RateNormalizer(3);
        assertEquals(StopReason.STALL, normalize(normalizer, matrix));
        assertFeasible(matrix);
        assertEquals(2, matrix.total(), 1e-9);
    }

    @Test
    void withoutTotalSupportItStopsFeasibleNearTheLimit()
    {
        final SparseMatrix matrix = new SparseMatrix(new double[][]{ { 1, 1 }, { 1, 0 } });
        final RateNormalizer normalizer = new RateNormalizer(2);
        final StopReason reason = normalize(normalizer, matrix);
        assertNotEquals(StopReason.TOLERANCE, reason);
        assertFeasible(matrix);
        assertTrue(matrix.total() > 1.9, "total " + matrix.total());
        assertTrue(matrix.rate[0] < 0.05, "the entry outside the limit's pattern shrinks: " + matrix.rate[0]);
    }

    @Test
    void anIncastKeepsItsFairSharesOverManyWarmCalls()
    {
        final double[][] dense = new double[12][12];
        for (int i = 1; i <= 10; i++)
        {
            dense[i][0] = 1;
        }
        final SparseMatrix matrix = new SparseMatrix(dense);
        final RateNormalizer normalizer = new RateNormalizer(12);
        for (int call = 0; call < 1_000; call++)
        {
            normalize(normalizer, matrix);
            for (int k = 0; k < 10; k++)
            {
                assertEquals(0.1, matrix.rate[k], 1e-9, "call " + call + " entry " + k);
            }
        }
    }

    @Test
    void aPairThatJoinsAnIncastLaterGetsItsShare()
    {
        final double[][] dense = new double[12][12];
        for (int i = 1; i <= 9; i++)
        {
            dense[i][0] = 1;
        }
        final RateNormalizer normalizer = new RateNormalizer(12);
        for (int call = 0; call < 200; call++)
        {
            normalize(normalizer, new SparseMatrix(dense));
        }
        dense[10][0] = 1;
        final SparseMatrix joined = new SparseMatrix(dense);
        normalize(normalizer, joined);
        for (int k = 0; k < 10; k++)
        {
            assertEquals(0.1, joined.rate[k], 1e-9, "entry " + k);
        }
    }

    @Test
    void aLargeSparseMatrixWithoutTotalSupportIsFeasibleWhateverTheStop()
    {
        final Random random = new Random(3);
        for (int trial = 0; trial < 20; trial++)
        {
            final SparseMatrix matrix = SparseMatrix.random(random, 100, 1 + trial % 3);
            final RateNormalizer normalizer = new RateNormalizer(100, 1e-6, 1 + trial * 10);
            normalize(normalizer, matrix);
            assertFeasible(matrix);
        }
    }

    @Test
    void oneIterationIsCappedButFeasible()
    {
        final SparseMatrix matrix = SparseMatrix.random(new Random(4), 200, 4);
        final RateNormalizer normalizer = new RateNormalizer(200, 1e-9, 1);
        assertEquals(StopReason.ITERATION_CAP, normalize(normalizer, matrix));
        assertEquals(1, normalizer.iterations());
        assertFeasible(matrix);
    }

    @Test
    void withNoIterationsTheScaleDownAloneMakesRowsThenColumnsFeasible()
    {
        final SparseMatrix matrix = new SparseMatrix(new double[][]{ { 2, 0, 2 }, { 1, 0, 0 }, { 0.25, 0.25, 0 } });
        final RateNormalizer normalizer = new RateNormalizer(3, 1e-3, 0);
        assertEquals(StopReason.ITERATION_CAP, normalize(normalizer, matrix));
        assertEquals(0, normalizer.iterations());
        assertFeasible(matrix);
        assertEquals(0.5 / 1.75, matrix.rate[0], 1e-12);
        assertEquals(0.5, matrix.rate[1], 1e-12);
        assertEquals(1 / 1.75, matrix.rate[2], 1e-12);
        assertEquals(0.25 / 1.75, matrix.rate[3], 1e-12);
        assertEquals(0.25, matrix.rate[4], 1e-12);
    }

    @Test
    void warmStartConvergesInFewerIterationsThanCold()
    {
        final Random random = new Random(5);
        final SparseMatrix matrix = SparseMatrix.random(random, 512, 16);
        final RateNormalizer normalizer = new RateNormalizer(512);
        assertEquals(StopReason.TOLERANCE, normalize(normalizer, matrix));
        for (int k = 0; k < matrix.offered.length; k++)
        {
            matrix.offered[k] *= 0.9 + 0.2 * random.nextDouble();
        }
        assertEquals(StopReason.TOLERANCE, normalize(normalizer, matrix));
        final int warm = normalizer.iterations();
        assertWithinTolerance(matrix, normalizer.tolerance());
        normalizer.coldStart();
        assertEquals(StopReason.TOLERANCE, normalize(normalizer, matrix));
        final int cold = normalizer.iterations();
        assertTrue(warm < cold, "warm " + warm + " cold " + cold);
    }

    @Test
    void priorityWeightsScaleTheShares()
    {
        final SparseMatrix matrix = new SparseMatrix(new double[][]{ { 1, 1 }, { 1, 1 } });
        final RateNormalizer normalizer = new RateNormalizer(2);
        normalizer.normalize(matrix.rowStart, matrix.column, matrix.offered, new double[]{ 3, 1, 1, 3 }, matrix.rate);
        assertEquals(0.75, matrix.rate[0], 1e-9);
        assertEquals(0.25, matrix.rate[1], 1e-9);
        assertEquals(0.25, matrix.rate[2], 1e-9);
        assertEquals(0.75, matrix.rate[3], 1e-9);
    }

    @Test
    void emptyMatrix()
    {
        final SparseMatrix matrix = new SparseMatrix(new double[3][3]);
        assertEquals(StopReason.EMPTY, normalize(new RateNormalizer(3), matrix));
    }

    private static StopReason normalize(final RateNormalizer normalizer, final SparseMatrix matrix)
    {
        return normalizer.normalize(matrix.rowStart, matrix.column, matrix.offered, null, matrix.rate);
    }

    private static void assertFeasible(final SparseMatrix matrix)
    {
        for (final double sum : matrix.rowSums())
        {
            assertTrue(sum <= 1 + ROUNDING, "row sum " + sum);
        }
        for (final double sum : matrix.columnSums())
        {
            assertTrue(sum <= 1 + ROUNDING, "column sum " + sum);
        }
        for (final double rate : matrix.rate)
        {
            assertTrue(rate >= 0 && Double.isFinite(rate), "rate " + rate);
        }
    }

    private static void assertWithinTolerance(final SparseMatrix matrix, final double tolerance)
    {
        assertFeasible(matrix);
        for (final double sum : matrix.rowSums())
        {
            assertTrue(sum >= 1 - tolerance, "row sum " + sum);
        }
        for (final double sum : matrix.columnSums())
        {
            assertTrue(sum >= 1 - tolerance, "column sum " + sum);
        }
    }
}
