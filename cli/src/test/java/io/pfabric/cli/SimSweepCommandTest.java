package io.pfabric.cli;

import io.pfabric.cli.PfabricCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.pfabric.hostd.workload.FctLogReader;
import io.pfabric.hostd.workload.FctLogWriter;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code pfabric sim sweep --format csv} on a small star: one row per scheme, load and bin, every flow counted, and
 * the files the results directory promises.
 */
class SimSweepCommandTest
{
    @TempDir
    Path out;

    private record Ran(int status, String err)
    {
    }

    private static Ran runCapturingErr(final String... args)
    {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final PrintStream original = System.err;
        final int status;
        try (PrintStream capture = new PrintStream(err, true, StandardCharsets.UTF_8))
        {
            System.setErr(capture);
            final CommandLine command = PfabricCommand.commandLine();
            command.setErr(new PrintWriter(capture, true));
            status = command.execute(args);
        }
        finally
        {
            System.setErr(original);
        }
        return new Ran(status, err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aSmallSweepWritesTheSummaryAndThePlot() throws Exception
    {
        final PrintStream original = System.out;
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        final int status;
        try (PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8))
        {
            System.setOut(capture);
            status = new CommandLine(new PfabricCommand()).execute("sim", "sweep", "--topo", "star:8", "--loads",
                "0.3,0.6", "--schemes", "pfabric,tcp,dctcp,ideal", "--flows", "200", "--format", "csv", "--out",
                out.toString());
        }
        finally
        {
            System.setOut(original);
        }
        assertEquals(0, status);
        final List<String> lines =
            Arrays.asList(captured.toString(StandardCharsets.UTF_8).strip().split("\n"));
        assertEquals("scheme,load,bin,count,mean,p50,p99", lines.get(0));
        assertEquals(1 + 4 * 2 * 4, lines.size(), String.join("\n", lines));
        for (final String line : lines.subList(1, lines.size()))
        {
            final String[] fields = line.split(",");
            if ("all".equals(fields[2]))
            {
                assertEquals("200", fields[3], line);
                assertTrue(Double.parseDouble(fields[4]) >= 1.0 - 1e-9, "no scheme beats the idle fabric: " + line);
            }
        }
        for (final String file : List.of("fct-pfabric-0.3.csv", "fct-tcp-0.3.csv", "fct-dctcp-0.6.csv",
            "fct-ideal-0.6.csv", "trace-0.6.csv", "base-rtt.csv", "summary.csv", "fct-vs-load.png"))
        {
            assertTrue(Files.isRegularFile(out.resolve(file)), file);
        }
    }

    @Test
    void pointsRunOnTwoThreadsWriteTheFilesOneThreadWrites() throws Exception
    {
        final Path one = out.resolve("one");
        final Path two = out.resolve("two");
        for (final Path dir : List.of(one, two))
        {
            final int status = new CommandLine(new PfabricCommand()).execute("sim", "sweep", "--topo",
                "leafspine:2x4x2", "--loads", "0.3,0.6", "--schemes", "pfabric,dctcp,pdq", "--flows", "150",
                "--jobs", dir == one ? "1" : "2", "--format", "csv", "--out", dir.toString());
            assertEquals(0, status);
        }
        final List<String> files;
        try (var listing = Files.list(one))
        {
            files = listing.map(path -> path.getFileName().toString()).filter(name -> name.endsWith(".csv"))
                .sorted().toList();
        }
        assertEquals(3 * 2 + 2 + 2, files.size(), files.toString());
        for (final String file : files)
        {
            assertEquals(Arrays.toString(Files.readAllBytes(one.resolve(file))),
                Arrays.toString(Files.readAllBytes(two.resolve(file))), file);
        }
    }

    @Test
    void aRunThatCannotWriteItsFileEndsTheSweepInOneLineWithStatus1OnOneThreadOrTwo() throws Exception
    {
        for (final String jobs : List.of("1", "2"))
        {
            final Path dir = out.resolve("jobs-" + jobs);
            Files.createDirectories(dir.resolve("fct-dctcp-0.3.csv"));
            final Ran ran = runCapturingErr("sim", "sweep", "--topo", "star:4", "--loads", "0.3,0.6", "--schemes",
                "pfabric,dctcp", "--flows", "50", "--jobs", jobs, "--out", dir.toString());
            final List<String> said = ran.err().strip().lines().toList();
            assertEquals(1, ran.status(), ran.err());
            final List<String> errors = said.stream().filter(line -> line.startsWith("pfabric sim sweep: ")).toList();
            assertEquals(1, errors.size(), ran.err());
            assertTrue(errors.get(0).contains("fct-dctcp-0.3.csv"), errors.get(0));
            assertTrue(Files.notExists(dir.resolve("summary.csv")));
        }
    }

    @Test
    void noJobsIsRefusedNamingTheOption()
    {
        final Ran ran = runCapturingErr("sim", "sweep", "--jobs", "0", "--flows", "10", "--out",
            out.resolve("none").toString());
        final String said = ran.err();
        assertEquals(2, ran.status(), said);
        assertTrue(said.contains("--jobs must be at least 1"), said);
        assertEquals(1, said.strip().lines().count(), said);
        assertTrue(Files.notExists(out.resolve("none")));
    }

    @Test
    void anSpPifoBufferThatIsNeitherSplitNorSharedIsRefusedNamingTheOption()
    {
        final Ran ran = runCapturingErr("sim", "sweep", "--discipline", "sp-pifo:8:half", "--flows", "10", "--out",
            out.resolve("none").toString());
        final String said = ran.err();
        assertEquals(2, ran.status(), said);
        assertTrue(said.contains("--discipline: 'sp-pifo:8:half': sp-pifo's queues split the buffer equally unless " +
            "'shared' follows the number of queues, not 'half'"), said);
        assertEquals(1, said.strip().lines().count(), said);
        assertTrue(Files.notExists(out.resolve("none")));
    }

    @Test
    void aRunOnClassesWithMarkedFlowsSummarizesEachDscpApart() throws Exception
    {
        final PrintStream original = System.out;
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        final int status;
        try (PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8))
        {
            System.setOut(capture);
            status = new CommandLine(new PfabricCommand()).execute("sim", "--topo", "star:8", "--load", "0.6",
                "--scheme", "pfabric", "--discipline", "pfabric-classes", "--classes", "3:0-7;1:8-15",
                "--dscp-shares", "0:3,8:1", "--flows", "200", "--format", "csv", "--out", out.toString());
        }
        finally
        {
            System.setOut(original);
        }
        assertEquals(0, status);
        final List<String> header = Files.readAllLines(out.resolve("fct-pfabric-0.6.csv"));
        assertEquals(FctLogWriter.HEADER_WITH_DSCP, header.get(0));
        final List<FctLogReader.Row> rows = FctLogReader.read(out.resolve("fct-pfabric-0.6.csv"));
        assertEquals(200, rows.stream().filter(FctLogReader.Row::isComplete).count());
        final long dscp8 = rows.stream().filter(row -> 8 == row.dscp()).count();
        assertEquals(200, dscp8 + rows.stream().filter(row -> 0 == row.dscp()).count());
        final List<String> all = Arrays.stream(captured.toString(StandardCharsets.UTF_8).strip().split("\n"))
            .filter(line -> line.contains(",all,")).toList();
        assertEquals(List.of("pfabric,0.6,all,200", "pfabric:dscp0,0.6,all," + (200 - dscp8),
            "pfabric:dscp8,0.6,all," + dscp8), all.stream().map(line -> line.substring(0, line.lastIndexOf(',',
            line.lastIndexOf(',', line.lastIndexOf(',') - 1) - 1))).toList());
    }
}
