package io.pfabric.sim;

import io.pfabric.controllerd.asy.RateNormalizer;
import io.pfabric.hostd.control.AsyAdmission;
import io.pfabric.hostd.transport.HostTransport;
import org.agrona.collections.LongArrayQueue;

import java.util.Arrays;

/**
 * ASY on virtual time: controllerd's {@link RateNormalizer} as the central controller, a token bucket per destination
 * on every host.
 * <p>
 * Each host reports, per destination, whether it has a flow not yet complete (segments waiting, or in flight and
 * perhaps to be retransmitted); a report reaches the controller one control
 * delay later. Every update interval the controller builds the offered-rate matrix of the pairs it knows to be
 * backlogged (1, the whole host link, for each), scales it into a doubly sub-stochastic rate matrix, and sends every
 * changed rate to its source, which applies it one control delay later. Hosts send each destination's packets through
 * a token bucket at its rate (depth {@link AsyAdmission#DEFAULT_DEPTH_BYTES}, each packet's mix length plus 24 bytes
 * counted, as hostd's {@link AsyAdmission}: a packet may leave while the bucket is not in debt); leaves spray packets
 * over the spines. The buckets are hostd's logic restated here because the simulator must know when a held-back
 * destination's bucket refills. A bucket that gets a rate after having none starts with a fraction of a full frame
 * of tokens, drawn from a hash of the pair and how often it started: its first packet leaves at once, and the next
 * at a phase of its own. Rates reach every host at the same instant here, and buckets that all started alike would
 * send in lockstep, each period one packet from every source of an incast at once into the destination's port, where
 * the last waited about as long as the fixed timeout and was sent again.
 */
public final class AsyControl implements SimControl
{
    /**
     * Share of a host link the rates may fill: the rest carries the ACKs of the host's own flows, which no
     * controller schedules (a 90-byte ACK per data packet, up to a tenth of the link with 40-byte packets).
     */
    public static final double HEADROOM = 0.9;

    /**
     * Least share of the link a backlogged pair gets before the final scale-down: Sinkhorn scaling of a pattern
     * without total support drives some entries towards 0 (the limit's pattern), which would hold those pairs back
     * until the pattern changes. After the floor, rows and then columns are scaled down again to sum at most 1.
     */
    public static final double MIN_SHARE = 0.01;

    private static final int FULL_FRAME_LENGTH = 1_500 + AsyAdmission.FRAME_OVERHEAD_LENGTH;

    private final int hostCount;
    private final long edgeRateBitsPerSec;
    private final long intervalNs;
    private final long delayNs;
    private final RateNormalizer normalizer;
    private final Host[] hosts;
    private final boolean[] backlogged;
    private final double[] granted;
    private final LongArrayQueue reportTimes = new LongArrayQueue();
    private final LongArrayQueue reports = new LongArrayQueue();
    private final LongArrayQueue rateTimes = new LongArrayQueue();
    private final LongArrayQueue rateKeys = new LongArrayQueue();
    private final LongArrayQueue rateValues = new LongArrayQueue();
    private final int[] rowStart;
    private final int[] column;
    private final double[] offered;
    private final double[] rate;
    private final double[] columnSum;
    private Simulator simulator;
    private long nextUpdateNs;

    /**
     * An ASY controller for a fabric.
     *
     * @param fabric     the simulated fabric.
     * @param intervalNs between rate updates.
     * @param delayNs    one-way control delay.
     */
    public AsyControl(final SimFabric fabric, final long intervalNs, final long delayNs)
    {
        this.hostCount = fabric.hosts();
        this.edgeRateBitsPerSec = fabric.edgeRateBitsPerSec();
        this.intervalNs = intervalNs;
        this.delayNs = delayNs;
        normalizer = new RateNormalizer(hostCount);
        hosts = new Host[hostCount];
        backlogged = new boolean[hostCount * hostCount];
        granted = new double[hostCount * hostCount];
        rowStart = new int[hostCount + 1];
        column = new int[hostCount * hostCount];
        offered = new double[hostCount * hostCount];
        rate = new double[hostCount * hostCount];
        columnSum = new double[hostCount];
    }

    /**
     * The simulator this controller drives, once built.
     *
     * @param simulator the simulator.
     */
    public void attach(final Simulator simulator)
    {
        this.simulator = simulator;
    }

    /**
     * {@inheritDoc}
     */
    public SimAdmission admission(final int host, final HostTransport transport)
    {
        hosts[host] = new Host(host);
        return hosts[host];
    }

    /**
     * {@inheritDoc}
     */
    public long onTick(final long nowNs)
    {
        while (!reportTimes.isEmpty() && reportTimes.peekLong() <= nowNs)
        {
            reportTimes.pollLong();
            final long report = reports.pollLong();
            backlogged[(int)(report >>> 1)] = 0 != (report & 1);
        }
        while (!rateTimes.isEmpty() && rateTimes.peekLong() <= nowNs)
        {
            rateTimes.pollLong();
            final int key = (int)rateKeys.pollLong();
            final long bitsPerSec = rateValues.pollLong();
            final Host host = hosts[key / hostCount];
            host.rate(key % hostCount, bitsPerSec, nowNs);
            if (bitsPerSec > 0)
            {
                simulator.wake(host.index);
            }
        }
        if (nowNs >= nextUpdateNs)
        {
            update(nowNs);
            nextUpdateNs = nowNs + intervalNs;
        }
        long next = nextUpdateNs;
        if (!reportTimes.isEmpty())
        {
            next = Math.min(next, reportTimes.peekLong());
        }
        if (!rateTimes.isEmpty())
        {
            next = Math.min(next, rateTimes.peekLong());
        }
        return next;
    }

