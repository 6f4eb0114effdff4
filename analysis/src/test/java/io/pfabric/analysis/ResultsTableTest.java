package io.pfabric.analysis;

import io.pfabric.hostd.workload.FctLogWriter;
import io.pfabric.hostd.workload.FlowSizeDistribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The table over a directory of logs: 12 Mb/s (1 ms per 1500-byte packet), base RTT 1.5 ms, so a one-segment flow
 * that took 3 ms has a normalized FCT of 2.
 */
class ResultsTableTest
{
    private static final long MS = 1_000_000L;
    private static final int SEGMENT = FlowSizeDistribution.SEGMENT_PAYLOAD_BYTES;

    private final FctAnalysis analysis = new FctAnalysis(12_000_000L, (source, destination) -> 3 * MS / 2);

    @Test
    void aLogWithSeveralDscpsIsAlsoSummarizedPerDscp(@TempDir final Path directory) throws Exception
    {
        try (FctLogWriter log = new FctLogWriter(directory.resolve("fct-pfabric-0.5.csv"), true))
        {
            log.append(1, "h1", "h2", SEGMENT, 0, 3 * MS, 0, 0, "pfabric", 0);
            log.append(2, "h1", "h2", SEGMENT, 0, 6 * MS, 0, 0, "pfabric", 8);
            log.append(3, "h1", "h2", SEGMENT, 0, 6 * MS, 0, 0, "pfabric", 8);
        }
        try (FctLogWriter log = new FctLogWriter(directory.resolve("fct-tcp-0.5.csv")))
        {
            log.append(1, "h1", "h2", SEGMENT, 0, 3 * MS, 0, 0, "tcp");
        }
        final List<ResultsTable.Line> all = ResultsTable.summarize(directory, analysis,
            host -> Integer.parseInt(host.substring(1)) - 1).stream().filter(line -> "all".equals(line.bin()))
            .toList();
        assertEquals(List.of("pfabric", "pfabric:dscp0", "pfabric:dscp8", "tcp"),
            all.stream().map(ResultsTable.Line::scheme).toList());
        assertEquals(List.of(3, 1, 2, 1), all.stream().map(line -> line.summary().count()).toList());
        assertEquals(10.0 / 3, all.get(0).summary().mean(), 1e-9);
        assertEquals(2.0, all.get(1).summary().mean(), 1e-9);
        assertEquals(4.0, all.get(2).summary().mean(), 1e-9);
    }

    @Test
    void logsWithDeadlinesGiveTheFractionMetAndTheOtherFlowsMean(@TempDir final Path directory) throws Exception
    {
        try (FctLogWriter log = new FctLogWriter(directory.resolve("fct-pfabric-edf-0.6.csv"), false, true))
        {
            log.append(1, "h1", "h2", SEGMENT, 0, 3 * MS, 0, 0, "pfabric-edf", 0, 4 * MS);
            log.append(2, "h1", "h2", SEGMENT, 0, 6 * MS, 0, 0, "pfabric-edf", 0, 2 * MS);
            log.append(3, "h1", "h2", SEGMENT, 0, -1, 0, 0, "pfabric-edf", 0, 6 * MS);
            log.append(4, "h1", "h2", SEGMENT, 0, 6 * MS, 0, 0, "pfabric-edf", 0, 0);
        }
        try (FctLogWriter log = new FctLogWriter(directory.resolve("fct-tcp-0.6.csv")))
        {
            log.append(1, "h1", "h2", SEGMENT, 0, 3 * MS, 0, 0, "tcp");
        }
        final List<DeadlineReport.Row> rows = DeadlineReport.summarize(directory, analysis, host -> 0);
        assertEquals(1, rows.size(), "the log without deadlines has no row");
        final DeadlineReport.Row row = rows.get(0);
        assertEquals("pfabric-edf", row.scheme());
        assertEquals("0.6", row.load());
        assertEquals(4_000.0, row.deadlineMeanUs(), 1e-9, "the mean of the flows' deadlines");
        assertEquals(3, row.flows());
        assertEquals(1, row.met(), "one in time, one late, one never done");
        assertEquals(1, row.otherFlows());
        assertEquals(4.0, row.otherMeanNormalized(), 1e-9);
    }
}
