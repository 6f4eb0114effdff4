package io.pfabric.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad input to pias and to an experiment's --discipline: one line naming the option, nothing created.
 */
class PiasOptionsTest
{
    @TempDir
    Path directory;

    private static void assertRejected(final String option, final Callable<?> command)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, command::call);
        assertTrue(ex.getMessage().startsWith(option), ex.getMessage());
        assertFalse(ex.getMessage().contains("\n"), ex.getMessage());
    }

    @Test
    void theSimulatorsPiasNeedsThresholdsItCanRead() throws Exception
    {
        final Path out = directory.resolve("out");
        final Path sizes = directory.resolve("sizes.cdf");
        Files.writeString(sizes, "1000 1 0\n100000 1 1\n");
        assertRejected("--pias-thresholds", CommandLine.populateCommand(new SimCommand(), "--scheme", "pias",
            "--workload", sizes.toString(), "--flows", "10", "--out", out.toString()));
        assertRejected("--pias-thresholds", CommandLine.populateCommand(new SimCommand(), "--scheme", "pias",
            "--pias-thresholds", "5000,100", "--flows", "10", "--out", out.toString()));
        assertFalse(Files.exists(out));
    }

    @Test
    void anExperimentsDisciplineIsOneHostdRunsOnAndPiasNeedsKernelTcp()
    {
        final Path out = directory.resolve("out");
        assertRejected("--discipline", CommandLine.populateCommand(new ExperimentCommand(), "--discipline", "pias",
            "--out", out.toString()));
        assertRejected("--discipline", CommandLine.populateCommand(new ExperimentCommand(), "--discipline",
            "strict:3:200,100", "--out", out.toString()));
        assertRejected("--schemes", CommandLine.populateCommand(new ExperimentCommand(), "--testbed", "loopback",
            "--schemes", "pias", "--out", out.toString()));
        assertFalse(Files.exists(out));
    }
}
