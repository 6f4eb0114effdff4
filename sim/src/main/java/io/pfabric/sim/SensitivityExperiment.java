package io.pfabric.sim;

import io.pfabric.analysis.ChartGrid;
import io.pfabric.analysis.FctAnalysis;
import io.pfabric.analysis.PathRtts;
import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.workload.FctLogReader;
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
import java.util.List;
import java.util.Locale;

/**
 * Sensitivity to the buffer and the timeout (the pFabric paper's Fig 12): one trace of a workload at one load, run by
 * pfabric with every switch port's and NIC's buffer a multiple of the bandwidth-delay product against its fixed
 * timeout a multiple of the round trip; the overall mean and the small flows' 99th percentile of normalized FCT. The
 * round trip R is the fabric's longest base RTT (14.88 us on the paper's fabric, where the paper's is 14.6 us) and the
 * bandwidth-delay product the host link's rate times R (18.6 KB; the paper's 18 KB). The window starts at the
 * settings' initial window and is capped at the buffer in full packets less one, or the initial window if larger, as
 * hostd derives its own. Writes {@code DIR/trace-LOAD.csv}, {@code DIR/sensitivity.csv} ({@link #CSV_HEADER}),
 * {@code DIR/sensitivity.png} and each run's FCT log under {@code DIR/runs/}. Deterministic for a seed.
 */
public final class SensitivityExperiment
{
    /**
     * The columns of {@code sensitivity.csv}: a run's buffer and timeout, as multiples and absolute, the window cap,
     * the flows, the packets the queues dropped, and the normalized FCT's overall mean and small flows' mean and p99.
     */
    public static final String CSV_HEADER = "buffer_bdp,buffer_bytes,timeout_rtt,timeout_us,window_cap,flows," +
        "incomplete,dropped_packets,mean,small_mean,small_p99";

    /**
     * What to run.
     *
     * @param fabric      the fabric.
     * @param settings    pFabric's settings on it (its initial window is kept).
     * @param workload    the flow sizes.
     * @param load        offered load per host link, in (0, 1).
     * @param flows       flows in the trace.
     * @param seed        of the trace and the spraying.
     * @param bufferBdps  the buffers, in bandwidth-delay products.
     * @param timeoutRtts the timeouts, in round trips.
     */
    public record Config(SimFabric fabric, SimSettings settings, FlowSizeDistribution workload, double load,
        long flows, long seed, List<Double> bufferBdps, List<Double> timeoutRtts)
    {
        /**
         * Validate, before anything is written.
         */
        public Config
        {
            if (!(load > 0 && load < 1))
            {
                throw new IllegalArgumentException("--load must be between 0 and 1, not " + load);
            }
            if (flows < 1)
            {
                throw new IllegalArgumentException("--flows must be at least 1");
            }
            if (bufferBdps.isEmpty() || timeoutRtts.isEmpty())
            {
                throw new IllegalArgumentException("--buffers and --timeouts need at least one value each");
            }
            for (final double bdps : bufferBdps)
            {
                if (!(bdps > 0) || Math.round(bdps * bdpBytes(fabric)) < PacketPool.FRAME_CAPACITY)
                {
                    throw new IllegalArgumentException("--buffers: each must hold a full frame, at least " +
                        String.format(Locale.ROOT, "%.2f", (double)PacketPool.FRAME_CAPACITY / bdpBytes(fabric)) +
                        " BDP, not " + bdps);
                }
            }
            for (final double rtts : timeoutRtts)
            {
                if (!(rtts > 0))
                {
                    throw new IllegalArgumentException("--timeouts must be positive multiples of the RTT, not " +
                        rtts);
                }
            }
            bufferBdps = List.copyOf(bufferBdps);
            timeoutRtts = List.copyOf(timeoutRtts);
        }
    }

