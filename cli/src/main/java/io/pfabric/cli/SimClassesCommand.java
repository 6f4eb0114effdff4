package io.pfabric.cli;

import io.pfabric.analysis.ClassPlot;
import io.pfabric.analysis.FctAnalysis;
import io.pfabric.analysis.IdealScheduler;
import io.pfabric.analysis.PathRtts;
import io.pfabric.analysis.ResultsTable;
import io.pfabric.common.topology.TrafficClasses;
import io.pfabric.experiment.ExperimentSettings;
import io.pfabric.hostd.workload.FctLogReader;
import io.pfabric.hostd.workload.FctLogWriter;
import io.pfabric.hostd.workload.TraceFile;
import io.pfabric.hostd.workload.WorkloadMix;
import io.pfabric.hostd.workload.WorkloadTrace;
import io.pfabric.sim.ReceiverThroughputMeter;
import io.pfabric.sim.SimFabric;
import io.pfabric.sim.SimRun;
import io.pfabric.sim.SimSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

/**
 * {@code pfabric sim classes}: applications of their own workloads, loads and DSCPs on one fabric, run on pFabric
 * within traffic classes and on plain pFabric, with each class's share of the bytes delivered and its small flows'
 * FCT against Ideal within the class.
 */
@Command(
    name = "classes",
    mixinStandardHelpOptions = true,
    header = "Simulate applications in traffic classes: each class's throughput share and its small flows' FCT.",
    description = {
        "Generates the mix of --app applications (each its workload, load and DSCP; flows starting within " +
            "--duration) and runs it three ways on the same trace: pfabric on pfabric-classes queues with " +
            "--classes (scheme pfabric-classes), pfabric on plain pFabric queues (scheme pfabric), and Ideal within " +
            "each class (scheme ideal-class: the flow-level Ideal scheduler over that class's flows alone, every " +
            "link at the class's share of the weights, w / sum of w, of its rate). Ideal over every flow (ideal) " +
            "is in the summary too.",
        "Reports per scheme and DSCP the payload bytes delivered to the receivers (counted as frames leave on the " +
            "ports down to hosts) within the window from a tenth of --duration to --duration, while every " +
            "application's flows still arrive, and their share; and the small flows' (<= 100 KB) mean and 99th " +
            "percentile normalized FCT beside ideal-class's.",
        "Writes DIR/classes.csv (that report), DIR/throughput.csv (bytes per scheme, bin of --duration / 40 and " +
            "DSCP, until the run's end; the last of 800 bins also holds what came after it), DIR/classes.png (the " +
            "first two durations, and the small flows' CDFs), " +
            "DIR/summary.csv (every scheme and scheme:dscpN, as pfabric sim writes it) and the FCT logs." })
public final class SimClassesCommand implements Callable<Integer>
{
    /**
     * The header of {@code classes.csv}.
     */
    public static final String CLASSES_HEADER = "scheme,dscp,app,load,weight_share,window_start_ms," +
        "window_end_ms,delivered_bytes,throughput_share,small_count,small_mean,small_p99,ideal_class_small_mean," +
        "ideal_class_small_p99";

    /**
     * The header of {@code throughput.csv}.
     */
    public static final String THROUGHPUT_HEADER = "scheme,bin_start_ms,dscp,payload_bytes,gbits_per_sec";

    private static final String CLASSES_SCHEME = "pfabric-classes";
    private static final String PLAIN_SCHEME = "pfabric";
    private static final String IDEAL_CLASS_SCHEME = "ideal-class";
    private static final int BINS_PER_DURATION = 40;
    private static final int WINDOW_START_BIN = BINS_PER_DURATION / 10;
    private static final int MAX_DURATIONS = 20;
    private static final int PLOT_DURATIONS = 2;

    @Mixin
    SimOptions options;

    /**
     * {@inheritDoc}
     */
    public Integer call() throws IOException
    {
        run(options, System.out, System.err);
        return 0;
    }

