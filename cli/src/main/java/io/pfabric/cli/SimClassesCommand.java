package io.pfabric.cli;

import io.pfabric.analysis.ClassPlot;
import io.pfabric.analysis.ClassReport;
import io.pfabric.analysis.FctAnalysis;
import io.pfabric.analysis.PathRtts;
import io.pfabric.analysis.ResultsTable;
import io.pfabric.common.topology.TrafficClasses;
import io.pfabric.experiment.ExperimentSettings;
import io.pfabric.hostd.workload.TraceFile;
import io.pfabric.hostd.workload.WorkloadMix;
import io.pfabric.hostd.workload.WorkloadTrace;
import io.pfabric.sim.BackloggedShareMeter;
import io.pfabric.sim.ReceiverThroughputMeter;
import io.pfabric.sim.SimFabric;
import io.pfabric.sim.SimRun;
import io.pfabric.sim.SimSettings;
import io.pfabric.sim.TransmitObserver;
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
            "DIR/summary.csv (every scheme and scheme:dscpN, as pfabric sim writes it) and the FCT logs.",
        "Where the weights apply: at every port with classes (switch ports, and the hosts' NICs), the bytes each " +
            "class sends while every class is backlogged there (holds frames in the port's queue), under " +
            "pfabric-classes. classes.csv's backlogged_bytes and backlogged_share are the class's, summed over " +
            "ports; DIR/ports.csv has them per port, busiest first; the last line printed gives the shares and " +
            "their spread over the ports that sent at least 1 MB that way." })
public final class SimClassesCommand implements Callable<Integer>
{
    /**
     * The header of {@code classes.csv}.
     */
    public static final String CLASSES_HEADER = ClassReport.CLASSES_HEADER;

    /**
     * The header of {@code ports.csv}.
     */
    public static final String PORTS_HEADER = "switch,port,tier,class,weight_share,departed_bytes,backlogged_bytes," +
        "backlogged_share,stretches";

    /**
     * Ports with at least this many bytes sent while both classes were backlogged there are in the spread of the
     * per-port shares.
     */
    public static final long SPREAD_MIN_BYTES = 1_000_000;

    /**
     * The header of {@code throughput.csv}.
     */
    public static final String THROUGHPUT_HEADER = ClassReport.THROUGHPUT_HEADER;

    private static final String CLASSES_SCHEME = ClassReport.CLASSES_SCHEME;
    private static final String PLAIN_SCHEME = ClassReport.PLAIN_SCHEME;
    private static final String IDEAL_CLASS_SCHEME = ClassReport.IDEAL_CLASS_SCHEME;
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
        final BackloggedShareMeter backlogged = new BackloggedShareMeter();
        final long[] endNs = new long[meters.size()];
        int run = 0;
        for (final Map.Entry<String, ReceiverThroughputMeter> meter : meters.entrySet())
        {
            final SimFabric runFabric = CLASSES_SCHEME.equals(meter.getKey()) ? fabric :
                fabric.withQueues(PLAIN_SCHEME, fabric.bufferLength());
            final SimRun.Outcome outcome = SimRun.run(runFabric, settings, "pfabric", meter.getKey(), trace,
                options.seed, options.out.resolve("fct-" + meter.getKey() + "-" + label + ".csv"), progress,
                CLASSES_SCHEME.equals(meter.getKey()) ? TransmitObserver.both(meter.getValue(), backlogged) :
                meter.getValue());
            endNs[run++] = outcome.virtualNs();
            progress.printf(Locale.ROOT, "sim classes: %s: %.1f s CPU, %.3f s virtual, %,d events, %,d packets " +
                "dropped, %d flows incomplete%n", meter.getKey(), outcome.cpuNs() / 1e9, outcome.virtualNs() / 1e9,
                outcome.events(), outcome.dropped(), outcome.incomplete());
        }
        SimRun.run(fabric, settings, "ideal", "ideal", trace, options.seed,
            options.out.resolve("fct-ideal-" + label + ".csv"), progress);
        ClassReport.writeIdealWithinClasses(classes, trace, names, fabric.edgeRateBitsPerSec(), fabric::baseRttNs,
            SimFabric.segmentWireLength(), options.out.resolve("fct-" + IDEAL_CLASS_SCHEME + "-" + label + ".csv"));