    /**
     * One run's result.
     *
     * @param bufferBdps     the buffer in BDPs.
     * @param bufferBytes    in bytes.
     * @param timeoutRtts    the timeout in RTTs.
     * @param timeoutNs      in nanoseconds.
     * @param windowCap      the window's cap in packets.
     * @param flows          flows completed.
     * @param incomplete     flows not completed.
     * @param droppedPackets packets the queues dropped.
     * @param mean           overall mean normalized FCT.
     * @param smallMean      (0, 100 KB] flows' mean.
     * @param smallP99       their 99th percentile.
     */
    public record Point(double bufferBdps, long bufferBytes, double timeoutRtts, long timeoutNs, int windowCap,
        int flows, int incomplete, long droppedPackets, double mean, double smallMean, double smallP99)
    {
    }

    private SensitivityExperiment()
    {
    }

    /**
     * The fabric's round trip: its longest base RTT.
     *
     * @param fabric the fabric.
     * @return nanoseconds.
     */
    public static long rttNs(final SimFabric fabric)
    {
        return SimSettings.largestBaseRttNs(fabric);
    }

    /**
     * The fabric's bandwidth-delay product: the host link's rate times its round trip.
     *
     * @param fabric the fabric.
     * @return bytes.
     */
    public static double bdpBytes(final SimFabric fabric)
    {
        return fabric.edgeRateBitsPerSec() / 8.0 * rttNs(fabric) / 1e9;
    }