    static void run(final SimOptions options, final PrintStream out, final PrintStream progress) throws IOException
    {
        if (null == options.out)
        {
            throw new IllegalArgumentException("give --out DIR");
        }
        if (!options.isMix())
        {
            throw new IllegalArgumentException("give the applications: --app WORKLOAD:LOAD:dscp=D, one per class");
        }
        final SimFabric fabric = options.fabric();
        if (!fabric.hasClasses())
        {
            throw new IllegalArgumentException("give --discipline pfabric-classes and its --classes");
        }
        final SimSettings settings = options.settings(fabric);
        final List<WorkloadMix.App> apps = options.mix();
        final long durationNs = options.durationNs();
        final TrafficClasses classes = fabric.classes();
        final String label = ExperimentSettings.loadLabel(WorkloadMix.totalLoad(apps));
        Files.createDirectories(options.out);
        progress.printf(Locale.ROOT, "sim classes: %s; classes %s%n", settings.describe(), classes);
        final List<String> names = SimRun.hostNames(fabric);
        final PathRtts rtts = PathRtts.byClass(names, fabric::baseRttNs);
        rtts.write(options.out.resolve("base-rtt.csv"));
        final List<WorkloadTrace.FlowSpec> trace = options.trace(fabric, 0);
        TraceFile.write(options.out.resolve("trace-" + label + ".csv"), trace, names);
        for (final WorkloadMix.App app : apps)
        {
            final long count = trace.stream().filter(flow -> flow.dscp() == app.dscp()).count();
            progress.printf(Locale.ROOT, "sim classes: %s at load %s, DSCP %d (class %d of weight %d): %,d flows%n",
                app.workload(), app.load(), app.dscp(), classes.classOf(app.dscp()),
                classes.weight(classes.classOf(app.dscp())), count);
            if (count == options.flows)
            {
                progress.printf(Locale.ROOT, "sim classes: warning: %s reached --flows %d before --duration; its " +
                    "flows stop early%n", app.workload(), options.flows);
            }
        }

        final long binNs = Math.max(1, durationNs / BINS_PER_DURATION);
        final Map<String, ReceiverThroughputMeter> meters = new LinkedHashMap<>();
        meters.put(CLASSES_SCHEME, new ReceiverThroughputMeter(fabric, binNs, BINS_PER_DURATION * MAX_DURATIONS));
        meters.put(PLAIN_SCHEME, new ReceiverThroughputMeter(fabric, binNs, BINS_PER_DURATION * MAX_DURATIONS));
        final long[] endNs = new long[meters.size()];
        int run = 0;
        for (final Map.Entry<String, ReceiverThroughputMeter> meter : meters.entrySet())
        {
            final SimFabric runFabric = CLASSES_SCHEME.equals(meter.getKey()) ? fabric :
                fabric.withQueues(PLAIN_SCHEME, fabric.bufferLength());
            final SimRun.Outcome outcome = SimRun.run(runFabric, settings, "pfabric", meter.getKey(), trace,
                options.seed, options.out.resolve("fct-" + meter.getKey() + "-" + label + ".csv"), progress,
                meter.getValue());
            endNs[run++] = outcome.virtualNs();
            progress.printf(Locale.ROOT, "sim classes: %s: %.1f s CPU, %.3f s virtual, %,d events, %,d packets " +
                "dropped, %d flows incomplete%n", meter.getKey(), outcome.cpuNs() / 1e9, outcome.virtualNs() / 1e9,
                outcome.events(), outcome.dropped(), outcome.incomplete());
        }
        SimRun.run(fabric, settings, "ideal", "ideal", trace, options.seed,
            options.out.resolve("fct-ideal-" + label + ".csv"), progress);
        writeIdealWithinClasses(fabric, classes, trace, names,
            options.out.resolve("fct-" + IDEAL_CLASS_SCHEME + "-" + label + ".csv"));

        final FctAnalysis analysis = new FctAnalysis(fabric.edgeRateBitsPerSec(), rtts, SimFabric.segmentWireLength());
        final List<ResultsTable.Line> lines = ResultsTable.summarize(options.out, analysis, rtts::hostIndex);
        ResultsTable.writeCsv(options.out.resolve("summary.csv"), lines);

        final int windowEndBin = BINS_PER_DURATION;
        final int lastBin = (int)Math.min(BINS_PER_DURATION * MAX_DURATIONS,
            (Math.max(endNs[0], endNs[1]) + binNs - 1) / binNs);
        final int plotBins = Math.min(lastBin, BINS_PER_DURATION * PLOT_DURATIONS);
        final List<String> rows = new ArrayList<>();
        final List<ClassPlot.Throughput> throughputs = new ArrayList<>();
        final Map<String, Double> weightShares = new LinkedHashMap<>();
        try (BufferedWriter writer = Files.newBufferedWriter(options.out.resolve("throughput.csv"),
            StandardCharsets.UTF_8))
        {
            writer.write(THROUGHPUT_HEADER);
            writer.newLine();
            for (final Map.Entry<String, ReceiverThroughputMeter> entry : meters.entrySet())
            {
                final ReceiverThroughputMeter meter = entry.getValue();
                long windowTotal = 0;
                for (final WorkloadMix.App app : apps)
                {
                    windowTotal += meter.payloadBytes(app.dscp(), WINDOW_START_BIN, windowEndBin);
                }
                for (final WorkloadMix.App app : apps)
                {
                    final String name = "dscp" + app.dscp() + " " + app.workload();
                    final double weightShare = (double)classes.weight(classes.classOf(app.dscp())) /
                        classes.totalWeight();
                    weightShares.put(name, weightShare);
                    final long bytes = meter.payloadBytes(app.dscp(), WINDOW_START_BIN, windowEndBin);
                    final FctAnalysis.Summary small = small(lines, entry.getKey(), app.dscp());
                    final FctAnalysis.Summary ideal = small(lines, IDEAL_CLASS_SCHEME, app.dscp());
                    rows.add(String.format(Locale.ROOT, "%s,%d,%s,%s,%.4f,%.3f,%.3f,%d,%.4f,%d,%.4f,%.4f,%.4f,%.4f",
                        entry.getKey(), app.dscp(), app.workload(), app.load(), weightShare,
                        WINDOW_START_BIN * binNs / 1e6, windowEndBin * binNs / 1e6, bytes,
                        (double)bytes / Math.max(1, windowTotal), small.count(), small.mean(), small.p99(),
                        ideal.mean(), ideal.p99()));
                    final double[] gbitsPerSec = new double[lastBin];
                    final double[] share = new double[lastBin];
                    for (int bin = 0; bin < lastBin; bin++)
                    {
                        final long binBytes = meter.payloadBytes(app.dscp(), bin);
                        long binTotal = 0;
                        for (final WorkloadMix.App other : apps)
                        {
                            binTotal += meter.payloadBytes(other.dscp(), bin);
                        }
                        gbitsPerSec[bin] = binBytes * 8.0 / binNs;
                        share[bin] = 0 == binTotal ? 0 : (double)binBytes / binTotal;
                        writer.write(String.format(Locale.ROOT, "%s,%.3f,%d,%d,%.3f", entry.getKey(),
                            bin * binNs / 1e6, app.dscp(), binBytes, gbitsPerSec[bin]));
                        writer.newLine();
                    }
                    throughputs.add(new ClassPlot.Throughput(entry.getKey(), name,
                        Arrays.copyOf(gbitsPerSec, plotBins), Arrays.copyOf(share, plotBins)));
                }
            }
        }
        try (BufferedWriter writer = Files.newBufferedWriter(options.out.resolve("classes.csv"),
            StandardCharsets.UTF_8))
        {
            writer.write(CLASSES_HEADER);
            writer.newLine();
            for (final String row : rows)
            {
                writer.write(row);
                writer.newLine();
            }
        }

        final List<ClassPlot.SmallFlows> smallFlows = new ArrayList<>();
        for (final WorkloadMix.App app : apps)
        {
            for (final String scheme : List.of(CLASSES_SCHEME, PLAIN_SCHEME, IDEAL_CLASS_SCHEME))
            {
                final List<FctLogReader.Row> log =
                    FctLogReader.read(options.out.resolve("fct-" + scheme + "-" + label + ".csv"));
                smallFlows.add(new ClassPlot.SmallFlows("dscp" + app.dscp() + " " + app.workload(), scheme,
                    log.stream().filter(row -> row.dscp() == app.dscp() && row.isComplete() &&
                        row.sizeBytes() <= FctAnalysis.SMALL_MAX_BYTES)
                    .mapToDouble(row -> analysis.normalized(rtts.hostIndex(row.source()),
                        rtts.hostIndex(row.destination()), row.sizeBytes(), row.fctNs()))
                    .sorted().toArray()));
            }
        }
        ClassPlot.write(throughputs, binNs / 1e6, weightShares, smallFlows, String.format(Locale.ROOT,
            "%s on %s, classes %s, flows starting within %.1f ms", options.workloadLabel(), options.topo(), classes,
            durationNs / 1e6), options.out.resolve("classes.png"));

        out.println(CLASSES_HEADER);
        for (final String row : rows)
        {
            out.println(row);
        }
    }