        final FctAnalysis analysis = new FctAnalysis(fabric.edgeRateBitsPerSec(), rtts, SimFabric.segmentWireLength());
        final List<ResultsTable.Line> lines = ResultsTable.summarize(options.out, analysis, rtts::hostIndex);
        ResultsTable.writeCsv(options.out.resolve("summary.csv"), lines);

        final int windowEndBin = BINS_PER_DURATION;
        final int lastBin = (int)Math.min(BINS_PER_DURATION * MAX_DURATIONS,
            (Math.max(endNs[0], endNs[1]) + binNs - 1) / binNs);
        final int plotBins = Math.min(lastBin, BINS_PER_DURATION * PLOT_DURATIONS);
        final long[] backloggedByClass = new long[classes.classCount()];
        long backloggedTotal = 0;
        for (int k = 0; k < backloggedByClass.length; k++)
        {
            backloggedByClass[k] = backlogged.backloggedBytes(k);
            backloggedTotal += backloggedByClass[k];
        }
        final List<ClassReport.Row> rows = new ArrayList<>();
        final List<ClassPlot.Throughput> throughputs = new ArrayList<>();
        final Map<String, Double> weightShares = new LinkedHashMap<>();
        for (final WorkloadMix.App app : apps)
        {
            weightShares.put(ClassReport.label(app), ClassReport.weightShare(classes, app.dscp()));
        }
        try (BufferedWriter writer = Files.newBufferedWriter(options.out.resolve("throughput.csv"),
            StandardCharsets.UTF_8))
        {
            writer.write(ClassReport.THROUGHPUT_HEADER);
            writer.newLine();
            for (final Map.Entry<String, ReceiverThroughputMeter> entry : meters.entrySet())
            {
                final ReceiverThroughputMeter meter = entry.getValue();
                long windowTotal = 0;
                for (final WorkloadMix.App app : apps)
                {
                    windowTotal += meter.payloadBytes(app.dscp(), WINDOW_START_BIN, windowEndBin);
                }
                final boolean withClasses = CLASSES_SCHEME.equals(entry.getKey());
                for (final WorkloadMix.App app : apps)
                {
                    final int trafficClass = classes.classOf(app.dscp());
                    rows.add(ClassReport.row(entry.getKey(), classes, app, WINDOW_START_BIN * binNs / 1e6,
                        windowEndBin * binNs / 1e6, meter.payloadBytes(app.dscp(), WINDOW_START_BIN, windowEndBin),
                        windowTotal, lines, withClasses ? backloggedByClass[trafficClass] : -1, backloggedTotal));
                }
                throughputs.addAll(ClassReport.writeThroughput(writer, entry.getKey(), apps, meter::payloadBytes,
                    binNs, lastBin, plotBins));
            }
        }
        ClassReport.writeCsv(options.out.resolve("classes.csv"), rows);

        final List<ClassPlot.SmallFlows> smallFlows = ClassReport.smallFlows(options.out, label, apps,
            List.of(CLASSES_SCHEME, PLAIN_SCHEME, IDEAL_CLASS_SCHEME), analysis, rtts);
        ClassPlot.write(throughputs, binNs / 1e6, weightShares, smallFlows, String.format(Locale.ROOT,
            "%s on %s, classes %s, flows starting within %.1f ms", options.workloadLabel(), options.topo(), classes,
            durationNs / 1e6), options.out.resolve("classes.png"));

        final String shareLine = writePorts(fabric, classes, backlogged, options.out.resolve("ports.csv"));

