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
 * Bad deadline options: a one-line error naming the option, exit status 2, nothing written.
 */
class DeadlineOptionsTest
{
    @TempDir
    Path dir;

    private String rejected(final String option, final String... args)
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
        return err;
    }

    @Test
    void eachBadDeadlineOptionIsOneLineNamingItAndWritesNothing()
    {
        final String out = dir.resolve("out").toString();
        final List<String[]> cases = List.of(
            new String[] {"--deadlines", "sim", "--topo", "star:4", "--flows", "50", "--deadlines", "exp:0us",
                "--out", out},
            new String[] {"--deadlines", "sim", "--topo", "star:4", "--flows", "50", "--deadlines", "exp:-1ms",
                "--out", out},
            new String[] {"--deadlines", "sim", "--topo", "star:4", "--flows", "50", "--deadlines",
                "exp:1ms,below=5KB", "--out", out},
            new String[] {"--priority", "sim", "--topo", "star:4", "--flows", "50", "--priority", "deadline",
                "--out", out},
            new String[] {"--priority", "sim", "--topo", "star:4", "--flows", "50", "--priority", "fastest",
                "--out", out},
            new String[] {"pfabric-edf", "sim", "--topo", "star:4", "--flows", "50", "--scheme", "pfabric-edf",
                "--out", out},
            new String[] {"--means", "sim", "deadlines", "--topo", "star:4", "--flows", "50", "--means", "0ms",
                "--out", out},
            new String[] {"--below", "sim", "deadlines", "--topo", "star:4", "--flows", "50", "--below", "1KB",
                "--out", out},
            new String[] {"--deadlines", "trace", "--workload", "websearch", "--hosts", "4", "--rate", "10g",
                "--flows", "10", "--deadlines", "exp:1ms,below=1KB", "--out", out});
        for (final String[] c : cases)
        {
            rejected(c[0], Arrays.copyOfRange(c, 1, c.length));
            assertFalse(Files.exists(Path.of(out)), String.join(" ", c));
        }
    }
}
