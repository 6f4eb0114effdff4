package io.pfabric.experiment;

import io.pfabric.analysis.ResultsTable;
import io.pfabric.common.topology.Topologies;
import io.pfabric.hostd.workload.FctLogReader;
import io.pfabric.hostd.workload.TraceFile;
import io.pfabric.testbed.NetnsFabric;
import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A small experiment end to end: three hosts on a 100 Mb/s star, one load, pfabric, linerate and kernel TCP, and
 * Ideal. Every scheme replays the same trace and completes it; the results directory holds what the README promises;
 * nothing is left behind.
 */
@Timeout(300)
@RequiresNetns
class ExperimentSystemTest
{
    private static final int FLOWS = 30;
    private static final Path ALLOWED_CC = Path.of("/proc/sys/net/ipv4/tcp_allowed_congestion_control");

    @TempDir
    Path out;

    @AfterEach
    void tearDown() throws Exception
    {
        NetnsFabric.removeLeftovers(Experiment.PREFIX);
    }

    @Test
    void everySchemeReplaysTheSameTraceAndTheResultsAreComplete() throws Exception
    {
        final String allowedBefore = Files.readString(ALLOWED_CC).trim();
        final ExperimentSettings settings = new ExperimentSettings("netns", "star:3",
            Topologies.star(3, "", 100_000_000L, "pfabric"), 100_000_000L, "websearch", List.of(0.5),
            List.of("pfabric", "linerate", "tcp"), FLOWS, 7, out, "cubic", 0, TimeUnit.SECONDS.toNanos(30),
            "./pfabric experiment --topo star:3 --loads 0.5 --flows 30");
        final ByteArrayOutputStream progress = new ByteArrayOutputStream();
        final Experiment.Outcome outcome =
            new Experiment(settings, new PrintStream(progress, true, StandardCharsets.UTF_8)).run();

        final List<Long> traceIds = TraceFile.read(out.resolve("trace-0.5.csv")).flows().stream()
            .map(flow -> flow.flowIndex()).sorted().toList();
        assertEquals(FLOWS, traceIds.size());
        for (final String scheme : List.of("pfabric", "linerate", "tcp", "ideal", Experiment.SIMULATED_SCHEME))
        {
            final List<FctLogReader.Row> rows = FctLogReader.read(out.resolve("fct-" + scheme + "-0.5.csv"));
            assertEquals(traceIds, rows.stream().map(FctLogReader.Row::flowId).sorted().toList(),
                scheme + " replayed the trace's flows, each once");
            assertTrue(rows.stream().allMatch(FctLogReader.Row::isComplete), scheme + ": every flow completed");
            assertTrue(rows.stream().allMatch(row -> scheme.equals(row.scheme())), scheme + " is the logged scheme");
            assertEquals(sizes(traceFile()), rows.stream().sorted(Comparator.comparingLong(FctLogReader.Row::flowId))
                .map(FctLogReader.Row::sizeBytes).toList(), scheme + ": the trace's sizes");
        }

        assertEquals(5 * 4, outcome.lines().size(), "five schemes with the simulated pFabric, four bins each");
        for (final ResultsTable.Line line : outcome.lines())
        {
            if ("all".equals(line.bin()))
            {
                assertEquals(FLOWS, line.summary().count(), line.scheme() + ": every flow counted");
                assertEquals(0, line.summary().incomplete());
                assertTrue(line.summary().mean() >= 1.0 - 1e-9, line.scheme() + ": no flow beats the idle fabric " +
                    "on average: " + line.summary().mean());
            }
        }
        final double idealMean = allMean(outcome, "ideal");
        for (final String scheme : List.of("pfabric", "linerate", "tcp", Experiment.SIMULATED_SCHEME))
        {
            assertTrue(idealMean <= allMean(outcome, scheme), "Ideal is a lower bound: " + idealMean + " vs " +
                scheme + " " + allMean(outcome, scheme));
        }

        final List<String> summary = Files.readAllLines(out.resolve("summary.csv"));
        assertEquals(ResultsTable.FIDELITY_CSV_HEADER, summary.get(0));
        assertEquals(1 + 20, summary.size());
        for (final String row : summary.subList(1, summary.size()))
        {
            final String fidelity = row.substring(row.lastIndexOf(',') + 1);
            final boolean emulated = List.of("pfabric", "linerate", "tcp").contains(row.substring(0, row.indexOf(',')));
            assertTrue(emulated ? "ok".equals(fidelity) || fidelity.startsWith("broken:") : "-".equals(fidelity),
                "every emulated run has a verdict, the others none: " + row);
        }
        assertEquals(List.of("pfabric,0.5", "linerate,0.5", "tcp,0.5"), List.copyOf(outcome.fidelity().keySet()));
        final byte[] png = Files.readAllBytes(out.resolve("fct-vs-load.png"));
        assertTrue(png.length > 1_000, "a plot was drawn");
        assertArrayEquals(new byte[]{ (byte)0x89, 'P', 'N', 'G' }, java.util.Arrays.copyOf(png, 4));
        assertTrue(Files.readAllLines(out.resolve("base-rtt.csv")).size() == 1 + 3 * 2, "a base RTT per path");
        assertTrue(outcome.tcpSettings().startsWith("kernel TCP cubic, tcp_rto_min_us="), outcome.tcpSettings());

        assertEquals(List.of(), NetnsFabric.removeLeftovers(Experiment.PREFIX), "no namespaces left behind");
        assertEquals(allowedBefore, Files.readString(ALLOWED_CC).trim(), "the host's allowed congestion controls " +
            "are as they were");
    }

    private Path traceFile()
    {
        return out.resolve("trace-0.5.csv");
    }

    private static List<Long> sizes(final Path trace) throws Exception
    {
        return TraceFile.read(trace).flows().stream()
            .sorted(Comparator.comparingLong(flow -> flow.flowIndex())).map(flow -> flow.sizeBytes()).toList();
    }

    private static double allMean(final Experiment.Outcome outcome, final String scheme)
    {
        return outcome.lines().stream().filter(line -> scheme.equals(line.scheme()) && "all".equals(line.bin()))
            .findFirst().orElseThrow().summary().mean();
    }
}
