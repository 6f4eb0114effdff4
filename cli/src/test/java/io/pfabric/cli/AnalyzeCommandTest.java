package io.pfabric.cli;

import io.pfabric.hostd.workload.FctLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code pfabric analyze --absolute}: FCT in milliseconds from several directories into one {@code fct-ms.csv}, and
 * its bad input as a one-line error with status 2 that writes nothing.
 */
class AnalyzeCommandTest
{
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    private record Run(int status, String out, String err)
    {
    }

    private static Run run(final String... args)
    {
        final PrintStream originalOut = System.out;
        final PrintStream originalErr = System.err;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status;
        try (PrintStream stdout = new PrintStream(out, true, StandardCharsets.UTF_8);
            PrintStream stderr = new PrintStream(err, true, StandardCharsets.UTF_8))
        {
            System.setOut(stdout);
            System.setErr(stderr);
            status = PfabricCommand.commandLine().setOut(new PrintWriter(stdout, true))
                .setErr(new PrintWriter(stderr, true)).execute(args);
        }
        finally
        {
            System.setOut(originalOut);
            System.setErr(originalErr);
        }
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8).strip());
    }

    /**
     * Small FCTs 1, 3 and 5 ms: mean 3, 99th percentile at k = 2 * 0.99 = 1.98, 3 + 2 * 0.98 = 4.96; one 2 MB flow of
     * 40 ms.
     */
    private static void writeLog(final Path file, final String scheme) throws IOException
    {
        Files.createDirectories(file.getParent());
        try (FctLogWriter log = new FctLogWriter(file))
        {
            log.append(1, "h1", "h2", 1_000, 0, 5 * MS, 0, 0, scheme);
            log.append(2, "h1", "h2", 1_000, 0, MS, 0, 0, scheme);
            log.append(3, "h1", "h2", 100_000, 0, 3 * MS, 0, 0, scheme);
            log.append(4, "h1", "h2", 2_000_000, 0, 40 * MS, 0, 0, scheme);
        }
    }

    @Test
    void absoluteWritesOneFctMsCsvFromSeveralDirectories() throws IOException
    {
        writeLog(dir.resolve("runs/pfabric/fct-pfabric-0.5.csv"), "pfabric");
        writeLog(dir.resolve("runs/pfabric/fct-ideal-0.5.csv"), "ideal");
        writeLog(dir.resolve("runs/pfabric/fct-ideal-0.1.csv"), "ideal");
        writeLog(dir.resolve("runs/sp-pifo-8/fct-pfabric-0.5.csv"), "pfabric");
        final Path out = dir.resolve("results");
        final Run run = run("analyze", "--absolute", "--loads", "0.5", "--out", out.toString(),
            dir.resolve("runs/pfabric").toString(), "sp-pifo-8=" + dir.resolve("runs/sp-pifo-8"));
        assertEquals(0, run.status(), run.err());
        final String expected = """
            scheme,load,small_flows,small_mean_ms,small_p99_ms,ge1MB_flows,ge1MB_mean_ms
            ideal,0.5,3,3.0000,4.9600,1,40.000
            pfabric,0.5,3,3.0000,4.9600,1,40.000
            sp-pifo-8,0.5,3,3.0000,4.9600,1,40.000
            """;
        assertEquals(expected, Files.readString(out.resolve("fct-ms.csv"), StandardCharsets.UTF_8));
        assertEquals(expected, run.out());
    }

    @Test
    void absoluteOnOneDirectoryWritesThere() throws IOException
    {
        writeLog(dir.resolve("fct-dctcp-0.8.csv"), "dctcp");
        final Run run = run("analyze", "--absolute", dir.toString());
        assertEquals(0, run.status(), run.err());
        assertTrue(Files.readString(dir.resolve("fct-ms.csv"), StandardCharsets.UTF_8)
            .endsWith("\ndctcp,0.8,3,3.0000,4.9600,1,40.000\n"));
    }

    @Test
    void badInputIsOneLineWithStatusTwoAndWritesNothing() throws IOException
    {
        final Path logs = dir.resolve("logs");
        writeLog(logs.resolve("fct-pfabric-0.5.csv"), "pfabric");
        final Path bigOnly = Files.createDirectories(dir.resolve("big-only"));
        try (FctLogWriter log = new FctLogWriter(bigOnly.resolve("fct-pfabric-0.5.csv")))
        {
            log.append(1, "h1", "h2", 2_000_000, 0, 40 * MS, 0, 0, "pfabric");
        }
        final Path empty = Files.createDirectories(dir.resolve("empty"));
        final String out = dir.resolve("out").toString();
        assertRejected("no fct-*.csv files", "analyze", "--absolute", "--out", out, empty.toString());
        assertRejected("no completed flow of at most 100000 B", "analyze", "--absolute", "--out", out,
            bigOnly.toString());
        assertRejected("no fct-*.csv files of the loads asked for", "analyze", "--absolute", "--loads", "0.2",
            "--out", out, logs.toString());
        assertRejected("--loads", "analyze", "--absolute", "--loads", "high", "--out", out, logs.toString());
        assertRejected("--out", "analyze", "--absolute", logs.toString(), bigOnly.toString());
        assertRejected("--rate", "analyze", "--absolute", "--rate", "1g", "--out", out, logs.toString());
        assertRejected("--out", "analyze", "--rate", "1g", "--base-rtt", "10us", "--out", out, logs.toString());
        assertRejected("--rate", "analyze", "--base-rtt", "10us", logs.toString());
        assertFalse(Files.exists(dir.resolve("out")));
        assertFalse(Files.exists(logs.resolve("fct-ms.csv")));
        assertFalse(Files.exists(logs.resolve("summary.csv")));
    }

    @Test
    void helpNamesTheAbsoluteTable()
    {
        final Run run = run("analyze", "--help");
        assertEquals(0, run.status());
        assertTrue(run.out().contains("--absolute"), run.out());
        assertTrue(run.out().contains("LABEL=RESULTS_DIR"), run.out());
        assertTrue(run.out().replaceAll("\\s+", "")
            .contains("scheme,load,small_flows,small_mean_ms,small_p99_ms,ge1MB_flows,ge1MB_mean_ms"), run.out());
    }

    private static void assertRejected(final String expected, final String... args)
    {
        final Run run = run(args);
        assertEquals(2, run.status(), run.err());
        assertEquals(1, run.err().lines().count(), run.err());
        assertTrue(run.err().contains(expected), run.err());
    }
}
