package io.pfabric.dataplane.pacer;

/**
 * What a {@link DepartureRateMonitor} counts about a paced port's backlogged stretches.
 */
public enum DepartureCounter
{
    /**
     * Backlogged periods measured: stretches of departures with frames waiting between them, cut at
     * {@link DepartureRateMonitor#PERIOD_CAP_NS} of wire time.
     */
    BACKLOGGED_PERIODS,
    /**
     * Of those, the periods whose frames left below {@link DepartureRateMonitor#MIN_RATE_FRACTION} of the configured
     * rate: the port did not keep its link busy while it had frames to send.
     */
    SLOW_PERIODS,
    /**
     * Time the measured periods lasted, in nanoseconds: from each period's first departure to the departure after
     * its last frame.
     */
    BACKLOGGED_NS,
    /**
     * The wire time at the configured rate of the frames whose departures those periods measured, in nanoseconds:
     * over {@link #BACKLOGGED_NS}, the fraction of its rate the port achieved while backlogged.
     */
    BACKLOGGED_WIRE_NS,
    /**
     * Time the slow periods lasted, in nanoseconds.
     */
    SLOW_BACKLOGGED_NS
}
