package io.pfabric.hostd.workload;

import io.pfabric.hostd.transport.FlowRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DeadlineSpecTest
{
    private static final long RATE = 10_000_000_000L;
    private static final long BASE_RTT_NS = 14_680;

    @TempDir
    Path dir;

    @Test
    void parsesTheMeanAndTheSizeLimit()
    {
        assertEquals(new DeadlineSpec(1_000_000, 200_000), DeadlineSpec.parse("exp:1ms"));
        assertEquals(new DeadlineSpec(500_000, 100_000), DeadlineSpec.parse("exp:500us,below=100KB"));
        assertEquals(new DeadlineSpec(100_000, 1_460), DeadlineSpec.parse(" exp:100us,below=1460 "));
    }

    @Test
    void rejectsWhatIsNotASpecNamingTheOption()
    {
        for (final String bad : List.of("1ms", "exp:", "exp:0ms", "exp:-1ms", "exp:1", "exp:1ms,above=2KB",
            "exp:1ms,below=0", "exp:1ms,below=-5KB", "uniform:1ms"))
        {
            final IllegalArgumentException ex =
                assertThrows(IllegalArgumentException.class, () -> DeadlineSpec.parse(bad), bad);
            assertTrue(ex.getMessage().startsWith("--deadlines"), ex.getMessage());
            assertFalse(ex.getMessage().contains("\n"), ex.getMessage());
        }
    }

    @Test
    void onlyFlowsBelowTheLimitGetADeadlineOfAtLeastOneAndAQuarterTheirMinimumFct() throws Exception
    {
        final List<WorkloadTrace.FlowSpec> trace = WorkloadTrace.generate(16, 0.6, RATE,
            FlowSizeDistribution.load("websearch"), 3, 4_000, 0);
        final List<WorkloadTrace.FlowSpec> flows = new DeadlineSpec(100_000, 200_000)
            .apply(trace, (s, d) -> BASE_RTT_NS, RATE, 1500, 3);
        assertEquals(trace.size(), flows.size());
        int floored = 0;
        int withDeadline = 0;
        for (int i = 0; i < flows.size(); i++)
        {
            final WorkloadTrace.FlowSpec flow = flows.get(i);
            assertEquals(trace.get(i), flow.withDeadline(0), "the deadline is all that changes");
            assertEquals(flow.sizeBytes() < 200_000, flow.hasDeadline(), "flow " + i);
            if (flow.hasDeadline())
            {
                withDeadline++;
                final double minimumNs = BASE_RTT_NS + (flow.sizeBytes() / 1460 - 1) * 1200.0;
                assertTrue(flow.deadlineNs() >= 1.25 * minimumNs, "flow " + i + ": " + flow.deadlineNs());
                floored += flow.deadlineNs() == (long)Math.ceil(1.25 * minimumNs) ? 1 : 0;
            }
        }
        assertTrue(withDeadline > flows.size() / 2, "most web-search flows are below 200 KB: " + withDeadline);
        assertTrue(floored > 0 && floored < withDeadline, "a mean of 100 us floors some deadlines: " + floored);
    }

    @Test
    void theDeadlinesHaveTheMeanAsTheFloorRarelyBinds() throws Exception
    {
        final List<WorkloadTrace.FlowSpec> trace = WorkloadTrace.generate(16, 0.6, RATE,
            FlowSizeDistribution.load("websearch"), 5, 20_000, 0);
        final long meanNs = 100_000_000;
        double sum = 0;
        int count = 0;
        for (final WorkloadTrace.FlowSpec flow : new DeadlineSpec(meanNs, 200_000)
            .apply(trace, (s, d) -> BASE_RTT_NS, RATE, 1500, 5))
        {
            if (flow.hasDeadline())
            {
                sum += flow.deadlineNs();
                count++;
            }
        }
        assertEquals(meanNs, sum / count, 0.05 * meanNs);
    }

    @Test
    void theSameSeedGivesTheSameDeadlinesAndAnotherSeedOthers() throws Exception
    {
        final List<WorkloadTrace.FlowSpec> trace = WorkloadTrace.generate(4, 0.5, RATE,
            FlowSizeDistribution.load("websearch"), 1, 500, 0);
        final DeadlineSpec spec = DeadlineSpec.parse("exp:2ms");
        assertEquals(spec.apply(trace, (s, d) -> BASE_RTT_NS, RATE, 1500, 9),
            spec.apply(trace, (s, d) -> BASE_RTT_NS, RATE, 1500, 9));
        assertNotEquals(spec.apply(trace, (s, d) -> BASE_RTT_NS, RATE, 1500, 9),
            spec.apply(trace, (s, d) -> BASE_RTT_NS, RATE, 1500, 10));
    }

    @Test
    void aLimitThatSelectsNoFlowIsAnError() throws Exception
    {
        final FlowSizeDistribution web = FlowSizeDistribution.load("websearch");
        final DeadlineSpec spec = DeadlineSpec.parse("exp:1ms,below=8760");
        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> spec.requireSelectsFrom(web));
        assertTrue(ex.getMessage().startsWith("--deadlines"), ex.getMessage());
        final List<WorkloadTrace.FlowSpec> trace = WorkloadTrace.generate(4, 0.5, RATE, web, 1, 50, 0);
        assertThrows(IllegalArgumentException.class,
            () -> spec.apply(trace, (s, d) -> BASE_RTT_NS, RATE, 1500, 1));
        final DeadlineSpec justAbove = DeadlineSpec.parse("exp:1ms,below=8761");
        assertEquals(justAbove, justAbove.requireSelectsFrom(web), "web search's smallest flows are 6 packets");
    }

    @Test
    void aTraceWithDeadlinesReadsBackAndOneWithoutKeepsItsFormat() throws Exception
    {
        final List<String> hosts = List.of("h1", "h2", "h3");
        final List<WorkloadTrace.FlowSpec> plain = List.of(
            new WorkloadTrace.FlowSpec(0, 0, 1, 1460, 10), new WorkloadTrace.FlowSpec(1, 2, 0, 2920, 20));
        final Path plainFile = dir.resolve("plain.csv");
        TraceFile.write(plainFile, plain, hosts);
        assertEquals(List.of(TraceFile.HEADER, "0,h1,h2,1460,10", "1,h3,h1,2920,20"), Files.readAllLines(plainFile));

        final List<WorkloadTrace.FlowSpec> timed = List.of(plain.get(0).withDeadline(50_000), plain.get(1));
        final Path timedFile = dir.resolve("timed.csv");
        TraceFile.write(timedFile, timed, hosts);
        assertEquals(List.of(TraceFile.HEADER + ",deadline_ns", "0,h1,h2,1460,10,50000", "1,h3,h1,2920,20,"),
            Files.readAllLines(timedFile));
        assertEquals(timed, TraceFile.read(timedFile, hosts));

        final List<WorkloadTrace.FlowSpec> both = List.of(timed.get(0).withDscp(8), timed.get(1));
        final Path bothFile = dir.resolve("both.csv");
        TraceFile.write(bothFile, both, hosts);
        assertEquals(TraceFile.HEADER_WITH_DSCP + ",deadline_ns", Files.readAllLines(bothFile).get(0));
        assertEquals(both, TraceFile.read(bothFile, hosts));
    }

    @Test
    void anFctLogRecordsEachDeadlineAndWhetherItWasMet() throws Exception
    {
        final Path file = dir.resolve("fct.csv");
        try (FctLogWriter log = new FctLogWriter(file, false, true))
        {
            log.append(0, "h1", "h2", 1460, 100, 1_100, 0, 0, "pfabric-edf", 0, 1_000);
            log.append(1, "h1", "h2", 1460, 100, 1_101, 0, 0, "pfabric-edf", 0, 1_000);
            log.append(2, "h1", "h2", 1460, 100, -1, 5, 0, "pfabric-edf", 0, 1_000);
            log.append(3, "h1", "h2", 9_999_999, 100, 5_000, 0, 0, "pfabric-edf", 0, 0);
        }
        final List<String> lines = Files.readAllLines(file);
        assertEquals(FctLogWriter.HEADER + ",deadline_ns,deadline_met", lines.get(0));
        assertTrue(lines.get(1).endsWith(",1000,1"), lines.get(1));
        assertTrue(lines.get(2).endsWith(",1000,0"), lines.get(2));
        assertTrue(lines.get(3).endsWith(",1000,0"), lines.get(3));
        assertTrue(lines.get(4).endsWith("pfabric-edf,,"), lines.get(4));
        final List<FctLogReader.Row> rows = FctLogReader.read(file);
        assertEquals(List.of(true, false, false, false), rows.stream().map(FctLogReader.Row::metDeadline).toList());
        assertEquals(List.of(1_000L, 1_000L, 1_000L, 0L), rows.stream().map(FctLogReader.Row::deadlineNs).toList());
    }

    @Test
    void anFctLogWithoutDeadlinesKeepsItsFormat() throws Exception
    {
        final Path file = dir.resolve("fct.csv");
        try (FctLogWriter log = new FctLogWriter(file, true))
        {
            log.append(0, "h1", "h2", 1460, 100, 1_100, 0, 0, "pfabric", 8, 1_000);
        }
        assertEquals(List.of(FctLogWriter.HEADER_WITH_DSCP, "0,h1,h2,1460,100,1100,1000,0,0,pfabric,8"),
            Files.readAllLines(file));
        assertEquals(0, FctLogReader.read(file).get(0).deadlineNs());
    }

    @Test
    void aLogWhoseMetColumnContradictsItsTimesIsRejected() throws Exception
    {
        final Path file = dir.resolve("fct.csv");
        Files.writeString(file, FctLogWriter.HEADER + ",deadline_ns,deadline_met\n" +
            "0,h1,h2,1460,100,1100,1000,0,0,pfabric,999,1\n");
        assertThrows(IllegalArgumentException.class, () -> FctLogReader.read(file));
    }

    @Test
    void aFlowRecordMeetsItsDeadlineWhenItCompletesWithinIt()
    {
        assertTrue(new FlowRecord(1, 0, 1, 1460, 100, 1_100, 0, 0, 1_000).metDeadline());
        assertFalse(new FlowRecord(1, 0, 1, 1460, 100, 1_101, 0, 0, 1_000).metDeadline());
        assertFalse(new FlowRecord(1, 0, 1, 1460, 100, -1, 0, 0, 1_000).metDeadline());
        assertFalse(new FlowRecord(1, 0, 1, 1460, 100, 200, 0, 0).metDeadline());
    }
}
