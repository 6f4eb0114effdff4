package io.pfabric.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The pFabric paper's §6.1 model of pFabric on N strict-priority queues: one link as an M/G/1 queue with preemptive
 * priority classes, flows arriving as a Poisson process with sizes from the workload's distribution, and a packet's
 * queue chosen by its flow's remaining size against N - 1 thresholds. A flow of x packets with thresholds
 * t1 &lt; … &lt; t(N-1) (in packets; queue 0 takes remaining sizes below t1, queue k those in [tk, tk+1)) sends its
 * first packets in the least urgent queue it reaches and its last ones in queue 0, so it is modelled as one job per
 * queue it crosses: in queue k, s_k(x) = clamp(x - u_k, 0, u_k+1 - u_k) packets, with u_k = t_k - 1 the packets a
 * remaining size below t_k leaves (u_0 = 0, u_N = ∞), each job an independent arrival to its class. A job of s packets
 * in class k then spends (Pollaczek-Khintchine with preemptive priority)
 * <pre>
 *   T_k(s) = s / (1 - σ_k-1) + R_k / ((1 - σ_k-1)(1 - σ_k)),   R_k = λ/2 Σ_i≤k E[s_i²],   σ_k = λ Σ_i≤k E[s_i]
 * </pre>
 * and the flow's FCT is the sum over the queues it crosses. Time is in packet times at the link's rate, so the FCT
 * normalized to the flow's size alone (x packet times) is the paper's normalized FCT. Pure arithmetic over the
 * distribution's exact probabilities; the moments over any range of sizes come from prefix sums, so a prediction costs
 * O(N) and a search over thresholds is quick.
 */
public final class StrictQueueModel
{
    /**
     * Payload bytes per packet: flow sizes in the workload files are whole 1460-byte packets.
     */
    public static final int PACKET_BYTES = 1460;

    /**
     * Largest size of the paper's small flows, bytes: (0, 100 KB].
     */
    public static final long SMALL_FLOW_BYTES = 100_000;

    /**
     * Smallest size of the paper's large flows, bytes: (10 MB, ∞).
     */
    public static final long LARGE_FLOW_BYTES = 10_000_000;

    private final double[] probability;
    private final double[] cumulative;
    private final double[] cumulativeSize;
    private final double[] cumulativeSquare;
    private final double[] cumulativeInverse;
    private final int largestPackets;
    private final double meanPackets;

    /**
     * The model of a flow-size distribution.
     *
     * @param packetProbabilities index n holds the probability of a flow of n packets; they sum to 1.
     */
    public StrictQueueModel(final double[] packetProbabilities)
    {
        probability = packetProbabilities.clone();
        final int n = probability.length;
        cumulative = new double[n];
        cumulativeSize = new double[n];
        cumulativeSquare = new double[n];
        cumulativeInverse = new double[n];
        double total = 0;
        int largest = 0;
        for (int x = 1; x < n; x++)
        {
            final double p = probability[x];
            cumulative[x] = cumulative[x - 1] + p;
            cumulativeSize[x] = cumulativeSize[x - 1] + p * x;
            cumulativeSquare[x] = cumulativeSquare[x - 1] + p * x * (double)x;
            cumulativeInverse[x] = cumulativeInverse[x - 1] + p / x;
            total += p;
            largest = p > 0 ? x : largest;
        }
        if (Math.abs(total - 1) > 1e-9 || probability[0] != 0)
        {
            throw new IllegalArgumentException("the probabilities of 1 or more packets must sum to 1, got " + total);
        }
        largestPackets = largest;
        meanPackets = cumulativeSize[n - 1];
    }

    /**
     * The largest flow, in packets.
     *
     * @return packets.
     */
    public int largestPackets()
    {
        return largestPackets;
    }

    /**
     * What the model predicts for one setting.
     *
     * @param load              offered load ρ, in [0, 1).
     * @param thresholdsPackets t1 &lt; … &lt; t(N-1), in packets; empty for one queue (FIFO).
     * @param overall           mean normalized FCT over all flows.
     * @param small             mean normalized FCT of flows of at most {@link #SMALL_FLOW_BYTES}.
     * @param large             mean normalized FCT of flows above {@link #LARGE_FLOW_BYTES}; NaN if there are none.
     * @param meanPacketTimes   mean FCT in packet times.
     */
    public record Prediction(
        double load, long[] thresholdsPackets, double overall, double small, double large, double meanPacketTimes)
    {
        /**
         * The thresholds as priority numbers: a packet whose flow has fewer than t packets' bytes left goes above.
         *
         * @return bytes.
         */
        public long[] thresholdsBytes()
        {
            final long[] bytes = new long[thresholdsPackets.length];
            for (int i = 0; i < bytes.length; i++)
            {
                bytes[i] = thresholdsPackets[i] * PACKET_BYTES;
            }
            return bytes;
        }
    }

