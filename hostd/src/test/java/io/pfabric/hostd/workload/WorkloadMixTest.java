package io.pfabric.hostd.workload;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WorkloadMixTest
{
    private static final long RATE_BITS_PER_SEC = 10_000_000_000L;
    private static final int HOSTS = 16;
    private static final long DURATION_NS = 20_000_000L;

    private static FlowSizeDistribution sizes(final String name, final String table) throws IOException
    {
        return FlowSizeDistribution.parse(name, new StringReader(table));
    }

    private static List<WorkloadMix.App> twoApps() throws IOException
    {
        return List.of(
            new WorkloadMix.App("short", sizes("short", "1 0\n1 0.5\n2 0.5\n2 1\n"), 0.3, 0),
            new WorkloadMix.App("long", sizes("long", "100 0\n100 0.5\n200 0.5\n200 1\n"), 0.5, 8));
    }

    @Test
    void eachApplicationsFlowsKeepItsSizesAndDscpAndTheLoadsAdd() throws IOException
    {
        final List<WorkloadMix.App> apps = twoApps();
        final List<WorkloadTrace.FlowSpec> trace = WorkloadMix.generate(HOSTS, RATE_BITS_PER_SEC, apps, 7, 0,
            DURATION_NS);
        final Set<Long> shortSizes = Set.of(1_460L, 2_920L);
        final Set<Long> longSizes = Set.of(146_000L, 292_000L);
        final long[] wireBytes = new long[2];
        for (final WorkloadTrace.FlowSpec flow : trace)
        {
            assertTrue(0 == flow.dscp() || 8 == flow.dscp(), "DSCP " + flow.dscp());
            final int app = 0 == flow.dscp() ? 0 : 1;
            assertTrue((0 == app ? shortSizes : longSizes).contains(flow.sizeBytes()),
                "size " + flow.sizeBytes() + " of DSCP " + flow.dscp());
            assertTrue(flow.startNs() < DURATION_NS);
            wireBytes[app] += flow.sizeBytes() / FlowSizeDistribution.SEGMENT_PAYLOAD_BYTES *
                FlowSizeDistribution.SEGMENT_WIRE_BYTES;
        }
        final double capacityBytes = HOSTS * RATE_BITS_PER_SEC / 8.0 * DURATION_NS / 1e9;
        assertEquals(0.3, wireBytes[0] / capacityBytes, 0.02);
        assertEquals(0.5, wireBytes[1] / capacityBytes, 0.05);
        assertEquals(0.8, WorkloadMix.totalLoad(apps), 1e-12);
        assertEquals(0.8, (wireBytes[0] + wireBytes[1]) / capacityBytes, 0.06);
    }

    @Test
    void theMergeIsInOrderOfStartWithIndexesByPosition() throws IOException
    {
        final List<WorkloadTrace.FlowSpec> trace = WorkloadMix.generate(HOSTS, RATE_BITS_PER_SEC, twoApps(), 3, 0,
            DURATION_NS / 10);
        assertTrue(trace.size() > 100);
        for (int i = 0; i < trace.size(); i++)
        {
            assertEquals(i, trace.get(i).flowIndex());
            if (i > 0)
            {
                assertTrue(trace.get(i - 1).startNs() <= trace.get(i).startNs());
            }
        }
    }

    @Test
    void eachApplicationIsItsOwnWorkloadsTraceOnItsOwnSeed() throws IOException
    {
        final List<WorkloadMix.App> apps = twoApps();
        final List<WorkloadTrace.FlowSpec> trace = WorkloadMix.generate(HOSTS, RATE_BITS_PER_SEC, apps, 5, 0,
            DURATION_NS / 10);
        for (int i = 0; i < apps.size(); i++)
        {
            final WorkloadMix.App app = apps.get(i);
            final List<WorkloadTrace.FlowSpec> alone = WorkloadTrace.generate(HOSTS, app.load(), RATE_BITS_PER_SEC,
                app.sizes(), WorkloadMix.appSeed(5, i), 0, DURATION_NS / 10);
            final List<WorkloadTrace.FlowSpec> inMix = trace.stream().filter(flow -> flow.dscp() == app.dscp())
                .toList();
            assertEquals(alone.size(), inMix.size());
            for (int j = 0; j < alone.size(); j++)
            {
                final WorkloadTrace.FlowSpec expected = alone.get(j);
                final WorkloadTrace.FlowSpec actual = inMix.get(j);
                assertEquals(List.of(expected.sourceHost(), expected.destinationHost(), expected.sizeBytes(),
                    expected.startNs()), List.of(actual.sourceHost(), actual.destinationHost(), actual.sizeBytes(),
                    actual.startNs()));
            }
        }
        assertEquals(5, WorkloadMix.appSeed(5, 0));
    }

    @Test
    void aSeedGivesTheSameMixAndAnotherSeedAnother() throws IOException
    {
        final List<WorkloadMix.App> apps = twoApps();
        assertEquals(WorkloadMix.generate(HOSTS, RATE_BITS_PER_SEC, apps, 11, 0, DURATION_NS / 10),
            WorkloadMix.generate(HOSTS, RATE_BITS_PER_SEC, apps, 11, 0, DURATION_NS / 10));
        assertNotEquals(WorkloadMix.generate(HOSTS, RATE_BITS_PER_SEC, apps, 11, 0, DURATION_NS / 10),
            WorkloadMix.generate(HOSTS, RATE_BITS_PER_SEC, apps, 12, 0, DURATION_NS / 10));
    }

    @Test
    void aCapStopsEachApplicationAtItsOwnCount() throws IOException
    {
        final List<WorkloadTrace.FlowSpec> trace = WorkloadMix.generate(HOSTS, RATE_BITS_PER_SEC, twoApps(), 1, 50,
            0);
        assertEquals(50, trace.stream().filter(flow -> 0 == flow.dscp()).count());
        assertEquals(50, trace.stream().filter(flow -> 8 == flow.dscp()).count());
    }

    @Test
    void parsesAnApplication() throws IOException
    {
        final WorkloadMix.App app = WorkloadMix.App.parse("datamining:0.6:dscp=8");
        assertEquals("datamining", app.workload());
        assertEquals(0.6, app.load());
        assertEquals(8, app.dscp());
        assertEquals(FlowSizeDistribution.load("datamining").exactMeanPackets(), app.sizes().exactMeanPackets());
        assertEquals(0, WorkloadMix.App.parse("websearch:1").dscp());
    }

    @ParameterizedTest
    @ValueSource(strings = { "websearch", "websearch:", ":0.5", "websearch:x", "websearch:0", "websearch:1.5",
        "websearch:0.5:dscp=64", "websearch:0.5:dscp=-1", "websearch:0.5:dscp=", "websearch:0.5:8",
        "nosuchworkload:0.5" })
    void rejectsApplicationsThatDoNotParse(final String spec)
    {
        assertThrows(IllegalArgumentException.class, () -> WorkloadMix.App.parse(spec));
    }
}
