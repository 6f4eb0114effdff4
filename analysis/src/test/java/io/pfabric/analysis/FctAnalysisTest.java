package io.pfabric.analysis;

import io.pfabric.hostd.workload.FctLogReader;
import io.pfabric.hostd.workload.FlowSizeDistribution;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Normalized FCT on synthetic logs with known answers: 12 Mb/s (1 ms per 1500-byte packet), base RTT 1.5 ms.
 */
class FctAnalysisTest
{
    private static final long MS = 1_000_000L;
    private static final int SEGMENT = FlowSizeDistribution.SEGMENT_PAYLOAD_BYTES;

    private final FctAnalysis analysis = new FctAnalysis(12_000_000L, (source, destination) -> 3 * MS / 2);

    private static FctLogReader.Row row(final long id, final long sizeBytes, final long fctNs)
    {
        return new FctLogReader.Row(id, "h1", "h2", sizeBytes, 0, fctNs < 0 ? -1 : fctNs, 0, 0, "pfabric");
    }

    private static int index(final String host)
    {
        return Integer.parseInt(host.substring(1)) - 1;
    }

    @Test
    void aFlowThatTookTheIdleTimeNormalizesToOne()
    {
        assertEquals(1.0, analysis.normalized(0, 1, 10L * SEGMENT, 3 * MS / 2 + 9 * MS), 1e-12);
        assertEquals(2.0, analysis.normalized(0, 1, SEGMENT, 3 * MS), 1e-12);
    }

    @Test
    void binsMeansAndPercentilesAreThoseOfTheFlowsInThem()
    {
        final List<FctLogReader.Row> rows = new ArrayList<>();
        final long oneSegmentIdeal = 3 * MS / 2;
        for (int i = 1; i <= 100; i++)
        {
            rows.add(row(i, SEGMENT, i * oneSegmentIdeal));
        }
        rows.add(row(101, 70L * SEGMENT, 2 * (oneSegmentIdeal + 69 * MS)));
        rows.add(row(102, 20_000L * SEGMENT, 3 * (oneSegmentIdeal + 19_999 * MS)));
        rows.add(row(103, SEGMENT, -1));
        final List<FctAnalysis.Summary> summaries = analysis.summarize(rows, FctAnalysisTest::index);

        final FctAnalysis.Summary small = summaries.get(0);
        assertEquals(FctAnalysis.Bin.SMALL, small.bin());
        assertEquals(100, small.count());
        assertEquals(1, small.incomplete());
        assertEquals(50.5, small.mean(), 1e-9);
        assertEquals(50, small.p50(), 1e-9);
        assertEquals(99, small.p99(), 1e-9);

        final FctAnalysis.Summary medium = summaries.get(1);
        assertEquals(1, medium.count(), "70 segments = 102,200 bytes: medium");
        assertEquals(2.0, medium.mean(), 1e-9);
        final FctAnalysis.Summary large = summaries.get(2);
        assertEquals(1, large.count());
        assertEquals(3.0, large.mean(), 1e-9);

        final FctAnalysis.Summary all = summaries.get(3);
        assertEquals(102, all.count());
        assertEquals((5050 + 2 + 3) / 102.0, all.mean(), 1e-9);
    }

    @Test
    void binsFollowThePaperBoundaries()
    {
        assertEquals(FctAnalysis.Bin.SMALL, FctAnalysis.Bin.of(100_000));
        assertEquals(FctAnalysis.Bin.MEDIUM, FctAnalysis.Bin.of(100_001));
        assertEquals(FctAnalysis.Bin.MEDIUM, FctAnalysis.Bin.of(10_000_000));
        assertEquals(FctAnalysis.Bin.LARGE, FctAnalysis.Bin.of(10_000_001));
    }
}