        out.println(CLASSES_HEADER);
        for (final ClassReport.Row row : rows)
        {
            out.println(row.csv());
        }
        progress.println(shareLine);
    }

    /**
     * Every port at which some class sent while every class was backlogged, busiest first, into a file; and the line
     * that sums them up: each class's share over all those ports, and the spread of class 0's share over the ports
     * that sent at least {@link #SPREAD_MIN_BYTES} that way.
     */
    private static String writePorts(final SimFabric fabric, final TrafficClasses classes,
        final BackloggedShareMeter meter, final Path file) throws IOException
    {
        final int classCount = classes.classCount();
        final List<Integer> ports = new ArrayList<>();
        final Map<Integer, Long> totalByPort = new TreeMap<>();
        for (int index = 0; index < meter.ports(); index++)
        {
            long total = 0;
            for (int k = 0; k < meter.classCount(index); k++)
            {
                total += meter.backloggedBytes(index, k);
            }
            if (total > 0)
            {
                ports.add(index);
                totalByPort.put(index, total);
            }
        }
        ports.sort((a, b) -> Long.compare(totalByPort.get(b), totalByPort.get(a)));
        final long[] byClass = new long[classCount];
        long stretches = 0;
        final List<Double> spread = new ArrayList<>();
        try (BufferedWriter writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8))
        {
            writer.write(PORTS_HEADER);
            writer.newLine();
            for (final int index : ports)
            {
                final long total = totalByPort.get(index);
                stretches += meter.stretches(index);
                for (int k = 0; k < classCount; k++)
                {
                    final long bytes = meter.backloggedBytes(index, k);
                    byClass[k] += bytes;
                    writer.write(String.format(Locale.ROOT, "%d,%d,%s,%d,%.4f,%d,%d,%.4f,%d",
                        meter.switchIndex(index), meter.port(index),
                        tier(fabric, meter.switchIndex(index), meter.port(index)), k,
                        (double)classes.weight(k) / classes.totalWeight(), meter.departedBytes(index, k), bytes,
                        (double)bytes / total, meter.stretches(index)));
                    writer.newLine();
                }
                if (total >= SPREAD_MIN_BYTES)
                {
                    spread.add((double)meter.backloggedBytes(index, 0) / total);
                }
            }
        }
        final long sum = Arrays.stream(byClass).sum();
        final StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
            "both-backlogged share under %s: %d ports sent %,d B while every class was backlogged there, in %,d " +
            "stretches (%,.0f B each on average);", CLASSES_SCHEME, ports.size(), sum, stretches,
            (double)sum / Math.max(1, stretches)));
        for (int k = 0; k < classCount; k++)
        {
            line.append(String.format(Locale.ROOT, " class %d %.4f (weight %.4f)", k,
                (double)byClass[k] / Math.max(1, sum), (double)classes.weight(k) / classes.totalWeight()));
        }
        spread.sort(Double::compare);
        if (!spread.isEmpty())
        {
            line.append(String.format(Locale.ROOT, "; class 0's share over the %d ports with at least %,d B: " +
                "min %.4f p10 %.4f p50 %.4f p90 %.4f max %.4f", spread.size(), SPREAD_MIN_BYTES, spread.get(0),
                percentile(spread, 0.1), percentile(spread, 0.5), percentile(spread, 0.9),
                spread.get(spread.size() - 1)));
        }
        return line.toString();
    }

    private static double percentile(final List<Double> sorted, final double fraction)
    {
        return sorted.get((int)Math.min(sorted.size() - 1, Math.floor(fraction * sorted.size())));
    }

    private static String tier(final SimFabric fabric, final int switchIndex, final int port)
    {
        if (switchIndex < fabric.leaves())
        {
            return port < fabric.hostsPerLeaf() ? "leaf-down" : "leaf-up";
        }
        if (switchIndex < fabric.leaves() + fabric.aggregations())
        {
            return "aggregation";
        }
        return switchIndex < fabric.leaves() + fabric.aggregations() + fabric.spines() ? "spine" : "nic";
    }
}
