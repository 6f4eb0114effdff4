package io.pfabric.experiment;

import io.pfabric.analysis.ClassReport;
import io.pfabric.common.topology.Topologies;
import io.pfabric.common.topology.TrafficClasses;
import io.pfabric.dataplane.queue.QueueDiscipline;
import io.pfabric.hostd.workload.FctLogReader;
import io.pfabric.hostd.workload.TraceFile;
import io.pfabric.hostd.workload.WorkloadMix;
import io.pfabric.hostd.workload.WorkloadTrace;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The class experiment end to end at a tiny scale: two classes of weights 3 and 1 on a 100 Mb/s star of three hosts,
 * each class's application of 500 KB flows at a load of 0.8, so that both are backlogged at the ports down to hosts.
 * Every flow of both classes completes under both schemes, each logged with its trace's DSCP; every frame a switch
 * port sent is counted once in its class and once in its DSCP; and at every port the bytes the classes sent while
 * both were backlogged split 3:1 within deficit round robin's bound.
 */
@Timeout(120)
@RequiresNetns
class ClassExperimentSystemTest
{
    /**
     * Deficit round robin's bound over one stretch in which both classes stay backlogged: class k sends c_k Q_k
     * bytes plus its deficit at the stretch's start less its deficit at the end, each in [0, Q_k + M), where c_k is
     * the turns it was credited, Q_k its quantum (weight x M) and M the longest frame. Turns alternate, so c_0 and
     * c_1 differ by at most one; with Q_0 = 3M and Q_1 = M, |sent_0 - 3 sent_1| < 3M + (Q_0 + M) + 3 (Q_1 + M) = 13M.
     */
    private static final long BOUND_PER_STRETCH_BYTES = 13L * QueueDiscipline.DEFAULT_MAX_FRAME_LENGTH;

    @TempDir
    Path out;

    @AfterEach
    void tearDown() throws Exception
    {
        NetnsFabric.removeLeftovers(ClassExperiment.PREFIX);
    }

    @Test
    void everyFlowCompletesEveryFrameIsCountedOnceAndBackloggedClassesSplitByWeight() throws Exception
    {
        final Path cdf = out.resolve("500k.cdf");
        Files.writeString(cdf, "343 1\n");
        final List<WorkloadMix.App> apps = List.of(WorkloadMix.App.parse(cdf + ":0.8:dscp=0"),
            WorkloadMix.App.parse(cdf + ":0.8:dscp=8"));
        final Path dir = out.resolve("results");
        final ClassExperiment.Settings settings = new ClassExperiment.Settings("star:3",
            Topologies.star(3, "", 100_000_000L, "pfabric"), 100_000_000L, apps, TrafficClasses.parse("3:0-7;1:8-15"),
            TimeUnit.MILLISECONDS.toNanos(400), 5, dir, TimeUnit.SECONDS.toNanos(30),
            "./pfabric experiment classes --topo star:3");
        final ByteArrayOutputStream progress = new ByteArrayOutputStream();
        final ClassExperiment.Outcome outcome =
            new ClassExperiment(settings, new PrintStream(progress, true, StandardCharsets.UTF_8)).run();

        final List<WorkloadTrace.FlowSpec> trace = TraceFile.read(dir.resolve("trace-1.6.csv")).flows();
        final Map<Long, Integer> dscpByFlow = trace.stream()
            .collect(Collectors.toMap(WorkloadTrace.FlowSpec::flowIndex, WorkloadTrace.FlowSpec::dscp));
        assertEquals(new TreeSet<>(List.of(0, 8)), new TreeSet<>(dscpByFlow.values()), "both classes have flows");
        for (final String scheme : List.of(ClassReport.CLASSES_SCHEME, ClassReport.PLAIN_SCHEME))
        {
            final List<FctLogReader.Row> rows = FctLogReader.read(dir.resolve("fct-" + scheme + "-1.6.csv"));
            assertEquals(trace.size(), rows.size(), scheme + ": every flow logged once");
            for (final FctLogReader.Row row : rows)
            {
                assertTrue(row.isComplete(), scheme + ": flow " + row.flowId() + " completed");
                assertEquals(dscpByFlow.get(row.flowId()), row.dscp(), scheme + ": flow " + row.flowId() +
                    " logged with its trace's DSCP");
            }
            assertEquals(0L, outcome.incomplete().get(scheme));

            final Map<String, Map<String, Long>> ports = counters(dir.resolve("counters-" + scheme + "-1.6.csv"));
            for (final Map.Entry<String, Map<String, Long>> port : ports.entrySet())
            {
                final Map<String, Long> values = port.getValue();
                final long transmitted = values.get("transmitted_frames");
                assertEquals(transmitted, sum(values, "dscp", "_transmitted_frames"),
                    scheme + " " + port.getKey() + ": every frame sent counted once in its DSCP");
                if (ClassReport.CLASSES_SCHEME.equals(scheme))
                {
                    assertEquals(transmitted, values.get("class0_departed_frames") +
                        values.get("class1_departed_frames"), port.getKey() + ": every frame counted once in its " +
                        "class");
                }
            }
            if (ClassReport.CLASSES_SCHEME.equals(scheme))
            {
                long backlogged = 0;
                for (final Map.Entry<String, Map<String, Long>> port : ports.entrySet())
                {
                    final Map<String, Long> values = port.getValue();
                    final long class0 = values.get("class0_backlogged_bytes");
                    final long class1 = values.get("class1_backlogged_bytes");
                    final long stretches = values.get("backlogged_stretches");
                    backlogged += class0 + class1;
                    assertTrue(Math.abs(class0 - 3 * class1) < BOUND_PER_STRETCH_BYTES * Math.max(1, stretches),
                        port.getKey() + ": while both were backlogged, class 0 sent " + class0 + " B and class 1 " +
                        class1 + " B in " + stretches + " stretches");
                }
                assertTrue(backlogged > 0, "both classes were backlogged somewhere");
            }
        }
        final List<String> classes = Files.readAllLines(dir.resolve("classes.csv"));
        assertEquals(ClassReport.CLASSES_HEADER, classes.get(0));
        assertEquals(1 + 2 * 2, classes.size(), "two schemes, two applications each");
        assertTrue(Files.size(dir.resolve("classes.png")) > 1_000, "a plot was drawn");
        assertTrue(Files.readString(dir.resolve("README.md")).contains("./pfabric experiment classes"));
        assertEquals(List.of(), NetnsFabric.removeLeftovers(ClassExperiment.PREFIX), "no namespaces left behind");
    }

    /**
     * The switch ports' counters of a run, by {@code switch/port}.
     */
    private static Map<String, Map<String, Long>> counters(final Path file) throws Exception
    {
        final Map<String, Map<String, Long>> ports = new TreeMap<>();
        for (final String line : Files.readAllLines(file).subList(1, Files.readAllLines(file).size()))
        {
            final String[] fields = line.split(",");
            if (fields[0].contains("/"))
            {
                ports.computeIfAbsent(fields[0], key -> new HashMap<>()).put(fields[1], Long.parseLong(fields[2]));
            }
        }
        return ports;
    }

    private static long sum(final Map<String, Long> values, final String prefix, final String suffix)
    {
        return values.entrySet().stream().filter(entry -> entry.getKey().startsWith(prefix) &&
            entry.getKey().endsWith(suffix)).mapToLong(Map.Entry::getValue).sum();
    }
}
