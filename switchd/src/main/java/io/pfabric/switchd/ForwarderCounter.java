package io.pfabric.switchd;

/**
 * The forwarder's own counters, beside each port's {@link PortCounter}s.
 */
public enum ForwarderCounter
{
    /**
     * Duty cycles run.
     */
    DUTY_CYCLES,
    /**
     * The longest time between the starts of two duty cycles, in nanoseconds: how long the forwarder's thread was
     * away (descheduled, or parked by its idle strategy), during which arrivals wait in the receive rings and
     * depart together when it comes back. On a loaded machine this, not the traffic, can set a queue's high water.
     */
    LONGEST_DUTY_CYCLE_GAP_NS,
    /**
     * The longest time between the starts of two duty cycles while some port held frames, in nanoseconds, since the
     * forwarder started or since {@link Forwarder#restartBackloggedGap()} last took effect: the stalls that delay
     * departures, without the idle waits of an empty switch.
     */
    LONGEST_BACKLOGGED_GAP_NS
}
