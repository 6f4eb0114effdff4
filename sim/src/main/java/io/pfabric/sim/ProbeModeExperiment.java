package io.pfabric.sim;

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
 * Loss with many long-lived flows (the pFabric paper's Fig 5b): N flows from N hosts into one host, longer than the
 * run, for a fixed virtual time, with probe mode after some consecutive timeouts and without it. The loss rate is the
 * data packets dropped anywhere over the data packets sent (probes are not data: a flow in probe mode sends no data
 * until an ACK). Writes {@code DIR/probe-mode.csv} ({@link #CSV_HEADER}) and {@code DIR/probe-mode.png}; the FCT logs
 * go to {@code DIR/runs/}. Deterministic for a seed.
 */
public final class ProbeModeExperiment
{
    /**
     * The columns of {@code probe-mode.csv}: the probe setting ({@code off} or the timeouts), the flows, the data
     * packets sent and dropped, the loss rate, and the destination's goodput in Gb/s (payload its last hop sent).
     */
    public static final String CSV_HEADER = "probe_after,flows,sent_packets,dropped_packets,loss_rate," +
        "throughput_gbps";

    /**
     * The probe setting for no probe mode.
     */
    public static final int OFF = Integer.MAX_VALUE;

    /**
     * What to run.
     *
     * @param fabric      the fabric (pFabric queues).
     * @param settings    the transport's settings on it.
     * @param flowCounts  the numbers of flows, each a run per probe setting, 1 to the hosts less one.
     * @param probeAfters consecutive timeouts before probe mode, each a run per flow count; {@link #OFF} for none.
     * @param durationNs  how long each run lasts.
     * @param seed        of the spraying.
     */
    public record Config(SimFabric fabric, SimSettings settings, List<Integer> flowCounts, List<Integer> probeAfters,
        long durationNs, long seed)
    {
        /**
         * Validate, before anything is written.
         */
        public Config
        {
            if (flowCounts.isEmpty() || probeAfters.isEmpty())
            {
                throw new IllegalArgumentException("--flows and --probe-after need at least one value each");
            }
            for (final int flows : flowCounts)
            {
                if (flows < 1 || flows >= fabric.hosts())
                {
                    throw new IllegalArgumentException("--flows: each count must be 1 to " + (fabric.hosts() - 1) +
                        " (one source host each), not " + flows);
                }
            }
            for (final int after : probeAfters)
            {
                if (after < 1)
                {
                    throw new IllegalArgumentException("--probe-after: a number of timeouts of at least 1, or off, " +
                        "not " + after);
                }
            }
            if (durationNs < 1)
            {
                throw new IllegalArgumentException("--duration must be positive");
            }
            flowCounts = List.copyOf(flowCounts);
            probeAfters = List.copyOf(probeAfters);
        }

        /**
         * Each flow's size: twice what the host link carries in the run, so that none completes.
         *
         * @return bytes.
         */
        public long flowSizeBytes()
        {
            return Math.min(0xFFFF_FFFFL, Math.max(1_000_000L,
                2 * (long)(fabric.edgeRateBitsPerSec() / 8.0 * durationNs / 1e9)));
        }
    }

    /**
     * One run's result.
     *
     * @param probeAfter     the probe setting.
     * @param flows          the flows.
     * @param sentPackets    data packets sent.
     * @param droppedPackets data packets dropped.
     * @param throughputGbps the destination's goodput.
     */
    public record Point(int probeAfter, int flows, long sentPackets, long droppedPackets, double throughputGbps)
    {
        /**
         * Dropped over sent.
         *
         * @return the loss rate.
         */
        public double lossRate()
        {
            return 0 == sentPackets ? 0 : (double)droppedPackets / sentPackets;
        }

        /**
         * The probe setting as a label.
         *
         * @return {@code off} or the timeouts.
         */
        public String probeLabel()
        {
            return label(probeAfter);
        }
    }

    private ProbeModeExperiment()
    {
    }

    private static String label(final int probeAfter)
    {
        return OFF == probeAfter ? "off" : Integer.toString(probeAfter);
    }

    /**
     * Run every flow count under every probe setting and write the results.
     *
     * @param config   what to run.
     * @param out      the results directory.
     * @param progress where to report.
     * @return the points, by probe setting then flow count.
     * @throws IOException if the results cannot be written.
     */
    public static List<Point> run(final Config config, final Path out, final PrintStream progress) throws IOException
    {
        final SimFabric fabric = config.fabric().withQueues("pfabric", config.fabric().bufferLength());
        final Path runs = out.resolve("runs");
        Files.createDirectories(runs);
        final List<Point> points = new ArrayList<>();
        for (final int probeAfter : config.probeAfters())
        {
            final SimSettings settings = config.settings().withProbeAfterTimeouts(probeAfter);
            for (final int flows : config.flowCounts())
            {
                final int[] sources = FlowSwitchingExperiment.sources(fabric.hosts(), flows);
                final List<WorkloadTrace.FlowSpec> trace = new ArrayList<>();
                for (int f = 0; f < flows; f++)
                {
                    trace.add(new WorkloadTrace.FlowSpec(f, sources[f], 0, config.flowSizeBytes(), 0));
                }
                final HopLossMeter loss = new HopLossMeter(List.of());
                final ReceiverThroughputMeter received = new ReceiverThroughputMeter(fabric, config.durationNs(), 2);
                final String name = "probe-" + label(probeAfter) + "-flows-" + flows;
                final SimRun.Outcome outcome = SimRun.run(fabric, settings, "pfabric", name, trace, config.seed(),
                    runs.resolve("fct-" + name + ".csv"), progress, received, false,
                    simulator -> simulator.hopLossMeter(loss), config.durationNs());
                long dropped = 0;
                for (final PortRole role : PortRole.values())
                {
                    dropped += loss.droppedPackets(role);
                }
                final Point point = new Point(probeAfter, flows, loss.sentPackets(), dropped,
                    received.payloadBytes(0, 0) * 8.0 / config.durationNs());
                progress.printf(Locale.ROOT, "sim probe-mode: probe after %s, %d flows: loss %.4f (%,d of %,d), " +
                    "%.2f Gb/s into the destination; %.1f s CPU%n", point.probeLabel(), flows, point.lossRate(),
                    dropped, point.sentPackets(), point.throughputGbps(), outcome.cpuNs() / 1e9);
                points.add(point);
            }
        }
        try (PrintWriter writer = new PrintWriter(Files.newBufferedWriter(out.resolve("probe-mode.csv"))))
        {
            writer.println(CSV_HEADER);
            for (final Point point : points)
            {
                writer.printf(Locale.ROOT, "%s,%d,%d,%d,%.6f,%.4f%n", point.probeLabel(), point.flows(),
                    point.sentPackets(), point.droppedPackets(), point.lossRate(), point.throughputGbps());
            }
        }
        plot(points, String.format(Locale.ROOT, "long-lived flows into one port, %.1f ms each run",
            config.durationNs() / 1e6), out.resolve("probe-mode.png"));
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
        out.printf(Locale.ROOT, "%-12s %6s %12s %10s %10s%n", "probe after", "flows", "sent", "loss", "Gb/s");
        for (final Point point : points)
        {
            out.printf(Locale.ROOT, "%-12s %6d %12d %9.3f%% %10.2f%n", point.probeLabel(), point.flows(),
                point.sentPackets(), 100 * point.lossRate(), point.throughputGbps());
        }
    }

    private static void plot(final List<Point> points, final String title, final Path file) throws IOException
    {
        final XYChart chart = new XYChartBuilder().width(900).height(500).title(title)
            .xAxisTitle("number of flows").yAxisTitle("loss rate (%)").build();
        final Map<String, List<Point>> bySetting = new LinkedHashMap<>();
        for (final Point point : points)
        {
            bySetting.computeIfAbsent(point.probeLabel(), key -> new ArrayList<>()).add(point);
        }
        for (final Map.Entry<String, List<Point>> entry : bySetting.entrySet())
        {
            chart.addSeries("off".equals(entry.getKey()) ? "without probe mode" :
                    "probe mode after " + entry.getKey() + " timeouts",
                entry.getValue().stream().mapToDouble(Point::flows).toArray(),
                entry.getValue().stream().mapToDouble(p -> 100 * p.lossRate()).toArray())
                .setMarker(SeriesMarkers.CIRCLE);
        }
        MicroExperiments.writePng(chart, file);
    }
}
