package io.pfabric.dataplane.pacer;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DepartureRateMonitorTest
{
    private static final long WIRE_NS = 12_000;

    private final DepartureRateMonitor monitor = new DepartureRateMonitor();

    private long counter(final DepartureCounter counter)
    {
        return monitor.counters().get(counter);
    }

    @Test
    void framesLeavingOneWireTimeApartKeepTheRate()
    {
        for (int i = 0; i < 10; i++)
        {
            monitor.onDeparture(1_000 + i * WIRE_NS, WIRE_NS, i < 9);
        }
        assertEquals(1, counter(DepartureCounter.BACKLOGGED_PERIODS));
        assertEquals(9 * WIRE_NS, counter(DepartureCounter.BACKLOGGED_NS));
        assertEquals(0, counter(DepartureCounter.SLOW_PERIODS));
        assertEquals(0, counter(DepartureCounter.SLOW_BACKLOGGED_NS));
    }

    @Test
    void framesLeavingTwiceTheWireTimeApartWhileBackloggedAreSlow()
    {
        for (int i = 0; i < 5; i++)
        {
            monitor.onDeparture(i * 2 * WIRE_NS, WIRE_NS, i < 4);
        }
        assertEquals(1, counter(DepartureCounter.SLOW_PERIODS));
        assertEquals(8 * WIRE_NS, counter(DepartureCounter.SLOW_BACKLOGGED_NS));
        assertEquals(8 * WIRE_NS, counter(DepartureCounter.BACKLOGGED_NS));
        assertEquals(4 * WIRE_NS, counter(DepartureCounter.BACKLOGGED_WIRE_NS), "half the rate");
    }

    @Test
    void aGapAfterTheQueueEmptiedIsIdleTimeNotLateness()
    {
        monitor.onDeparture(0, WIRE_NS, true);
        monitor.onDeparture(WIRE_NS, WIRE_NS, false);
        monitor.onDeparture(100 * WIRE_NS, WIRE_NS, true);
        monitor.onDeparture(101 * WIRE_NS, WIRE_NS, false);
        assertEquals(2, counter(DepartureCounter.BACKLOGGED_PERIODS));
        assertEquals(2 * WIRE_NS, counter(DepartureCounter.BACKLOGGED_NS));
        assertEquals(0, counter(DepartureCounter.SLOW_PERIODS));
    }

    @Test
    void aLoneFrameIsNoPeriod()
    {
        monitor.onDeparture(0, WIRE_NS, false);
        monitor.onDeparture(5 * WIRE_NS, WIRE_NS, false);
        assertEquals(0, counter(DepartureCounter.BACKLOGGED_PERIODS));
        assertEquals(0, counter(DepartureCounter.BACKLOGGED_NS));
    }

    @Test
    void aCatchUpBurstMakesUpForOneLateDeparture()
    {
        monitor.onDeparture(0, WIRE_NS, true);
        monitor.onDeparture(WIRE_NS, WIRE_NS, true);
        monitor.onDeparture(3 * WIRE_NS, WIRE_NS, true);
        monitor.onDeparture(3 * WIRE_NS, WIRE_NS, true);
        monitor.onDeparture(4 * WIRE_NS, WIRE_NS, false);
        assertEquals(1, counter(DepartureCounter.BACKLOGGED_PERIODS));
        assertEquals(0, counter(DepartureCounter.SLOW_PERIODS));
        assertEquals(4 * WIRE_NS, counter(DepartureCounter.BACKLOGGED_NS));
    }

    @Test
    void justBelowTheMinimumFractionIsSlowAndJustAboveIsNot()
    {
        final long slowGapNs = (long)Math.ceil(WIRE_NS / DepartureRateMonitor.MIN_RATE_FRACTION) + 1;
        monitor.onDeparture(0, WIRE_NS, true);
        monitor.onDeparture(slowGapNs, WIRE_NS, false);
        assertEquals(1, counter(DepartureCounter.SLOW_PERIODS));
        final long fastGapNs = (long)Math.floor(WIRE_NS / DepartureRateMonitor.MIN_RATE_FRACTION) - 1;
        monitor.onDeparture(1_000_000, WIRE_NS, true);
        monitor.onDeparture(1_000_000 + fastGapNs, WIRE_NS, false);
        assertEquals(2, counter(DepartureCounter.BACKLOGGED_PERIODS));
        assertEquals(1, counter(DepartureCounter.SLOW_PERIODS));
    }

    @Test
    void aLongBackloggedStretchIsCutIntoPeriodsSoThatOneStallShowsAlone()
    {
        final int framesPerPeriod = (int)(DepartureRateMonitor.PERIOD_CAP_NS / WIRE_NS) + 1;
        long nowNs = 0;
        for (int i = 0; i < 3 * framesPerPeriod; i++)
        {
            monitor.onDeparture(nowNs, WIRE_NS, true);
            nowNs += WIRE_NS;
            if (framesPerPeriod + framesPerPeriod / 2 == i)
            {
                nowNs += DepartureRateMonitor.PERIOD_CAP_NS / 2;
            }
        }
        monitor.onDeparture(nowNs, WIRE_NS, false);
        assertEquals(3, counter(DepartureCounter.BACKLOGGED_PERIODS));
        assertEquals(1, counter(DepartureCounter.SLOW_PERIODS));
        assertEquals(3 * framesPerPeriod * WIRE_NS + DepartureRateMonitor.PERIOD_CAP_NS / 2,
            counter(DepartureCounter.BACKLOGGED_NS));
    }
}
