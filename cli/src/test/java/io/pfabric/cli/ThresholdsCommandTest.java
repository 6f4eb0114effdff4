package io.pfabric.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ThresholdsCommandTest
{
    private static void assertRejected(final String option, final String... args)
    {
        final ThresholdsCommand command = CommandLine.populateCommand(new ThresholdsCommand(), args);
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, command::call);
        assertTrue(ex.getMessage().startsWith(option), ex.getMessage());
        assertFalse(ex.getMessage().contains("\n"), ex.getMessage());
    }

    @Test
    void badInputIsOneLineNamingTheOption()
    {
        assertRejected("--load", "--load", "1");
        assertRejected("--load", "--load", "-0.1");
        assertRejected("--queues", "--queues", "9");
        assertRejected("--queues", "--queues", "0");
        assertRejected("--split", "--split", "quantile");
        assertRejected("--workload", "--workload", "/nonexistent.cdf");
        assertRejected("--format", "--format", "json");
    }

    @Test
    void aDisciplineOptionNamesItselfAndSwitchesNeedGivenThresholds()
    {
        assertEquals(4, DisciplineOption.check("--discipline", "strict:4").queueCount());
        final IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
            () -> DisciplineOption.check("--discipline", "strict:3:200,100"));
        assertTrue(bad.getMessage().startsWith("--discipline: "), bad.getMessage());
        final IllegalArgumentException model = assertThrows(IllegalArgumentException.class,
            () -> DisciplineOption.checkGiven("--discipline", "strict:4"));
        assertTrue(model.getMessage().contains("strict:4:T1,T2,..."), model.getMessage());
        assertEquals(3, DisciplineOption.checkGiven("--discipline", "strict:3:100,200").queueCount());
    }
}
