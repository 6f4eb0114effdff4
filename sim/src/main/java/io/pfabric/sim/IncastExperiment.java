package io.pfabric.sim;

import io.pfabric.analysis.FctAnalysis;
import io.pfabric.hostd.workload.FctLogReader;
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
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Incast (the pFabric paper's Fig 6): a host requests a file striped over N senders, each sending its 1/N share at
 * once; the next request starts when this one completes. Each request runs on a fabric of its own, idle when it
 * starts, with a seed of its own (seed + request): what one request leaves behind (a TCP connection's window, a
 * queue's last packets) does not reach the next. The request completion time (its last flow's end) and the flows'
 * FCTs, per scheme and N. Writes {@code DIR/incast.csv} ({@link #CSV_HEADER}) and {@code DIR/incast.png}; each
 * request's FCT log goes to {@code DIR/runs/}. Deterministic for a seed.
 */
public final class IncastExperiment
{
    /**
     * The columns of {@code incast.csv}: per scheme and number of senders, the requests run, the request completion
     * time's mean and largest, the flows' mean FCT and 99th percentile, in ms, the ideal request time (every byte at
     * the line rate in full frames, plus one round trip), the timeouts and the flows incomplete.
     */
    public static final String CSV_HEADER = "scheme,senders,requests,request_mean_ms,request_max_ms,flow_mean_ms," +
        "flow_p99_ms,ideal_request_ms,timeouts,incomplete";

    /**
     * The schemes it compares.
     */
    public static final List<String> SCHEMES = List.of("pfabric", "pdq", "dctcp", "tcp");

    /**
     * What to run.
     *
     * @param fabric       the fabric.
     * @param settings     the schemes' settings on it.
     * @param senderCounts the numbers of senders, each a point, 1 to the hosts less one.
     * @param requestBytes the file's size.
     * @param requests     requests per point.
     * @param schemes      of {@link #SCHEMES}.
     * @param seed         of the spraying.
     */
    public record Config(SimFabric fabric, SimSettings settings, List<Integer> senderCounts, long requestBytes,
        int requests, List<String> schemes, long seed)
    {
        /**
         * Validate, before anything is written.
         */
        public Config
        {
            if (senderCounts.isEmpty())
            {
                throw new IllegalArgumentException("--senders needs at least one count");
            }
            for (final int senders : senderCounts)
            {
                if (senders < 1 || senders >= fabric.hosts())
                {
                    throw new IllegalArgumentException("--senders: each count must be 1 to " + (fabric.hosts() - 1) +
                        ", not " + senders);
                }
                if (requestBytes / senders < 1)
                {
                    throw new IllegalArgumentException("--size: a request of " + requestBytes + " B cannot be " +
                        "striped over " + senders + " senders");
                }
            }
            if (requestBytes < 1 || requestBytes > 0xFFFF_FFFFL)
            {
                throw new IllegalArgumentException("--size must be 1 byte to 4 GB, not " + requestBytes);
            }
            if (requests < 1)
            {
                throw new IllegalArgumentException("--requests must be at least 1");
            }
            if (schemes.isEmpty())
            {
                throw new IllegalArgumentException("--schemes needs at least one scheme");
            }
            for (final String scheme : schemes)
            {
                MicroExperiments.requireScheme("--schemes", scheme, SCHEMES);
            }
            senderCounts = List.copyOf(senderCounts);
            schemes = List.copyOf(schemes);
        }

        /**
         * Every byte of the request at the line rate in full frames, plus the round trip of the path.
         *
         * @return nanoseconds.
         */
        public double idealRequestNs()
        {
            return requestBytes * 8e9 / fabric.edgeRateBitsPerSec() * SimFabric.segmentWireLength() / 1460.0 +
                fabric.baseRttNs(1, 0);
        }
    }

    /**
     * One point.
     *
     * @param scheme        the scheme.
     * @param senders       N.
     * @param requests      requests run.
     * @param requestMeanNs the requests' mean completion time.
     * @param requestMaxNs  the largest.
     * @param flowMeanNs    the flows' mean FCT.
     * @param flowP99Ns     their 99th percentile.
     * @param timeouts      the flows' timeouts, all requests.
     * @param incomplete    flows that did not complete.
     */
    public record Point(String scheme, int senders, int requests, double requestMeanNs, long requestMaxNs,
        double flowMeanNs, double flowP99Ns, long timeouts, int incomplete)
    {
    }

    private IncastExperiment()
    {
    }

    /**
     * Run every scheme at every number of senders and write the results.
     *
     * @param config   what to run.
     * @param out      the results directory.
     * @param progress where to report.
     * @return the points, by scheme then senders.
     * @throws IOException if the results cannot be written.
     */
    public static List<Point> run(final Config config, final Path out, final PrintStream progress) throws IOException
    {
        final SimFabric fabric = config.fabric();
        final Path runs = out.resolve("runs");
        Files.createDirectories(runs);
        progress.printf(Locale.ROOT, "sim incast: requests of %s, %d per point; %s%n",
            MicroExperiments.sizeLabel(config.requestBytes()), config.requests(), config.settings().describe());
        final List<Point> points = new ArrayList<>();
        for (final String scheme : config.schemes())
        {
            for (final int senders : config.senderCounts())
            {
                final int[] sources = FlowSwitchingExperiment.sources(fabric.hosts(), senders);
                final List<WorkloadTrace.FlowSpec> trace = new ArrayList<>();
                final long share = config.requestBytes() / senders;
                for (int f = 0; f < senders; f++)
                {
                    final long size = f < senders - 1 ? share : config.requestBytes() - share * (senders - 1);
                    trace.add(new WorkloadTrace.FlowSpec(f, sources[f], 0, size, 0));
                }
                final long[] requestNs = new long[config.requests()];
                final List<Double> fcts = new ArrayList<>();
                long timeouts = 0;
                int incomplete = 0;
                double cpuSec = 0;
                for (int r = 0; r < config.requests(); r++)
                {
                    final Path log = runs.resolve("fct-" + scheme + "-n" + senders + "-r" + r + ".csv");
                    final SimRun.Outcome outcome = SimRun.run(fabric, config.settings(), scheme, scheme, trace,
                        config.seed() + r, log, progress);
                    cpuSec += outcome.cpuNs() / 1e9;
                    long last = 0;
                    for (final FctLogReader.Row row : FctLogReader.read(log))
                    {
                        if (!row.isComplete())
                        {
                            incomplete++;
                            continue;
                        }
                        last = Math.max(last, row.endNs());
                        fcts.add((double)row.fctNs());
                        timeouts += row.timeouts();
                    }
                    requestNs[r] = last;
                }
                final double[] sorted = fcts.stream().mapToDouble(Double::doubleValue).sorted().toArray();
                final Point point = new Point(scheme, senders, config.requests(),
                    Arrays.stream(requestNs).average().orElse(Double.NaN), Arrays.stream(requestNs).max().orElse(0),
                    Arrays.stream(sorted).average().orElse(Double.NaN),
                    sorted.length > 0 ? FctAnalysis.percentile(sorted, 99) : Double.NaN, timeouts, incomplete);
                progress.printf(Locale.ROOT, "sim incast: %s, %d senders: request %.3f ms (ideal %.3f), flows " +
                    "%.3f ms, %d timeouts, %d incomplete; %.1f s CPU%n", scheme, senders, point.requestMeanNs() / 1e6,
                    config.idealRequestNs() / 1e6, point.flowMeanNs() / 1e6, timeouts, incomplete, cpuSec);
                points.add(point);
            }
        }
        try (PrintWriter writer = new PrintWriter(Files.newBufferedWriter(out.resolve("incast.csv"))))
        {
            writer.println(CSV_HEADER);
            for (final Point point : points)
            {
                writer.printf(Locale.ROOT, "%s,%d,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%d,%d%n", point.scheme(),
                    point.senders(), point.requests(), point.requestMeanNs() / 1e6, point.requestMaxNs() / 1e6,
                    point.flowMeanNs() / 1e6, point.flowP99Ns() / 1e6, config.idealRequestNs() / 1e6,
                    point.timeouts(), point.incomplete());
            }
        }
        plot(points, config, out.resolve("incast.png"));
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
        out.printf(Locale.ROOT, "%-8s %8s %14s %12s %10s%n", "scheme", "senders", "request (ms)", "flow (ms)",
            "timeouts");
        for (final Point point : points)
        {
            out.printf(Locale.ROOT, "%-8s %8d %14.3f %12.3f %10d%n", point.scheme(), point.senders(),
                point.requestMeanNs() / 1e6, point.flowMeanNs() / 1e6, point.timeouts());
        }
    }

    private static void plot(final List<Point> points, final Config config, final Path file) throws IOException
    {
        final String what = String.format(Locale.ROOT, "incast: %s requests, %d per point",
            MicroExperiments.sizeLabel(config.requestBytes()), config.requests());
        final XYChart requests = new XYChartBuilder().width(700).height(500).title("(a) " + what)
            .xAxisTitle("number of senders").yAxisTitle("request completion time (ms)").build();
        final XYChart flows = new XYChartBuilder().width(700).height(500).title("(b) individual flows")
            .xAxisTitle("number of senders").yAxisTitle("mean flow completion time (ms)").build();
        final Map<String, List<Point>> byScheme = new LinkedHashMap<>();
        for (final Point point : points)
        {
            byScheme.computeIfAbsent(point.scheme(), key -> new ArrayList<>()).add(point);
        }
        for (final Map.Entry<String, List<Point>> entry : byScheme.entrySet())
        {
            final double[] senders = entry.getValue().stream().mapToDouble(Point::senders).toArray();
            requests.addSeries(entry.getKey(), senders,
                entry.getValue().stream().mapToDouble(p -> p.requestMeanNs() / 1e6).toArray())
                .setMarker(SeriesMarkers.CIRCLE);
            flows.addSeries(entry.getKey(), senders,
                entry.getValue().stream().mapToDouble(p -> p.flowMeanNs() / 1e6).toArray())
                .setMarker(SeriesMarkers.CIRCLE);
        }
        io.pfabric.analysis.ChartGrid.write(List.of(requests, flows), 2, 700, 500, what, file);
    }
}
