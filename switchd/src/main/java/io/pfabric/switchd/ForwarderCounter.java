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
    LONGEST_DUTY_CYCLE_GAP_NS
}
