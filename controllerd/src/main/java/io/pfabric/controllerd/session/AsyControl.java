package io.pfabric.controllerd.session;

import io.pfabric.common.control.ControlMessageFlyweight;
import io.pfabric.controllerd.asy.RateNormalizer;

import java.util.Arrays;

/**
 * ASY control: OFFER entries (offered rate per destination, bits per second) fill an offered-rate matrix normalized by
 * the host link rate; every interval a warm-started {@link RateNormalizer} scales it into rates that keep every host
 * link within capacity, and each host gets its row in RATES messages (every destination with a rate, and a zero for
 * one whose rate fell to zero; an empty message when it has none, which is also the heartbeat). Offers apply only from
 * a host's newest message; a host silent for {@value #STALE_INTERVALS} intervals is taken to offer nothing.
 */
public final class AsyControl implements ControlPolicy
{
    /**
     * Intervals after which a host's offers are dropped if it has not reported.
     */
    public static final int STALE_INTERVALS = 10;

    private final ControllerSession session;
    private final ControllerCounters counters;
    private final int hostCount;
    private final long linkRateBitsPerSec;
    private final long intervalNs;
    private final RateNormalizer normalizer;
    private final double[] offeredMatrix;
    private final long[] sentRateBps;
    private final long[] lastOfferNs;
    private final int[] rowStart;
    private final int[] column;
    private final double[] offered;
    private final double[] rate;
    private final long[] columnSumBps;
    private long nowNs;
    private long nextIntervalNs;

    /**
     * ASY control over a session.
     *
     * @param session            the controller's socket.
     * @param counters           written as it works.
     * @param hostCount          hosts of the fabric.
     * @param linkRateBitsPerSec the host link rate.
     * @param intervalNs         normalization interval.
     * @param startNs            the clock at the start.
     */
    public AsyControl(
        final ControllerSession session,
        final ControllerCounters counters,
        final int hostCount,
        final long linkRateBitsPerSec,
        final long intervalNs,
        final long startNs)
    {
        this.session = session;
        this.counters = counters;
        this.hostCount = hostCount;
        this.linkRateBitsPerSec = linkRateBitsPerSec;
        this.intervalNs = intervalNs;
        this.normalizer = new RateNormalizer(hostCount);
        offeredMatrix = new double[hostCount * hostCount];
        sentRateBps = new long[hostCount * hostCount];
        lastOfferNs = new long[hostCount];
        Arrays.fill(lastOfferNs, startNs);
        rowStart = new int[hostCount + 1];
        column = new int[hostCount * hostCount];
        offered = new double[hostCount * hostCount];
        rate = new double[hostCount * hostCount];
        columnSumBps = new long[hostCount];
        nextIntervalNs = startNs + intervalNs;
        nowNs = startNs;
    }

    /**
     * {@inheritDoc}
     */
    public void time(final long nowNs)
    {
        this.nowNs = nowNs;
    }

    /**
     * {@inheritDoc}
     */
    public void onMessage(final ControlMessageFlyweight message, final boolean newest)
    {
        if (ControlMessageFlyweight.TYPE_OFFER != message.type() || !newest)
        {
            return;
        }
        final int src = message.host();
        lastOfferNs[src] = nowNs;
        for (int i = 0, count = message.entryCount(); i < count; i++)
        {
            final int dst = message.entryPeer(i);
            if (dst >= hostCount || dst == src)
            {
                counters.invalidEntries++;
                continue;
            }
            counters.offerEntries++;
            final double fraction = (double)message.entryValue(i) / linkRateBitsPerSec;
            offeredMatrix[src * hostCount + dst] = Math.max(0.0, Math.min(1.0, fraction));
        }
    }

    /**
     * {@inheritDoc}
     */
    public int duty(final long nowNs)
    {
        this.nowNs = nowNs;
        if (nowNs - nextIntervalNs < 0)
        {
            return 0;
        }
        nextIntervalNs += intervalNs;
        if (nowNs - nextIntervalNs >= 0)
        {
            nextIntervalNs = nowNs + intervalNs;
        }
        normalize();
        Arrays.fill(columnSumBps, 0);
        long maxRow = counters.maxRowRateBps;
        for (int host = 0; host < hostCount; host++)
        {
            maxRow = Math.max(maxRow, sendRates(host));
        }
        long maxColumn = counters.maxColumnRateBps;
        for (int host = 0; host < hostCount; host++)
        {
            maxColumn = Math.max(maxColumn, columnSumBps[host]);
        }
        counters.maxRowRateBps = maxRow;
        counters.maxColumnRateBps = maxColumn;
        return 1;
    }

    /**
     * {@inheritDoc}
     */
    public long nextDeadlineNs()
    {
        return nextIntervalNs;
    }

    /**
     * The rate last sent for a pair.
     *
     * @param src the sending host.
     * @param dst the receiving host.
     * @return bits per second.
     */
    public long rateBitsPerSec(final int src, final int dst)
    {
        return sentRateBps[src * hostCount + dst];
    }

    private void normalize()
    {
        int entries = 0;
        final long staleNs = STALE_INTERVALS * intervalNs;
        for (int src = 0; src < hostCount; src++)
        {
            rowStart[src] = entries;
            if (nowNs - lastOfferNs[src] > staleNs)
            {
                Arrays.fill(offeredMatrix, src * hostCount, (src + 1) * hostCount, 0.0);
                continue;
            }
            for (int dst = 0; dst < hostCount; dst++)
            {
                final double value = offeredMatrix[src * hostCount + dst];
                if (value > 0)
                {
                    column[entries] = dst;
                    offered[entries] = value;
                    entries++;
                }
            }
        }
        rowStart[hostCount] = entries;
        normalizer.normalize(rowStart, column, offered, null, rate);
        counters.normalizations++;
        counters.normalizationIterations += normalizer.iterations();
    }

    private long sendRates(final int src)
    {
        long rowSumBps = 0;
        ControlMessageFlyweight message = session.start(ControlMessageFlyweight.TYPE_RATES, src);
        int entry = rowStart[src];
        final int end = rowStart[src + 1];
        for (int dst = 0; dst < hostCount; dst++)
        {
            long bps = 0;
            if (entry < end && column[entry] == dst)
            {
                bps = (long)Math.floor(rate[entry] * linkRateBitsPerSec);
                entry++;
                rowSumBps += bps;
                columnSumBps[dst] += bps;
            }
            final int pair = src * hostCount + dst;
            if (0 == bps && 0 == sentRateBps[pair])
            {
                continue;
            }
            if (!message.hasRoom())
            {
                counters.rateMessagesSent++;
                session.send();
                message = session.start(ControlMessageFlyweight.TYPE_RATES, src);
            }
            message.appendEntry(dst, 0, 0, bps);
            sentRateBps[pair] = bps;
        }
        counters.rateMessagesSent++;
        session.send();
        return rowSumBps;
    }
}
