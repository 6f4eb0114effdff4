package io.pfabric.bench.forwarding;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A process's CPU time from its {@code /proc/PID/stat} line: user plus system ticks, whatever its name holds.
 */
class ProcessCpuTest
{
    @Test
    void addsUserAndSystemTicksPastANameWithSpacesAndParentheses()
    {
        final String stat = "9861 (a (b) c) R 9857 9857 2417 0 -1 4194304 99 0 0 0 17 5 3 1 20 0 1 0 88586 3133440 414";
        assertEquals(22, ProcessCpu.parseTicks(stat));
    }
}