    /**
     * The predicted normalized FCTs for given thresholds.
     *
     * @param load              offered load ρ, in [0, 1).
     * @param thresholdsPackets t1 &lt; … &lt; t(N-1), in packets, each at least 1.
     * @return the prediction.
     */
    public Prediction predict(final double load, final long[] thresholdsPackets)
    {
        final Classes classes = classes(load, thresholdsPackets);
        final int smallest = (int)Math.min(largestPackets, SMALL_FLOW_BYTES / PACKET_BYTES);
        final int firstLarge = (int)(LARGE_FLOW_BYTES / PACKET_BYTES) + 1;
        double small = 0;
        double smallWeight = 0;
        double large = 0;
        double largeWeight = 0;
        for (int x = 1; x <= largestPackets; x++)
        {
            if (x > smallest && x < firstLarge)
            {
                continue;
            }
            final double p = probability[x];
            if (0 == p)
            {
                continue;
            }
            final double normalized = classes.fct(x) / x;
            if (x <= smallest)
            {
                small += p * normalized;
                smallWeight += p;
            }
            else
            {
                large += p * normalized;
                largeWeight += p;
            }
        }
        return new Prediction(load, thresholdsPackets.clone(), classes.meanNormalized,
            smallWeight > 0 ? small / smallWeight : Double.NaN, largeWeight > 0 ? large / largeWeight : Double.NaN,
            classes.meanFct);
    }

    /**
     * The mean normalized FCT over all flows, the quantity {@link #optimal} minimizes.
     *
     * @param load              offered load ρ, in [0, 1).
     * @param thresholdsPackets t1 &lt; … &lt; t(N-1), in packets.
     * @return the mean of FCT / size.
     */
    public double meanNormalizedFct(final double load, final long[] thresholdsPackets)
    {
        return classes(load, thresholdsPackets).meanNormalized;
    }

    /**
     * The thresholds that minimize the mean normalized FCT over all flows, searched over whole packets: every size up
     * to 100 packets, then sizes 2% apart, up to one more than the largest flow (a threshold above every flow leaves
     * its queue's lower neighbours empty). Two queues are searched exhaustively; more by coordinate descent from
     * several starts (sizes splitting the flows, or their bytes, into equal shares, and sizes spaced evenly on a
     * log scale), keeping the best.
     *
     * @param load       offered load ρ, in [0, 1).
     * @param queueCount N, 1 to 8.
     * @return the prediction at the best thresholds found.
     */
    public Prediction optimal(final double load, final int queueCount)
    {
        requireLoad(load);
        if (queueCount < 1)
        {
            throw new IllegalArgumentException("need at least one queue, got " + queueCount);
        }
        if (1 == queueCount)
        {
            return predict(load, new long[0]);
        }
        final long[] grid = candidateGrid();
        if (grid.length < queueCount - 1)
        {
            throw new IllegalArgumentException("flows of at most " + largestPackets + " packets cannot fill " +
                queueCount + " queues");
        }
        long[] best = null;
        double bestValue = Double.POSITIVE_INFINITY;
        for (final long[] start : starts(grid, queueCount - 1))
        {
            final long[] found = descend(load, grid, start);
            final double value = meanNormalizedFct(load, found);
            if (value < bestValue - 1e-12)
            {
                best = found;
                bestValue = value;
            }
        }
        return predict(load, best);
    }

    /**
     * Thresholds that split the range of flow sizes equally: t_i = smallest + i × (largest - smallest) / N, in
     * packets.
     *
     * @param queueCount N, 1 to 8.
     * @return N - 1 increasing thresholds, packets.
     */
    public long[] equalSplit(final int queueCount)
    {
        int smallestPackets = 1;
        while (0 == probability[smallestPackets])
        {
            smallestPackets++;
        }
        final long[] thresholds = new long[queueCount - 1];
        for (int i = 1; i < queueCount; i++)
        {
            thresholds[i - 1] = Math.max(smallestPackets +
                Math.round((double)i * (largestPackets - smallestPackets) / queueCount),
                i > 1 ? thresholds[i - 2] + 1 : 1);
        }
        return thresholds;
    }

    /**
     * The sizes the search tries as thresholds.
     *
     * @return increasing packets.
     */
    public long[] candidateGrid()
    {
        final List<Long> sizes = new ArrayList<>();
        final long top = largestPackets + 1L;
        long t = 2;
        while (t <= top)
        {
            sizes.add(t);
            t = t < 100 ? t + 1 : Math.max(t + 1, (long)Math.ceil(t * 1.02));
        }
        if (sizes.isEmpty() || sizes.get(sizes.size() - 1) != top)
        {
            sizes.add(top);
        }
        return sizes.stream().mapToLong(Long::longValue).toArray();
    }

    private List<long[]> starts(final long[] grid, final int count)
    {
        final List<long[]> starts = new ArrayList<>();
        starts.add(spread(grid, count, cumulative));
        starts.add(spread(grid, count, cumulativeSize));
        final long[] logSpaced = new long[count];
        for (int i = 0; i < count; i++)
        {
            logSpaced[i] = (long)(grid.length * (i + 1.0) / (count + 1));
        }
        starts.add(indicesToSizes(grid, logSpaced));
        return starts;
    }

