package io.pfabric.sim;

import io.pfabric.hostd.workload.FctLogReader;
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
 * Seamless flow switching (the pFabric paper's Fig 5a): a few large flows start together towards one host, and
 * pFabric serves them one after another, each at the line rate, rather than side by side. Each flow's throughput into
 * the destination over time (payload bytes its last-hop port transmits per interval of virtual time, retransmissions
 * included), and the last completion against the ideal, all bytes back to back at the line rate. Each flow is marked
 * with its own DSCP (1, 2, ...) so that the destination's meter ({@link ReceiverThroughputMeter}) tells them apart;
 * pFabric queues do not read it. Writes {@code DIR/trace.csv}, {@code DIR/fct-SCHEME.csv},
 * {@code DIR/flow-switching.csv} ({@link #CSV_HEADER}), {@code DIR/flow-switching-summary.csv}
 * ({@link #SUMMARY_HEADER}) and {@code DIR/flow-switching.png}. Deterministic for a seed.
 */
public final class FlowSwitchingExperiment
{
    /**
     * The columns of {@code flow-switching.csv}: each flow's throughput in each interval, by the interval's start.
     */
    public static final String CSV_HEADER = "time_ms,flow,throughput_gbps";

    /**
     * The columns of {@code flow-switching-summary.csv}: the flows' completions in order and the ideal: all bytes at
     * the line rate, as payload and as the frames that carry it.
     */
    public static final String SUMMARY_HEADER = "flow,source,size_bytes,end_ms,timeouts,ideal_payload_ms," +
        "ideal_wire_ms";

    /**
     * The schemes it runs: hostd's transport, whose flows carry the DSCP the meter reads.
     */
    public static final List<String> SCHEMES = List.of("pfabric", "linerate");

    /**
     * At most this many flows, one DSCP each above 0.
     */
    public static final int MAX_FLOWS = 63;

    /**
     * What to run.
     *
     * @param fabric     the fabric (pFabric queues).
     * @param settings   the transport's settings on it.
     * @param flows      how many flows, 1 to {@link #MAX_FLOWS}.
     * @param sizeBytes  each flow's size.
     * @param intervalNs the throughput's interval.
     * @param seed       of the spraying.
     * @param scheme     pfabric or linerate.
     */
    public record Config(SimFabric fabric, SimSettings settings, int flows, long sizeBytes, long intervalNs,
        long seed, String scheme)
    {
        /**
         * Validate, before anything is written.
         */
        public Config
        {
            if (flows < 1 || flows > MAX_FLOWS || flows >= fabric.hosts())
            {
                throw new IllegalArgumentException("--flows must be 1 to " + Math.min(MAX_FLOWS, fabric.hosts() - 1) +
                    " (one source host each), not " + flows);
            }
            if (sizeBytes < 1 || sizeBytes > 0xFFFF_FFFFL)
            {
                throw new IllegalArgumentException("--size must be 1 byte to 4 GB, not " + sizeBytes);
            }
            if (intervalNs < 1)
            {
                throw new IllegalArgumentException("--interval must be positive");
            }
            MicroExperiments.requireScheme("--scheme", scheme, SCHEMES);
        }

        /**
         * All bytes at the line rate, as payload.
         *
         * @return nanoseconds.
         */
        public double idealPayloadNs()
        {
            return flows * sizeBytes * 8e9 / fabric.edgeRateBitsPerSec();
        }

        /**
         * All bytes at the line rate in full frames, with their headers, FCS, preamble and gap.
         *
         * @return nanoseconds.
         */
        public double idealWireNs()
        {
            return idealPayloadNs() * SimFabric.segmentWireLength() / 1460.0;
        }
    }

    /**
     * What a run showed.
     *
     * @param endNs        each flow's completion by flow (its DSCP less one), -1 if it did not complete.
     * @param intervalNs   the throughput's interval.
     * @param gbps         each flow's throughput per interval, [flow][interval].
     * @param idealWireNs  the ideal last completion.
     */
    public record Result(long[] endNs, long intervalNs, double[][] gbps, double idealWireNs)
    {
        /**
         * The last completion.
         *
         * @return nanoseconds, -1 if a flow did not complete.
         */
        public long lastEndNs()
        {
            long last = 0;
            for (final long end : endNs)
            {
                if (end < 0)
                {
                    return -1;
                }
                last = Math.max(last, end);
            }
            return last;
        }
    }

    private FlowSwitchingExperiment()
    {
    }

    /**
     * The source of each flow: spread over the hosts, away from the destination, host 0.
     *
     * @param hosts the fabric's hosts.
     * @param flows how many flows.
     * @return host indices.
     */
    static int[] sources(final int hosts, final int flows)
    {
        final int[] sources = new int[flows];
        final int step = Math.max(1, (hosts - 1) / flows);
        for (int f = 0; f < flows; f++)
        {
            sources[f] = 1 + f * step;
        }
        return sources;
    }

    /**
     * Run the flows and write the results.
     *
     * @param config   what to run.
     * @param out      the results directory.
     * @param progress where to report.
     * @return the run's completions and throughputs.
     * @throws IOException if the results cannot be written.
     */
    public static Result run(final Config config, final Path out, final PrintStream progress) throws IOException
    {
        final SimFabric fabric = config.fabric().withQueues("pfabric", config.fabric().bufferLength());
        final List<String> names = SimRun.hostNames(fabric);
        final int[] sources = sources(fabric.hosts(), config.flows());
        final List<WorkloadTrace.FlowSpec> trace = new ArrayList<>();
        for (int f = 0; f < config.flows(); f++)
        {
            trace.add(new WorkloadTrace.FlowSpec(f, sources[f], 0, config.sizeBytes(), 0, f + 1));
        }
        Files.createDirectories(out);
        TraceFile.write(out.resolve("trace.csv"), trace, names);
        final long limitNs = (long)(4 * config.idealWireNs()) + 10_000_000L;
        final int intervals = (int)Math.min(1_000_000, limitNs / config.intervalNs() + 1);
        final ReceiverThroughputMeter meter = new ReceiverThroughputMeter(fabric, config.intervalNs(), intervals);
        progress.printf(Locale.ROOT, "sim flow-switching: %d flows of %s to h1 from %s; %s%n", config.flows(),
            MicroExperiments.sizeLabel(config.sizeBytes()), sourceNames(sources, names),
            config.settings().describe());
        final Path log = out.resolve("fct-" + config.scheme() + ".csv");
        final SimRun.Outcome outcome = SimRun.run(fabric, config.settings(), config.scheme(), config.scheme(), trace,
            config.seed(), log, progress, meter, false, null, limitNs);
        final List<FctLogReader.Row> rows = FctLogReader.read(log);
        final long[] endNs = new long[config.flows()];
        final int[] timeouts = new int[config.flows()];
        long lastNs = 0;
        for (final FctLogReader.Row row : rows)
        {
            endNs[row.dscp() - 1] = row.endNs();
            timeouts[row.dscp() - 1] = row.timeouts();
            lastNs = Math.max(lastNs, row.endNs());
        }
        final int shown = (int)Math.min(intervals, lastNs / config.intervalNs() + 2);
        final double[][] gbps = new double[config.flows()][shown];
        for (int f = 0; f < config.flows(); f++)
        {
            for (int i = 0; i < shown; i++)
            {
                gbps[f][i] = meter.payloadBytes(f + 1, i) * 8.0 / config.intervalNs();
            }
        }
        final Result result = new Result(endNs, config.intervalNs(), gbps, config.idealWireNs());
        write(config, out, result, sources, names, timeouts);
        progress.printf(Locale.ROOT, "sim flow-switching: last completion %.3f ms, ideal %.3f ms (%.3f ms of payload " +
            "alone); %.1f s CPU, %,d packets dropped%n", result.lastEndNs() / 1e6, config.idealWireNs() / 1e6,
            config.idealPayloadNs() / 1e6, outcome.cpuNs() / 1e9, outcome.dropped());
        return result;
    }

    private static String sourceNames(final int[] sources, final List<String> names)
    {
        final List<String> list = new ArrayList<>();
        for (final int source : sources)
        {
            list.add(names.get(source));
        }
        return String.join(",", list);
    }

    private static void write(final Config config, final Path out, final Result result, final int[] sources,
        final List<String> names, final int[] timeouts) throws IOException
    {
        try (PrintWriter writer = new PrintWriter(Files.newBufferedWriter(out.resolve("flow-switching.csv"))))
        {
            writer.println(CSV_HEADER);
            for (int i = 0; i < result.gbps()[0].length; i++)
            {
                for (int f = 0; f < config.flows(); f++)
                {
                    writer.printf(Locale.ROOT, "%.3f,%d,%.4f%n", i * config.intervalNs() / 1e6, f + 1,
                        result.gbps()[f][i]);
                }
            }
        }
        try (PrintWriter writer = new PrintWriter(Files.newBufferedWriter(out.resolve(
            "flow-switching-summary.csv"))))
        {
            writer.println(SUMMARY_HEADER);
            for (int f = 0; f < config.flows(); f++)
            {
                writer.printf(Locale.ROOT, "%d,%s,%d,%.4f,%d,%.4f,%.4f%n", f + 1, names.get(sources[f]),
                    config.sizeBytes(), result.endNs()[f] < 0 ? -1.0 : result.endNs()[f] / 1e6, timeouts[f],
                    config.idealPayloadNs() / 1e6, config.idealWireNs() / 1e6);
            }
        }
        final XYChart chart = new XYChartBuilder().width(1000).height(500).title(String.format(Locale.ROOT,
            "flow switching: %d flows of %s to one host, %s; last done %.2f ms, ideal %.2f ms", config.flows(),
            MicroExperiments.sizeLabel(config.sizeBytes()), config.scheme(), result.lastEndNs() / 1e6,
            config.idealWireNs() / 1e6)).xAxisTitle("time (ms)").yAxisTitle("throughput (Gb/s)").build();
        final double[] times = new double[result.gbps()[0].length];
        for (int i = 0; i < times.length; i++)
        {
            times[i] = i * config.intervalNs() / 1e6;
        }
        for (int f = 0; f < config.flows(); f++)
        {
            chart.addSeries("flow " + (f + 1), times, result.gbps()[f]).setMarker(SeriesMarkers.NONE);
        }
        MicroExperiments.writePng(chart, out.resolve("flow-switching.png"));
    }

    /**
     * Print the completions.
     *
     * @param out    where.
     * @param config what ran.
     * @param result what it showed.
     */
    public static void print(final PrintStream out, final Config config, final Result result)
    {
        for (int f = 0; f < config.flows(); f++)
        {
            out.printf(Locale.ROOT, "flow %d: done at %.3f ms%n", f + 1, result.endNs()[f] / 1e6);
        }
        out.printf(Locale.ROOT, "last completion %.3f ms; ideal %.3f ms (%.3f ms of payload at the line rate)%n",
            result.lastEndNs() / 1e6, config.idealWireNs() / 1e6, config.idealPayloadNs() / 1e6);
    }
}
