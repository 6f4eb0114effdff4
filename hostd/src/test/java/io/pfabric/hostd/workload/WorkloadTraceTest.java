package io.pfabric.hostd.workload;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WorkloadTraceTest
{
    @Test
    void theArrivalRateCountsHeadersOnTheAccessLink()
    {
        assertEquals(0.6 * 10e9 / (1141.41 * 1500 * 8), WorkloadTrace.flowsPerSecondPerHost(0.6, 10_000_000_000L,
            1141.41), 1e-9);
        assertEquals(438.0, WorkloadTrace.flowsPerSecondPerHost(0.6, 10_000_000_000L, 1141.41), 0.1);
    }

    @Test
    void theSameSeedGivesTheSameTraceAndAnotherSeedAnother() throws Exception
    {
        final FlowSizeDistribution web = FlowSizeDistribution.load("websearch");
        final List<WorkloadTrace.FlowSpec> a = WorkloadTrace.generate(4, 0.5, 1_000_000_000L, web, 42, 500, 0);
        final List<WorkloadTrace.FlowSpec> b = WorkloadTrace.generate(4, 0.5, 1_000_000_000L, web, 42, 500, 0);
        final List<WorkloadTrace.FlowSpec> c = WorkloadTrace.generate(4, 0.5, 1_000_000_000L, web, 43, 500, 0);
        assertEquals(500, a.size());
        assertEquals(a, b);
        assertNotEquals(a, c);
    }

    @Test
    void destinationsAreOtherHostsChosenUniformly() throws Exception
    {
        final FlowSizeDistribution web = FlowSizeDistribution.load("websearch");
        final List<WorkloadTrace.FlowSpec> flows = WorkloadTrace.generate(4, 0.5, 1_000_000_000L, web, 7, 12_000, 0);
        final int[][] counts = new int[4][4];
        long previousStart = 0;
        for (final WorkloadTrace.FlowSpec flow : flows)
        {
            assertNotEquals(flow.sourceHost(), flow.destinationHost());
            assertTrue(flow.startNs() >= previousStart, "in order of start");
            assertEquals(0, flow.sizeBytes() % FlowSizeDistribution.SEGMENT_PAYLOAD_BYTES);
            previousStart = flow.startNs();
            counts[flow.sourceHost()][flow.destinationHost()]++;
        }
        for (int source = 0; source < 4; source++)
        {
            int total = 0;
            for (int destination = 0; destination < 4; destination++)
            {
                total += counts[source][destination];
            }
            for (int destination = 0; destination < 4; destination++)
            {
                if (destination != source)
                {
                    final double share = (double)counts[source][destination] / total;
                    assertTrue(share > 0.28 && share < 0.39, "share " + share + " of " + source + "->" + destination);
                }
            }
        }
    }

    @Test
    void interArrivalTimesAverageTheInverseOfTheRate() throws Exception
    {
        final FlowSizeDistribution web = FlowSizeDistribution.load("websearch");
        final List<WorkloadTrace.FlowSpec> flows = WorkloadTrace.generate(2, 0.8, 1_000_000_000L, web, 3, 40_000, 0);
        final double rate = WorkloadTrace.flowsPerSecondPerHost(0.8, 1_000_000_000L, web.exactMeanPackets());
        final long lastHostZeroStart = flows.stream().filter(f -> 0 == f.sourceHost())
            .mapToLong(WorkloadTrace.FlowSpec::startNs).max().orElseThrow();
        final long hostZeroFlows = flows.stream().filter(f -> 0 == f.sourceHost()).count();
        assertEquals(1e9 / rate, (double)lastHostZeroStart / hostZeroFlows, 0.03 * 1e9 / rate);
    }

    @Test
    void aDurationBoundsTheStartTimes() throws Exception
    {
        final FlowSizeDistribution web = FlowSizeDistribution.load("websearch");
        final List<WorkloadTrace.FlowSpec> flows =
            WorkloadTrace.generate(3, 0.5, 1_000_000_000L, web, 1, 0, 2_000_000_000L);
        assertTrue(flows.size() > 50);
        assertTrue(flows.stream().allMatch(f -> f.startNs() < 2_000_000_000L));
    }

    @Test
    void theFctLogHasOneRowPerFlowWithEmptyTimesForIncompleteFlows(@TempDir final Path directory) throws Exception
    {
        final Path file = directory.resolve("fct.csv");
        try (FctLogWriter log = new FctLogWriter(file))
        {
            log.append(1, "h1", "h2", 1460, 100, 600, 0, 0, "pfabric");
            log.append(2, "h2", "h1", 2920, 200, -1, 3, 1460, "pfabric");
        }
        assertEquals(List.of(FctLogWriter.HEADER, "1,h1,h2,1460,100,600,500,0,0,pfabric",
            "2,h2,h1,2920,200,,,3,1460,pfabric"), Files.readAllLines(file));
    }

    @Test
    void aLogWithDscpsReadsBackWithThemAndALogWithoutReadsAsDscpZero(@TempDir final Path directory) throws Exception
    {
        final Path marked = directory.resolve("marked.csv");
        try (FctLogWriter log = new FctLogWriter(marked, true))
        {
            log.append(1, "h1", "h2", 1460, 100, 600, 0, 0, "pfabric", 8);
            log.append(2, "h2", "h1", 2920, 200, -1, 3, 1460, "pfabric");
        }
        assertEquals(List.of(FctLogWriter.HEADER_WITH_DSCP, "1,h1,h2,1460,100,600,500,0,0,pfabric,8",
            "2,h2,h1,2920,200,,,3,1460,pfabric,0"), Files.readAllLines(marked));
        assertEquals(List.of(new FctLogReader.Row(1, "h1", "h2", 1460, 100, 600, 0, 0, "pfabric", 8),
            new FctLogReader.Row(2, "h2", "h1", 2920, 200, -1, 3, 1460, "pfabric", 0)), FctLogReader.read(marked));

        final Path plain = directory.resolve("plain.csv");
        try (FctLogWriter log = new FctLogWriter(plain))
        {
            log.append(1, "h1", "h2", 1460, 100, 600, 0, 0, "pfabric", 8);
        }
        assertEquals(List.of(FctLogWriter.HEADER, "1,h1,h2,1460,100,600,500,0,0,pfabric"), Files.readAllLines(plain));
        assertEquals(List.of(new FctLogReader.Row(1, "h1", "h2", 1460, 100, 600, 0, 0, "pfabric", 0)),
            FctLogReader.read(plain));

        final Path bad = directory.resolve("bad.csv");
        Files.write(bad, List.of(FctLogWriter.HEADER_WITH_DSCP, "1,h1,h2,1460,100,600,500,0,0,pfabric,64"));
        final IllegalArgumentException outOfRange =
            assertThrows(IllegalArgumentException.class, () -> FctLogReader.read(bad));
        assertTrue(outOfRange.getMessage().startsWith(bad + ":2: "), outOfRange.getMessage());
        Files.write(bad, List.of(FctLogWriter.HEADER_WITH_DSCP, "1,h1,h2,1460,100,600,500,0,0,pfabric"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> FctLogReader.read(bad)).getMessage()
            .contains("expected 11 fields"));
    }

    @Test
    void aTraceFileReadsBackAsWrittenAndNamesTheLineOfABadRow(@TempDir final Path directory) throws Exception
    {
        final FlowSizeDistribution web = FlowSizeDistribution.load("websearch");
        final List<String> names = List.of("h1", "h2", "h3");
        final List<WorkloadTrace.FlowSpec> flows = WorkloadTrace.generate(3, 0.5, 1_000_000_000L, web, 9, 300, 0);
        final Path file = directory.resolve("trace.csv");
        TraceFile.write(file, flows, names);
        assertEquals(flows, TraceFile.read(file, names));
        assertEquals(TraceFile.HEADER, Files.readAllLines(file).get(0), "no DSCP column when every flow is of 0");

        final List<WorkloadTrace.FlowSpec> marked = WorkloadTrace.withDscpShares(flows, "0:0.5,46:0.5", 3);
        TraceFile.write(file, marked, names);
        assertEquals(TraceFile.HEADER_WITH_DSCP, Files.readAllLines(file).get(0));
        assertEquals(marked, TraceFile.read(file, names));

        Files.writeString(file, TraceFile.HEADER + "\n0,h1,h2,1460,0\n1,h1,h9,1460,5\n");
        final IllegalArgumentException unknown =
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> TraceFile.read(file, names));
        assertTrue(unknown.getMessage().endsWith("trace.csv:3: unknown host 'h9'"), unknown.getMessage());
    }
}
