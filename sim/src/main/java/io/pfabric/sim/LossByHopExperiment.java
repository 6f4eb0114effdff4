package io.pfabric.sim;

import io.pfabric.hostd.workload.FlowSizeDistribution;
import io.pfabric.hostd.workload.TraceFile;
import io.pfabric.hostd.workload.WorkloadTrace;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where packets are lost (the pFabric paper's Fig 13): one trace at one load, the fraction of each flow-size bin's data
 * packets dropped at the source host's NIC, in the core (switch-to-switch ports) and at the last hop (a switch's port
 * down to the destination), counted by a {@link HopLossMeter}. Writes {@code DIR/trace-LOAD.csv},
 * {@code DIR/fct-SCHEME-LOAD.csv}, {@code DIR/loss-by-hop.csv} ({@link #CSV_HEADER}) and {@code DIR/loss-by-hop.png}.
 * Deterministic for a seed.
 */
public final class LossByHopExperiment
{
    /**
     * The columns of {@code loss-by-hop.csv}: a bin's bounds (upper inclusive, {@code inf} for the last), its flows in
     * the trace, its data packets sent, those dropped per role and the loss rates (dropped over sent).
     */
    public static final String CSV_HEADER = "bin,lower_bytes,upper_bytes,flows,sent_packets,nic_dropped," +
        "core_dropped,last_hop_dropped,nic_loss,core_loss,last_hop_loss";

    /**
     * The schemes whose loss it measures: hostd's transport, whose headers carry the flow size.
     */
    public static final List<String> SCHEMES = List.of("pfabric", "linerate");

    /**
     * The default bins' edges: decades from 10 KB to 10 MB.
     */
    public static final List<Long> DEFAULT_EDGES_BYTES = List.of(10_000L, 100_000L, 1_000_000L, 10_000_000L);

    /**
     * What to run.
     *
     * @param fabric     the fabric.
     * @param settings   the schemes' settings on it.
     * @param workload   the flow sizes.
     * @param load       offered load per host link, in (0, 1).
     * @param flows      flows in the trace.
     * @param seed       of the trace and the spraying.
     * @param scheme     pfabric or linerate.
     * @param edgesBytes the flow-size bins' edges, increasing.
     */
    public record Config(SimFabric fabric, SimSettings settings, FlowSizeDistribution workload, double load,
        long flows, long seed, String scheme, List<Long> edgesBytes)
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
            MicroExperiments.requireScheme("--scheme", scheme, SCHEMES);
            edgesBytes = List.copyOf(edgesBytes);
            try
            {
                new HopLossMeter(edgesBytes);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IllegalArgumentException("--bins: the edges must be positive and increasing, not " +
                    edgesBytes, ex);
            }
        }
    }

    /**
     * One bin's losses.
     *
     * @param lowerBytes   exclusive.
     * @param upperBytes   inclusive, {@link Long#MAX_VALUE} for the last bin.
     * @param flows        flows of the trace in the bin.
     * @param sentPackets  their data packets sent.
     * @param nicDropped   of those, dropped at source NICs.
     * @param coreDropped  dropped at switch-to-switch ports.
     * @param lastHopDropped dropped at ports down to hosts.
     */
    public record Row(long lowerBytes, long upperBytes, long flows, long sentPackets, long nicDropped,
        long coreDropped, long lastHopDropped)
    {
        /**
         * The bin as a label.
         *
         * @return such as {@code 10KB-100KB}.
         */
        public String label()
        {
            return MicroExperiments.sizeLabel(lowerBytes) + "-" + MicroExperiments.sizeLabel(upperBytes);
        }

        /**
         * The loss rate at a role.
         *
         * @param role the role.
         * @return dropped there over sent.
         */
        public double loss(final PortRole role)
        {
            final long dropped = switch (role)
            {
                case NIC -> nicDropped;
                case CORE -> coreDropped;
                case LAST_HOP -> lastHopDropped;
            };
            return 0 == sentPackets ? 0 : (double)dropped / sentPackets;
        }
    }

    private LossByHopExperiment()
    {
    }

    /**
     * Run the trace and write the results.
     *
     * @param config   what to run.
     * @param out      the results directory.
     * @param progress where to report.
     * @return one row per bin, smallest first.
     * @throws IOException if the results cannot be written.
     */
    public static List<Row> run(final Config config, final Path out, final PrintStream progress) throws IOException
    {
        final SimFabric fabric = config.fabric();
        final List<String> names = SimRun.hostNames(fabric);
        final List<WorkloadTrace.FlowSpec> trace = WorkloadTrace.generate(fabric.hosts(), config.load(),
            fabric.edgeRateBitsPerSec(), config.workload(), config.seed(), config.flows(), 0);
        final String load = MicroExperiments.loadLabel(config.load());
        Files.createDirectories(out);
        TraceFile.write(out.resolve("trace-" + load + ".csv"), trace, names);
        final HopLossMeter meter = new HopLossMeter(config.edgesBytes());
        progress.printf(Locale.ROOT, "sim loss-by-hop: %s at load %s, %,d flows of %s; %s%n", config.scheme(), load,
            trace.size(), config.workload().name(), config.settings().describe());
        final SimRun.Outcome outcome = SimRun.run(fabric, config.settings(), config.scheme(), config.scheme(), trace,
            config.seed(), out.resolve("fct-" + config.scheme() + "-" + load + ".csv"), progress, null, false,
            simulator -> simulator.hopLossMeter(meter), SimRun.LIMIT_NS);
        final long[] flows = new long[meter.bins()];
        for (final WorkloadTrace.FlowSpec flow : trace)
        {
            flows[meter.bin(flow.sizeBytes())]++;
        }
        final List<Row> rows = new ArrayList<>();
        for (int bin = 0; bin < meter.bins(); bin++)
        {
            rows.add(new Row(meter.lowerBytes(bin), meter.upperBytes(bin), flows[bin], meter.sentPackets(bin),
                meter.droppedPackets(PortRole.NIC, bin), meter.droppedPackets(PortRole.CORE, bin),
                meter.droppedPackets(PortRole.LAST_HOP, bin)));
        }
        writeCsv(out.resolve("loss-by-hop.csv"), rows);
        plot(rows, String.format(Locale.ROOT, "loss by hop: %s, %s at load %s, %,d flows", config.scheme(),
            config.workload().name(), load, trace.size()), out.resolve("loss-by-hop.png"));
        progress.printf(Locale.ROOT, "sim loss-by-hop: %.1f s CPU, %,d data packets sent, dropped %,d at NICs, " +
            "%,d in the core, %,d at the last hop; %d flows incomplete%n", outcome.cpuNs() / 1e9, meter.sentPackets(),
            meter.droppedPackets(PortRole.NIC), meter.droppedPackets(PortRole.CORE),
            meter.droppedPackets(PortRole.LAST_HOP), outcome.incomplete());
        return rows;
    }

    /**
     * Print the rows as a table.
     *
     * @param out  where.
     * @param rows the rows.
     */
    public static void print(final PrintStream out, final List<Row> rows)
    {
        out.printf(Locale.ROOT, "%-14s %8s %12s %10s %10s %10s%n", "flow size", "flows", "sent", "NIC", "core",
            "last hop");
        for (final Row row : rows)
        {
            out.printf(Locale.ROOT, "%-14s %8d %12d %9.4f%% %9.4f%% %9.4f%%%n", row.label(), row.flows(),
                row.sentPackets(), 100 * row.loss(PortRole.NIC), 100 * row.loss(PortRole.CORE),
                100 * row.loss(PortRole.LAST_HOP));
        }
    }

    private static void writeCsv(final Path file, final List<Row> rows) throws IOException
    {
        try (PrintWriter writer = new PrintWriter(Files.newBufferedWriter(file)))
        {
            writer.println(CSV_HEADER);
            for (final Row row : rows)
            {
                writer.printf(Locale.ROOT, "%s,%d,%s,%d,%d,%d,%d,%d,%.6f,%.6f,%.6f%n", row.label(), row.lowerBytes(),
                    Long.MAX_VALUE == row.upperBytes() ? "inf" : Long.toString(row.upperBytes()), row.flows(),
                    row.sentPackets(), row.nicDropped(), row.coreDropped(), row.lastHopDropped(),
                    row.loss(PortRole.NIC), row.loss(PortRole.CORE), row.loss(PortRole.LAST_HOP));
            }
        }
    }

    private static void plot(final List<Row> rows, final String title, final Path file) throws IOException
    {
        final CategoryChart chart = new CategoryChartBuilder().width(900).height(500).title(title)
            .xAxisTitle("flow size").yAxisTitle("loss rate (%)").build();
        final List<String> labels = rows.stream().map(Row::label).toList();
        for (final PortRole role : PortRole.values())
        {
            chart.addSeries(switch (role)
                {
                    case NIC -> "source NIC";
                    case CORE -> "core";
                    case LAST_HOP -> "last hop";
                }, labels, rows.stream().map(row -> 100 * row.loss(role)).toList());
        }
        MicroExperiments.writePng(chart, file);
    }
}