    /**
     * Run every buffer against every timeout and write the results.
     *
     * @param config   what to run.
     * @param out      the results directory.
     * @param progress where to report.
     * @return the points, by buffer then timeout.
     * @throws IOException if the results cannot be written.
     */
    public static List<Point> run(final Config config, final Path out, final PrintStream progress) throws IOException
    {
        final SimFabric fabric = config.fabric();
        final List<String> names = SimRun.hostNames(fabric);
        final PathRtts rtts = PathRtts.byClass(names, fabric::baseRttNs);
        final FctAnalysis analysis = new FctAnalysis(fabric.edgeRateBitsPerSec(), rtts, SimFabric.segmentWireLength());
        final List<WorkloadTrace.FlowSpec> trace = WorkloadTrace.generate(fabric.hosts(), config.load(),
            fabric.edgeRateBitsPerSec(), config.workload(), config.seed(), config.flows(), 0);
        final String load = MicroExperiments.loadLabel(config.load());
        final Path runs = out.resolve("runs");
        Files.createDirectories(runs);
        TraceFile.write(out.resolve("trace-" + load + ".csv"), trace, names);
        final int initial = config.settings().pfabric().initialWindowPackets();
        progress.printf(Locale.ROOT, "sim sensitivity: %s at load %s, %,d flows; RTT %.2f us, BDP %,.0f B, initial " +
            "window %d%n", config.workload().name(), load, trace.size(), rttNs(fabric) / 1e3, bdpBytes(fabric),
            initial);
        final List<Point> points = new ArrayList<>();
        for (final double bdps : config.bufferBdps())
        {
            final long bufferBytes = Math.round(bdps * bdpBytes(fabric));
            final int cap = (int)Math.max(initial, bufferBytes / TransportConfiguration.FULL_PACKET_WIRE_LENGTH - 1);
            for (final double timeoutRtts : config.timeoutRtts())
            {
                final long timeoutNs = Math.round(timeoutRtts * rttNs(fabric));
                final String name = String.format(Locale.ROOT, "pfabric-buffer%s-timeout%s",
                    MicroExperiments.loadLabel(bdps), MicroExperiments.loadLabel(timeoutRtts));
                final Path log = runs.resolve("fct-" + name + "-" + load + ".csv");
                final SimRun.Outcome outcome = SimRun.run(fabric.withQueues("pfabric", bufferBytes),
                    config.settings().withPfabric(initial, cap, timeoutNs), "pfabric", name, trace, config.seed(), log,
                    progress);
                FctAnalysis.Summary all = null;
                FctAnalysis.Summary small = null;
                for (final FctAnalysis.Summary summary : analysis.summarize(FctLogReader.read(log), rtts::hostIndex))
                {
                    all = FctAnalysis.Bin.ALL == summary.bin() ? summary : all;
                    small = FctAnalysis.Bin.SMALL == summary.bin() ? summary : small;
                }
                final Point point = new Point(bdps, bufferBytes, timeoutRtts, timeoutNs, cap, all.count(),
                    all.incomplete(), outcome.dropped(), all.mean(), null == small ? Double.NaN : small.mean(),
                    null == small ? Double.NaN : small.p99());
                progress.printf(Locale.ROOT, "sim sensitivity: buffer %s BDP (%,d B, cap %d), timeout %s RTT " +
                    "(%.1f us): mean %.3f, small p99 %.3f, %,d dropped; %.1f s CPU%n", MicroExperiments.loadLabel(bdps),
                    bufferBytes, cap, MicroExperiments.loadLabel(timeoutRtts), timeoutNs / 1e3, point.mean(),
                    point.smallP99(), point.droppedPackets(), outcome.cpuNs() / 1e9);
                points.add(point);
            }
        }
        try (PrintWriter writer = new PrintWriter(Files.newBufferedWriter(out.resolve("sensitivity.csv"))))
        {
            writer.println(CSV_HEADER);
            for (final Point point : points)
            {
                writer.printf(Locale.ROOT, "%s,%d,%s,%.3f,%d,%d,%d,%d,%.4f,%.4f,%.4f%n",
                    MicroExperiments.loadLabel(point.bufferBdps()), point.bufferBytes(),
                    MicroExperiments.loadLabel(point.timeoutRtts()), point.timeoutNs() / 1e3, point.windowCap(),
                    point.flows(), point.incomplete(), point.droppedPackets(), point.mean(), point.smallMean(),
                    point.smallP99());
            }
        }
        plot(config, points, String.format(Locale.ROOT, "sensitivity: %s at load %s, %,d flows per run",
            config.workload().name(), load, trace.size()), out.resolve("sensitivity.png"));
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
        out.printf(Locale.ROOT, "%-10s %-12s %10s %12s %12s%n", "buffer", "timeout", "mean", "small p99", "dropped");
        for (final Point point : points)
        {
            out.printf(Locale.ROOT, "%-10s %-12s %10.3f %12.3f %12d%n",
                MicroExperiments.loadLabel(point.bufferBdps()) + " BDP",
                MicroExperiments.loadLabel(point.timeoutRtts()) + " RTT", point.mean(), point.smallP99(),
                point.droppedPackets());
        }
    }

    private static void plot(final Config config, final List<Point> points, final String title, final Path file)
        throws IOException
    {
        final XYChart overall = new XYChartBuilder().width(700).height(500).title("(a) overall average")
            .xAxisTitle("buffer (BDP)").yAxisTitle("mean normalized FCT").build();
        final XYChart small = new XYChartBuilder().width(700).height(500).title("(b) (0, 100KB]: 99th percentile")
            .xAxisTitle("buffer (BDP)").yAxisTitle("normalized FCT").build();
        for (final double timeoutRtts : config.timeoutRtts())
        {
            final List<Point> line = points.stream().filter(p -> p.timeoutRtts() == timeoutRtts).toList();
            final double[] buffers = line.stream().mapToDouble(Point::bufferBdps).toArray();
            final String name = "timeout " + MicroExperiments.loadLabel(timeoutRtts) + " RTT";
            overall.addSeries(name, buffers, line.stream().mapToDouble(Point::mean).toArray())
                .setMarker(SeriesMarkers.CIRCLE);
            small.addSeries(name, buffers, line.stream().mapToDouble(Point::smallP99).toArray())
                .setMarker(SeriesMarkers.CIRCLE);
        }
        ChartGrid.write(List.of(overall, small), 2, 700, 500, title, file);
    }
}