    private static FctAnalysis.Summary small(final List<ResultsTable.Line> lines, final String scheme,
        final int dscp)
    {
        final String key = scheme + ResultsTable.DSCP_SUFFIX + dscp;
        for (final ResultsTable.Line line : lines)
        {
            if (line.scheme().equals(key) && FctAnalysis.Bin.SMALL == line.summary().bin())
            {
                return line.summary();
            }
        }
        return new FctAnalysis.Summary(FctAnalysis.Bin.SMALL, 0, 0, Double.NaN, Double.NaN, Double.NaN);
    }

    /**
     * Ideal within each class: the flow-level Ideal scheduler over a class's flows alone, every link at the class's
     * share of the weights of its rate, written as one FCT log with the flows' DSCPs.
     */
    private static void writeIdealWithinClasses(final SimFabric fabric, final TrafficClasses classes,
        final List<WorkloadTrace.FlowSpec> trace, final List<String> names, final Path file) throws IOException
    {
        final Map<Integer, List<IdealScheduler.Flow>> byClass = new TreeMap<>();
        final Map<Long, Integer> dscpByFlow = new TreeMap<>();
        for (final WorkloadTrace.FlowSpec flow : trace)
        {
            byClass.computeIfAbsent(classes.classOf(flow.dscp()), key -> new ArrayList<>()).add(
                new IdealScheduler.Flow(flow.flowIndex(), flow.sourceHost(), flow.destinationHost(), flow.sizeBytes(),
                flow.startNs()));
            dscpByFlow.put(flow.flowIndex(), flow.dscp());
        }
        try (FctLogWriter log = new FctLogWriter(file, true))
        {
            for (final Map.Entry<Integer, List<IdealScheduler.Flow>> entry : byClass.entrySet())
            {
                final long shareBitsPerSec = fabric.edgeRateBitsPerSec() * classes.weight(entry.getKey()) /
                    classes.totalWeight();
                final IdealScheduler ideal =
                    new IdealScheduler(shareBitsPerSec, fabric::baseRttNs, SimFabric.segmentWireLength());
                for (final IdealScheduler.Result result : ideal.run(entry.getValue()))
                {
                    final IdealScheduler.Flow flow = result.flow();
                    log.append(flow.flowId(), names.get(flow.sourceHost()), names.get(flow.destinationHost()),
                        flow.sizeBytes(), flow.startNs(), result.endNs(), 0, 0, IDEAL_CLASS_SCHEME,
                        dscpByFlow.get(flow.flowId()));
                }
            }
        }
    }
}
