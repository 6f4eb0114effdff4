package io.pfabric.switchd;

import io.pfabric.switchd.table.ForwardingTable;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The forwarder counts its duty cycles and keeps the longest time between the starts of two, on its own clock.
 */
class ForwarderDutyCycleTest
{
    @Test
    void keepsTheLongestGapBetweenDutyCycles()
    {
        final CachedNanoClock clock = new CachedNanoClock();
        final Forwarder forwarder = new Forwarder(new SwitchPort[0], new ForwardingTable(), false, clock);
        clock.update(1_000_000);
        forwarder.doWork();
        assertEquals(0, forwarder.counters().get(ForwarderCounter.LONGEST_DUTY_CYCLE_GAP_NS), "no gap after one");
        clock.update(1_000_500);
        forwarder.doWork();
        clock.update(1_040_500);
        forwarder.doWork();
        clock.update(1_041_000);
        forwarder.doWork();
        assertEquals(4, forwarder.counters().get(ForwarderCounter.DUTY_CYCLES));
        assertEquals(40_000, forwarder.counters().get(ForwarderCounter.LONGEST_DUTY_CYCLE_GAP_NS));
    }
}