    private void update(final long nowNs)
    {
        int entries = 0;
        for (int src = 0; src < hostCount; src++)
        {
            rowStart[src] = entries;
            for (int dst = 0; dst < hostCount; dst++)
            {
                if (backlogged[src * hostCount + dst])
                {
                    column[entries] = dst;
                    offered[entries++] = 1.0;
                }
            }
        }
        rowStart[hostCount] = entries;
        normalizer.normalize(rowStart, column, offered, null, rate);
        floorAndScaleDown(entries);
        for (int src = 0; src < hostCount; src++)
        {
            int e = rowStart[src];
            for (int dst = 0; dst < hostCount; dst++)
            {
                final int key = src * hostCount + dst;
                double value = 0;
                if (e < rowStart[src + 1] && column[e] == dst)
                {
                    value = rate[e++];
                }
                if (value != granted[key])
                {
                    granted[key] = value;
                    rateTimes.addLong(nowNs + delayNs);
                    rateKeys.addLong(key);
                    rateValues.addLong((long)(value * HEADROOM * edgeRateBitsPerSec));
                }
            }
        }
    }

    private void floorAndScaleDown(final int entries)
    {
        Arrays.fill(columnSum, 0.0);
        for (int src = 0; src < hostCount; src++)
        {
            double sum = 0;
            for (int e = rowStart[src]; e < rowStart[src + 1]; e++)
            {
                rate[e] = Math.max(MIN_SHARE, rate[e]);
                sum += rate[e];
            }
            final double down = sum > 1.0 ? 1.0 / sum : 1.0;
            for (int e = rowStart[src]; e < rowStart[src + 1]; e++)
            {
                rate[e] *= down;
                columnSum[column[e]] += rate[e];
            }
        }
        for (int e = 0; e < entries; e++)
        {
            final double sum = columnSum[column[e]];
            if (sum > 1.0)
            {
                rate[e] /= sum;
            }
        }
    }

    private static double phase(final int src, final int dst, final int start)
    {
        long h = ((long)src << 42 | (long)dst << 21 | start) * 0x9E3779B97F4A7C15L;
        h ^= h >>> 31;
        h *= 0xBF58476D1CE4E5B9L;
        h ^= h >>> 29;
        return (h >>> 11) * 0x1.0p-53;
    }

    private final class Host implements SimAdmission
    {
        private final int index;
        private final long[] rateBitsPerSec = new long[hostCount];
        private final double[] tokens = new double[hostCount];
        private final long[] updatedNs = new long[hostCount];
        private final boolean[] reported = new boolean[hostCount];
        private final int[] sendable = new int[hostCount];
        private final int[] active = new int[hostCount];
        private final int[] started = new int[hostCount];

        Host(final int index)
        {
            this.index = index;
        }

        void rate(final int dst, final long bitsPerSec, final long nowNs)
        {
            refill(dst, nowNs);
            if (0 == rateBitsPerSec[dst] && bitsPerSec > 0)
            {
                tokens[dst] = phase(index, dst, ++started[dst]) * FULL_FRAME_LENGTH;
            }
            rateBitsPerSec[dst] = bitsPerSec;
        }

        public int poll(final long nowNs, final HostTransport transport)
        {
            transport.destinationBacklog(sendable, active);
            for (int dst = 0; dst < hostCount; dst++)
            {
                final boolean waiting = active[dst] > 0;
                if (waiting != reported[dst])
                {
                    reported[dst] = waiting;
                    reportTimes.addLong(nowNs + delayNs);
                    reports.addLong((long)(index * hostCount + dst) << 1 | (waiting ? 1 : 0));
                }
            }
            return 0;
        }

        public boolean mayAdmit(final int destinationHost, final long nowNs)
        {
            refill(destinationHost, nowNs);
            return rateBitsPerSec[destinationHost] > 0 && tokens[destinationHost] >= 0;
        }

        public int pathHint(final int destinationHost)
        {
            return NO_PATH;
        }

        public void onAdmitted(final int destinationHost, final long nowNs, final int wireLength)
        {
            refill(destinationHost, nowNs);
            tokens[destinationHost] -= simulator.lastFrameLength(index) + AsyAdmission.FRAME_OVERHEAD_LENGTH;
        }

        public int awaitHeldBack(final long nowNs, final long timeoutNs)
        {
            return 0;
        }

        public long nextAdmitNs(final long nowNs)
        {
            long next = nowNs + intervalNs;
            for (int dst = 0; dst < hostCount; dst++)
            {
                if (active[dst] > 0 && rateBitsPerSec[dst] > 0)
                {
                    refill(dst, nowNs);
                    if (tokens[dst] < 0)
                    {
                        next = Math.min(next, nowNs + 1 + (long)Math.ceil(-tokens[dst] * 8e9 / rateBitsPerSec[dst]));
                    }
                }
            }
            return next;
        }

        private void refill(final int dst, final long nowNs)
        {
            final long elapsedNs = nowNs - updatedNs[dst];
            if (elapsedNs > 0)
            {
                tokens[dst] = Math.min(AsyAdmission.DEFAULT_DEPTH_BYTES,
                    tokens[dst] + elapsedNs * (rateBitsPerSec[dst] / 8e9));
                updatedNs[dst] = nowNs;
            }
        }
    }
}
