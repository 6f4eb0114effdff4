package io.pfabric.sim;

import io.pfabric.analysis.FctAnalysis;
import io.pfabric.analysis.PathRtts;
import io.pfabric.analysis.ResultsTable;
import io.pfabric.hostd.transport.PriorityPolicy;
import io.pfabric.hostd.workload.FlowSizeDistribution;
import io.pfabric.hostd.workload.TraceFile;
import io.pfabric.hostd.workload.WorkloadTrace;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the priority number should say (the pFabric paper's Fig 14): pFabric with each packet's priority the bytes its
 * flow has sent, the flow's size, or its remaining size (the default), beside PDQ and Ideal, the same trace per load
 * for every scheme; the overall mean normalized FCT against load. pFabric runs are named {@code pfabric-POLICY}.
 * Writes {@code DIR/trace-LOAD.csv}, {@code DIR/fct-SCHEME-LOAD.csv}, {@code DIR/summary.csv}
 * ({@link ResultsTable#CSV_HEADER}, every bin), {@code DIR/priority.csv} ({@link #CSV_HEADER}) and
 * {@code DIR/priority.png}. Deterministic for a seed.
 */
public final class PriorityExperiment
{
    /**
     * The columns of {@code priority.csv}: each run's overall mean normalized FCT and its small flows' mean and p99.
     */
    public static final String CSV_HEADER = "scheme,load,flows,incomplete,mean,small_mean,small_p99";

    /**
     * The baselines it can run beside pFabric.
     */
    public static final List<String> BASELINES = List.of("pdq", "ideal");

    /**
     * The priorities it compares.
     */
    public static final List<PriorityPolicy> POLICIES = List.of(PriorityPolicy.BYTES_SENT, PriorityPolicy.FLOW_SIZE,
        PriorityPolicy.REMAINING_SIZE);

    /**
     * What to run.
     *
     * @param fabric     the fabric.
     * @param settings   the schemes' settings on it (pFabric's priority is set per run).
     * @param workload   the flow sizes.
     * @param loads      offered loads per host link, each in (0, 1).
     * @param flows      flows per load.
     * @param seed       of the traces and the spraying.
     * @param priorities pFabric's priorities, of {@link #POLICIES}.
     * @param baselines  of {@link #BASELINES}.
     */
    public record Config(SimFabric fabric, SimSettings settings, FlowSizeDistribution workload, List<Double> loads,
        long flows, long seed, List<PriorityPolicy> priorities, List<String> baselines)
    {
        /**
         * Validate, before anything is written.
         */
        public Config
        {
            if (loads.isEmpty())
            {
                throw new IllegalArgumentException("--loads needs at least one load");
            }
            for (final double load : loads)
            {
                if (!(load > 0 && load < 1))
                {
                    throw new IllegalArgumentException("--loads: every load must be between 0 and 1, not " + load);
                }
            }
            if (flows < 1)
            {
                throw new IllegalArgumentException("--flows must be at least 1");
            }
            for (final PriorityPolicy policy : priorities)
            {
                if (!POLICIES.contains(policy))
                {
                    throw new IllegalArgumentException("--priorities: bytes-sent, size or remaining, not '" +
                        policy.cliName() + "'");
                }
            }
            for (final String baseline : baselines)
            {
                MicroExperiments.requireScheme("--baselines", baseline, BASELINES);
            }
            if (priorities.isEmpty() && baselines.isEmpty())
            {
                throw new IllegalArgumentException("--priorities and --baselines name nothing to run");
            }
            loads = List.copyOf(loads);
            priorities = List.copyOf(priorities);
            baselines = List.copyOf(baselines);
        }
    }

    /**
     * One run's result.
     *
     * @param scheme     {@code pfabric-POLICY}, pdq or ideal.
     * @param load       the load.
     * @param flows      flows completed.
     * @param incomplete flows not completed.
     * @param mean       overall mean normalized FCT.
     * @param smallMean  (0, 100 KB] flows' mean.
     * @param smallP99   their 99th percentile.
     */
    public record Point(String scheme, String load, int flows, int incomplete, double mean, double smallMean,
        double smallP99)
    {
    }

    private PriorityExperiment()
    {
    }

    /**
     * The name of pFabric's run under a priority.
     *
     * @param policy the priority.
     * @return {@code pfabric-remaining}, {@code pfabric-size} or {@code pfabric-bytes-sent}.
     */
    public static String schemeName(final PriorityPolicy policy)
    {
        return "pfabric-" + policy.cliName();
    }

    /**
     * Run every scheme at every load and write the results.
     *
     * @param config   what to run.
     * @param out      the results directory.
     * @param progress where to report.
     * @return one point per scheme and load, by scheme then load.
     * @throws IOException if the results cannot be written.
     */
    public static List<Point> run(final Config config, final Path out, final PrintStream progress) throws IOException
    {
        final SimFabric fabric = config.fabric();
        final List<String> names = SimRun.hostNames(fabric);
        final PathRtts rtts = PathRtts.byClass(names, fabric::baseRttNs);
        Files.createDirectories(out);
        rtts.write(out.resolve("base-rtt.csv"));
        progress.printf(Locale.ROOT, "sim priority: %s%n", config.settings().describe());
        for (final double load : config.loads())
        {
            final String label = MicroExperiments.loadLabel(load);
            final List<WorkloadTrace.FlowSpec> trace = WorkloadTrace.generate(fabric.hosts(), load,
                fabric.edgeRateBitsPerSec(), config.workload(), config.seed(), config.flows(), 0);
            TraceFile.write(out.resolve("trace-" + label + ".csv"), trace, names);
            for (final PriorityPolicy policy : config.priorities())
            {
                final String scheme = schemeName(policy);
                report(progress, scheme, label, SimRun.run(fabric, config.settings().withPriority(policy), "pfabric",
                    scheme, trace, config.seed(), out.resolve("fct-" + scheme + "-" + label + ".csv"), progress));
            }
            for (final String baseline : config.baselines())
            {
                report(progress, baseline, label, SimRun.run(fabric, config.settings(), baseline, baseline, trace,
                    config.seed(), out.resolve("fct-" + baseline + "-" + label + ".csv"), progress));
            }
        }
        final List<ResultsTable.Line> lines = ResultsTable.summarize(out,
            new FctAnalysis(fabric.edgeRateBitsPerSec(), rtts, SimFabric.segmentWireLength()), rtts::hostIndex);
        ResultsTable.writeCsv(out.resolve("summary.csv"), lines);
        final List<Point> points = points(lines);
        try (PrintWriter writer = new PrintWriter(Files.newBufferedWriter(out.resolve("priority.csv"))))
        {
            writer.println(CSV_HEADER);
            for (final Point point : points)
            {
                writer.printf(Locale.ROOT, "%s,%s,%d,%d,%.4f,%.4f,%.4f%n", point.scheme(), point.load(),
                    point.flows(), point.incomplete(), point.mean(), point.smallMean(), point.smallP99());
            }
        }
        plot(points, String.format(Locale.ROOT, "priority assignment: %s, %,d flows per point",
            config.workload().name(), config.flows()), out.resolve("priority.png"));
        return points;
    }

    /**
     * Print the points as a table.
     *
     * @param out    where.
     * @param points the points.
     */
    public static void print(final PrintStream out, final List<Point> points)
    {
        out.printf(Locale.ROOT, "%-20s %6s %8s %10s %10s %10s%n", "scheme", "load", "flows", "mean", "small", "small99");
        for (final Point point : points)
        {
            out.printf(Locale.ROOT, "%-20s %6s %8d %10.3f %10.3f %10.3f%n", point.scheme(), point.load(),
                point.flows(), point.mean(), point.smallMean(), point.smallP99());
        }
    }

    private static void report(final PrintStream progress, final String scheme, final String load,
        final SimRun.Outcome outcome)
    {
        progress.printf(Locale.ROOT, "sim priority: %s at load %s: %.1f s CPU, %,d packets dropped, %d flows " +
            "incomplete%n", scheme, load, outcome.cpuNs() / 1e9, outcome.dropped(), outcome.incomplete());
    }

    private static List<Point> points(final List<ResultsTable.Line> lines)
    {
        final Map<String, ResultsTable.Line> all = new LinkedHashMap<>();
        final Map<String, ResultsTable.Line> small = new LinkedHashMap<>();
        for (final ResultsTable.Line line : lines)
        {
            final String key = line.scheme() + "," + line.load();
            if (FctAnalysis.Bin.ALL == line.summary().bin())
            {
                all.put(key, line);
            }
            else if (FctAnalysis.Bin.SMALL == line.summary().bin())
            {
                small.put(key, line);
            }
        }
        final List<Point> points = new ArrayList<>();
        for (final Map.Entry<String, ResultsTable.Line> entry : all.entrySet())
        {
            final ResultsTable.Line line = entry.getValue();
            final ResultsTable.Line smallLine = small.get(entry.getKey());
            points.add(new Point(line.scheme(), line.load(), line.summary().count(), line.summary().incomplete(),
                line.summary().mean(), null == smallLine ? Double.NaN : smallLine.summary().mean(),
                null == smallLine ? Double.NaN : smallLine.summary().p99()));
        }
        return points;
    }

    private static void plot(final List<Point> points, final String title, final Path file) throws IOException
    {
        final XYChart chart = new XYChartBuilder().width(900).height(550).title(title).xAxisTitle("load")
            .yAxisTitle("mean normalized FCT, all flows").build();
        final Map<String, List<Point>> byScheme = new LinkedHashMap<>();
        for (final Point point : points)
        {
            byScheme.computeIfAbsent(point.scheme(), scheme -> new ArrayList<>()).add(point);
        }
        for (final Map.Entry<String, List<Point>> entry : byScheme.entrySet())
        {
            chart.addSeries(entry.getKey(), entry.getValue().stream().mapToDouble(p -> Double.parseDouble(p.load()))
                .toArray(), entry.getValue().stream().mapToDouble(Point::mean).toArray()).setMarker(SeriesMarkers.CIRCLE);
        }
        MicroExperiments.writePng(chart, file);
    }
}
