package io.pfabric.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad options of the micro-experiments' commands: a one-line error naming the option, exit status 2, nothing written.
 */
class MicroExperimentOptionsTest
{
    @TempDir
    Path dir;

    private void rejected(final String option, final String... args)
    {
        final PrintStream original = System.err;
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        final int status;
        try (PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8))
        {
            System.setErr(capture);
            status = PfabricCommand.commandLine().setErr(new PrintWriter(capture, true)).execute(args);
        }
        finally
        {
            System.setErr(original);
        }
        final String err = captured.toString(StandardCharsets.UTF_8).strip();
        assertEquals(2, status, err);
        assertEquals(1, err.lines().count(), err);
        assertTrue(err.contains(option), err);
    }

    @Test
    void eachBadOptionIsOneLineNamingItAndWritesNothing()
    {
        final String out = dir.resolve("out").toString();
        final List<String[]> cases = List.of(
            new String[] {"--scheme", "sim", "loss-by-hop", "--scheme", "tcp", "--out", out},
            new String[] {"--bins", "sim", "loss-by-hop", "--bins", "1MB,10KB", "--out", out},
            new String[] {"--load", "sim", "loss-by-hop", "--load", "1.5", "--out", out},
            new String[] {"--priorities", "sim", "priority", "--priorities", "deadline", "--out", out},
            new String[] {"--baselines", "sim", "priority", "--baselines", "dctcp", "--out", out},
            new String[] {"--priority", "sim", "priority", "--priority", "size", "--out", out},
            new String[] {"--flows", "sim", "flow-switching", "--flows", "0", "--out", out},
            new String[] {"--size", "sim", "flow-switching", "--size", "20QB", "--out", out},
            new String[] {"--interval", "sim", "flow-switching", "--interval", "0us", "--out", out},
            new String[] {"--probe-after", "sim", "probe-mode", "--probe-after", "5,never", "--out", out},
            new String[] {"--flows", "sim", "probe-mode", "--flows", "1,200", "--out", out},
            new String[] {"--duration", "sim", "probe-mode", "--duration", "-1ms", "--out", out},
            new String[] {"--senders", "sim", "incast", "--senders", "0", "--out", out},
            new String[] {"--requests", "sim", "incast", "--requests", "0", "--out", out},
            new String[] {"--schemes", "sim", "incast", "--schemes", "ideal", "--out", out},
            new String[] {"--buffers", "sim", "sensitivity", "--buffers", "0.01", "--out", out},
            new String[] {"--timeouts", "sim", "sensitivity", "--timeouts", "0", "--out", out},
            new String[] {"--buffer", "sim", "sensitivity", "--buffer", "9000", "--out", out});
        for (final String[] c : cases)
        {
            rejected(c[0], Arrays.copyOfRange(c, 1, c.length));
            assertFalse(Files.exists(Path.of(out)), String.join(" ", c));
        }
    }
}
