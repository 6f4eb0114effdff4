package io.pfabric.dataplane.pacer;

import io.pfabric.common.status.CounterSet;

/**
 * Watches whether a paced port departs at its configured rate while it has frames waiting: the invariant an emulated
 * link must keep for its queue to behave as the real one's (Handigol et al., CoNEXT 2012, check the same on their
 * emulated links). Between two consecutive departures of a backlogged stretch the wire should be busy with the
 * earlier frame and nothing else, so the time between them should not exceed that frame's wire time; a thread that
 * comes late stretches it, and the pacer's catch-up burst shrinks the next one. The monitor sums both, per period of
 * at most {@link #PERIOD_CAP_NS} of wire time, and a period whose frames' wire time is below
 * {@link #MIN_RATE_FRACTION} of the time it lasted is slow. The last frame of a stretch (the queue empty after it)
 * closes it: what comes after is idle time, not lateness.
 * <p>
 * Pure: the caller gives the time of each departure; no allocation. Owner thread only, but its counters may be read
 * from any thread.
 */
public final class DepartureRateMonitor
{
    /**
     * Fraction of the configured rate below which a backlogged period counts as slow. 95%: the pacer holds the long
     * run within 1% and makes up for one late wake-up per burst, so a period below 95% lost more than jitter.
     */
    public static final double MIN_RATE_FRACTION = 0.95;

    /**
     * Most wire time, in nanoseconds, of one measured period: long enough that a single late duty cycle the next
     * burst makes up for stays within it, short enough that a port backlogged for seconds reports within the second
     * and one bad stretch does not hide in a long good one.
     */
    public static final long PERIOD_CAP_NS = 10_000_000L;

    private final CounterSet<DepartureCounter> counters = new CounterSet<>(DepartureCounter.class);
    private boolean open;
    private long lastDepartureNs;
    private long lastWireNs;
    private long periodWireNs;
    private long periodElapsedNs;

    /**
     * Count a departure.
     *
     * @param nowNs           when the frame left.
     * @param wireNs          its wire time at the configured rate.
     * @param stillBacklogged whether frames wait behind it.
     */
    public void onDeparture(final long nowNs, final long wireNs, final boolean stillBacklogged)
    {
        if (open)
        {
            periodWireNs += lastWireNs;
            periodElapsedNs += nowNs - lastDepartureNs;
            if (periodWireNs >= PERIOD_CAP_NS)
            {
                closePeriod();
            }
        }
        open = stillBacklogged;
        lastDepartureNs = nowNs;
        lastWireNs = wireNs;
        if (!stillBacklogged && periodWireNs > 0)
        {
            closePeriod();
        }
    }

    /**
     * The counters: periods, slow periods and their durations.
     *
     * @return the counters.
     */
    public CounterSet<DepartureCounter> counters()
    {
        return counters;
    }

    private void closePeriod()
    {
        counters.add(DepartureCounter.BACKLOGGED_PERIODS, 1);
        counters.add(DepartureCounter.BACKLOGGED_NS, periodElapsedNs);
        counters.add(DepartureCounter.BACKLOGGED_WIRE_NS, periodWireNs);
        if (periodWireNs < MIN_RATE_FRACTION * periodElapsedNs)
        {
            counters.add(DepartureCounter.SLOW_PERIODS, 1);
            counters.add(DepartureCounter.SLOW_BACKLOGGED_NS, periodElapsedNs);
        }
        periodWireNs = 0;
        periodElapsedNs = 0;
    }
}