    private long[] spread(final long[] grid, final int count, final double[] shares)
    {
        final double total = shares[shares.length - 1];
        final long[] indices = new long[count];
        int g = 0;
        for (int i = 0; i < count; i++)
        {
            final double wanted = total * (i + 1.0) / (count + 1);
            while (g < grid.length - 1 && shares[(int)Math.min(grid[g] - 1, largestPackets)] < wanted)
            {
                g++;
            }
            indices[i] = g;
        }
        return indicesToSizes(grid, indices);
    }

    private static long[] indicesToSizes(final long[] grid, final long[] indices)
    {
        final long[] sizes = new long[indices.length];
        long previous = -1;
        for (int i = 0; i < indices.length; i++)
        {
            final long index = Math.min(Math.max(indices[i], previous + 1), grid.length - indices.length + i);
            sizes[i] = grid[(int)index];
            previous = index;
        }
        return sizes;
    }

    private long[] descend(final double load, final long[] grid, final long[] start)
    {
        final long[] current = start.clone();
        double value = meanNormalizedFct(load, current);
        boolean improved = true;
        while (improved)
        {
            improved = false;
            for (int j = 0; j < current.length; j++)
            {
                final long low = j > 0 ? current[j - 1] : 1;
                final long high = j + 1 < current.length ? current[j + 1] : Long.MAX_VALUE;
                final long kept = current[j];
                long bestSize = kept;
                for (final long candidate : grid)
                {
                    if (candidate <= low || candidate >= high || candidate == kept)
                    {
                        continue;
                    }
                    current[j] = candidate;
                    final double tried = meanNormalizedFct(load, current);
                    if (tried < value - 1e-12)
                    {
                        value = tried;
                        bestSize = candidate;
                        improved = true;
                    }
                }
                current[j] = bestSize;
            }
        }
        return current;
    }

    private static void requireLoad(final double load)
    {
        if (!(load >= 0 && load < 1))
        {
            throw new IllegalArgumentException("the load must be at least 0 and below 1, not " +
                String.format(Locale.ROOT, "%s", load));
        }
    }

    private Classes classes(final double load, final long[] thresholdsPackets)
    {
        requireLoad(load);
        final int n = thresholdsPackets.length + 1;
        final long[] u = new long[n + 1];
        for (int k = 1; k < n; k++)
        {
            final long t = thresholdsPackets[k - 1];
            if (t < 1 || (k > 1 && t <= thresholdsPackets[k - 2]))
            {
                throw new IllegalArgumentException("thresholds must be at least 1 packet and strictly increasing");
            }
            u[k] = Math.min(t - 1, largestPackets);
        }
        u[n] = largestPackets;
        final double lambda = load / meanPackets;
        final Classes classes = new Classes(n, u);
        double sigma = 0;
        double residual = 0;
        for (int k = 0; k < n; k++)
        {
            final int from = (int)u[k];
            final int to = (int)Math.max(u[k], u[k + 1]);
            final double width = to - from;
            final double inRange = cumulative[to] - cumulative[from];
            final double sizeInRange = cumulativeSize[to] - cumulativeSize[from];
            final double squareInRange = cumulativeSquare[to] - cumulativeSquare[from];
            final double above = 1 - cumulative[to];
            final double meanJob = sizeInRange - from * inRange + width * above;
            final double meanSquare = squareInRange - 2.0 * from * sizeInRange + (double)from * from * inRange +
                width * width * above;
            final double before = sigma;
            sigma += lambda * meanJob;
            residual += lambda * meanSquare / 2;
            classes.stretch[k] = 1 / (1 - before);
            classes.wait[k] = residual / ((1 - before) * (1 - sigma));
            classes.meanNormalized += classes.stretch[k] * ((inRange - from * (cumulativeInverse[to] -
                cumulativeInverse[from])) + width * (cumulativeInverse[largestPackets] - cumulativeInverse[to])) +
                classes.wait[k] * (cumulativeInverse[largestPackets] - cumulativeInverse[from]);
            classes.meanFct += classes.stretch[k] * meanJob + classes.wait[k] * (1 - cumulative[from]);
        }
        return classes;
    }

    private static final class Classes
    {
        final long[] u;
        final double[] stretch;
        final double[] wait;
        double meanNormalized;
        double meanFct;

        Classes(final int count, final long[] u)
        {
            this.u = u;
            stretch = new double[count];
            wait = new double[count];
        }

        double fct(final long x)
        {
            double fct = 0;
            for (int k = 0; k < stretch.length && x > u[k]; k++)
            {
                fct += stretch[k] * (Math.min(x, u[k + 1]) - u[k]) + wait[k];
            }
            return fct;
        }
    }
}
