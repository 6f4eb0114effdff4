package io.pfabric.bench.transport;

import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The busy time read from {@code /proc/stat}'s aggregate line, on fixed texts.
 */
class ProcStatTest
{
    private static final String STAT =
        "cpu  10132153 290696 3084719 46828483 16683 0 25195 17 175628 0\n" +
        "cpu0 1393280 32966 572056 13343292 6130 0 17875 8 0 0\n" +
        "cpu1 1335007 33163 507018 13333893 10553 0 7320 9 175628 0\n" +
        "intr 199292405 50 0 0\n" +
        "ctxt 361707839\n" +
        "btime 1715000000\n" +
        "processes 104531\n";

    @Test
    void sumsUserNiceSystemIrqSoftirqAndStealOfTheAggregateLine() throws IOException
    {
        final ProcStat stat = ProcStat.parse(STAT);

        assertEquals(10_132_153L + 290_696 + 3_084_719 + 0 + 25_195 + 17, stat.busyTicks(),
            "idle, iowait, guest and guest_nice are not added; the per-CPU lines are not added again");
    }

    @Test
    void convertsADifferenceOfTicksToMicroseconds() throws IOException
    {
        final ProcStat before = ProcStat.parse("cpu  100 0 50 9000 3 0 0 0 0 0\n");
        final ProcStat after = ProcStat.parse("cpu  160 5 80 9100 4 2 3 0 7 0\n");

        assertEquals((60 + 5 + 30 + 2 + 3) * 10_000L, after.microsSince(before, 100), "USER_HZ 100: 10 ms a tick");
        assertEquals((60 + 5 + 30 + 2 + 3) * 1_000L, after.microsSince(before, 1_000), "USER_HZ 1000");
    }

    @Test
    void readsAnOldKernelsShorterLine() throws IOException
    {
        assertEquals(1 + 2 + 3 + 6 + 7, ProcStat.parse("cpu 1 2 3 4 5 6 7\n").busyTicks(), "no steal field");
    }

    @Test
    void refusesTextWithoutTheAggregateLine()
    {
        assertThrows(IOException.class, () -> ProcStat.parse("cpu0 1 2 3 4 5 6 7 8\nintr 5\n"));
        assertThrows(IOException.class, () -> ProcStat.parse("cpu  1 x 3 4\n"));
        assertThrows(IOException.class, () -> ProcStat.parse("cpu  1 2\n"));
    }

    @Test
    void readsThisMachinesCounters() throws IOException
    {
        assertTrue(ProcStat.read().busyTicks() > 0, "the machine has been busy since boot");
        assertTrue(ProcStat.userHz() > 0);
    }
}
