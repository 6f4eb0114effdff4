package io.pfabric.cli;

import io.pfabric.analysis.ChartGrid;
import io.pfabric.experiment.ExperimentSettings;
import io.pfabric.sim.PacketSizeMix;
import io.pfabric.sim.SimFabric;
import io.pfabric.sim.SimRun;
import io.pfabric.sim.SyncRun;
import io.pfabric.sim.SyncWorkload;
import io.pfabric.common.config.Quantities;
import io.pfabric.common.control.Timeslots;
import io.pfabric.hostd.workload.TraceFile;
import io.pfabric.hostd.workload.WorkloadTrace;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

import java.awt.Color;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The sync-versus-async comparison (Sviridov, Bianco, Giaccone, Globecom 2018) from {@code pfabric sim}: every
 * traffic pattern, packet-size mix, load and scheme, the same trace per (pattern, mix, load) for every scheme;
 * writes {@code summary.csv}, one FCT log per run and one plot per pattern and mix.
 */
final class SyncSweep
{
    private static final String HEADER = "traffic,packet_sizes,load,scheme,flows,incomplete,throughput,goodput," +
        "nfct_mean,nfct_cv,jain,nic_queue_bytes,leaf_queue_bytes,spine_queue_bytes,dropped,slot_use,wall_s";

    private record Row(String traffic, String mix, double load, SyncRun.Metrics metrics)
    {
    }

    private SyncSweep()
    {
    }

    static boolean applies(final SimOptions options, final List<String> schemes)
    {
        if (!options.packetSizes.isEmpty() || !options.traffic.isEmpty())
        {
            return true;
        }
        for (final String scheme : schemes)
        {
            if (SyncRun.SCHEMES.contains(scheme) && !"pfabric".equals(scheme))
            {
                return true;
            }
        }
        return false;
    }

    static int run(final SimOptions options, final List<Double> loads, final List<String> schemes,
        final String format, final PrintStream out, final PrintStream progress) throws IOException
    {
        if (null == options.out)
        {
            throw new IllegalArgumentException("give --out DIR");
        }
        for (final String scheme : schemes)
        {
            if (!SyncRun.SCHEMES.contains(scheme))
            {
                throw new IllegalArgumentException("the comparison runs " + SyncRun.SCHEMES + ", not '" + scheme + "'");
            }
        }
        final SimFabric fabric = options.fabric();
        final long slotNs = Timeslots.slotNs(fabric.edgeRateBitsPerSec());
        final long delayNs = options.controlDelay.isEmpty() ? slotNs : Quantities.parseNanos(options.controlDelay);
        final long intervalNs = options.asyInterval.isEmpty() ? slotNs : Quantities.parseNanos(options.asyInterval);
        final List<String> traffics = list(options.traffic, "uniform");
        final List<String> mixes = list(options.packetSizes, "fixed");
        Files.createDirectories(options.out);
        final List<String> names = SimRun.hostNames(fabric);
        final List<Row> rows = new ArrayList<>();
        final int runs = traffics.size() * mixes.size() * loads.size() * schemes.size();
        int run = 0;
        for (final String trafficName : traffics)
        {
            final SyncWorkload.Traffic traffic = SyncWorkload.Traffic.byName(trafficName);
            for (final String mixName : mixes)
            {
                final PacketSizeMix mix = PacketSizeMix.byName(mixName);
                for (final double load : loads)
                {
                    final String label = traffic.label() + "-" + mix.label() + "-" + ExperimentSettings.loadLabel(load);
                    final List<WorkloadTrace.FlowSpec> trace = SyncWorkload.generate(fabric.hosts(), load,
                        fabric.edgeRateBitsPerSec(), mix, traffic, options.fanIn, options.seed, (int)options.flows);
                    TraceFile.write(options.out.resolve("trace-" + label + ".csv"), trace, names);
                    for (final String scheme : schemes)
                    {
                        run++;
                        progress.printf(Locale.ROOT, "sim: run %d of %d: %s, %s traffic, %s packets, load %.2f, " +
                            "%,d flows on %s%n", run, runs, scheme, traffic.label(), mix.label(), load, trace.size(),
                            options.topo());
                        final SyncRun.Metrics metrics = SyncRun.run(fabric, scheme, trace, mix, options.seed, delayNs,
                            intervalNs, options.out.resolve("fct-" + scheme + "-" + label + ".csv"));
                        progress.printf(Locale.ROOT, "sim: %.1f s wall, %,d events, %,d dropped, %d incomplete%n",
                            metrics.wallNs() / 1e9, metrics.events(), metrics.dropped(), metrics.incomplete());
                        rows.add(new Row(traffic.label(), mix.label(), load, metrics));
                    }
                }
                if (loads.size() > 1)
                {
                    plot(rows, traffic.label(), mix.label(), String.format(Locale.ROOT,
                        "%s traffic, %s packets, %s, %,d flows per point, control delay %.3f us",
                        traffic.label(), mix.label(), options.topo(), options.flows, delayNs / 1e3),
                        options.out.resolve("sync-" + traffic.label() + "-" + mix.label() + ".png"));
                }
            }
        }
        final List<String> csv = new ArrayList<>();
        csv.add(HEADER);
        for (final Row row : rows)
        {
            csv.add(csvLine(row));
        }
        Files.write(options.out.resolve("summary.csv"), csv);
        if (OutputFormats.isCsv(format))
        {
            csv.forEach(out::println);
        }
        else
        {
            out.printf(Locale.ROOT, "%-8s %-8s %5s %-9s %6s %5s %6s %6s %8s %6s %6s %9s %9s %9s %6s %6s%n",
                "traffic", "sizes", "load", "scheme", "flows", "inc", "thru", "gput", "nfct", "cv", "jain", "nic_B",
                "leaf_B", "spine_B", "drops", "slots");
            for (final Row row : rows)
            {
                final SyncRun.Metrics m = row.metrics();
                out.printf(Locale.ROOT, "%-8s %-8s %5.2f %-9s %6d %5d %6.3f %6.3f %8.2f %6.2f %6.3f %9.0f %9.0f " +
                    "%9.0f %6d %6.3f%n", row.traffic(), row.mix(), row.load(), m.scheme(), m.flows(), m.incomplete(),
                    m.throughput(), m.goodputShare(), m.meanNormalizedFct(), m.cvNormalizedFct(), m.jain(),
                    m.nicQueueBytes(), m.leafQueueBytes(), m.spineQueueBytes(), m.dropped(), m.slotUse());
            }
        }
        return 0;
    }

    private static List<String> list(final String value, final String fallback)
    {
        return value.isEmpty() ? List.of(fallback) : Arrays.stream(value.split(",")).map(String::trim).toList();
    }

    private static String csvLine(final Row row)
    {
        final SyncRun.Metrics m = row.metrics();
        return String.format(Locale.ROOT, "%s,%s,%.2f,%s,%d,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.1f,%.1f,%.1f,%d,%.4f,%.1f",
            row.traffic(), row.mix(), row.load(), m.scheme(), m.flows(), m.incomplete(), m.throughput(),
            m.goodputShare(), m.meanNormalizedFct(), m.cvNormalizedFct(), m.jain(), m.nicQueueBytes(),
            m.leafQueueBytes(), m.spineQueueBytes(), m.dropped(), m.slotUse(), m.wallNs() / 1e9);
    }

    private record Panel(String title, String axis, ToDoubleFunction<SyncRun.Metrics> value)
    {
    }

    private static final List<Panel> PANELS = List.of(
        new Panel("throughput (completed / arrived bytes, steady window)", "throughput", SyncRun.Metrics::throughput),
        new Panel("normalized FCT: mean", "normalized FCT", SyncRun.Metrics::meanNormalizedFct),
        new Panel("normalized FCT: coefficient of variation", "CV", SyncRun.Metrics::cvNormalizedFct),
        new Panel("Jain's index over per-flow throughput", "Jain", SyncRun.Metrics::jain),
        new Panel("mean queue per leaf port", "bytes", SyncRun.Metrics::leafQueueBytes),
        new Panel("mean queue per host NIC", "bytes", SyncRun.Metrics::nicQueueBytes));

    private static void plot(final List<Row> rows, final String traffic, final String mix, final String title,
        final Path file) throws IOException
    {
        final int width = 480;
        final int height = 340;
        final List<XYChart> charts = new ArrayList<>();
        for (final Panel panel : PANELS)
        {
            final XYChart chart = new XYChartBuilder().width(width).height(height).title(panel.title())
                .xAxisTitle("load").yAxisTitle(panel.axis()).build();
            chart.getStyler().setChartBackgroundColor(Color.WHITE);
            for (final String scheme : SyncRun.SCHEMES)
            {
                final List<Double> x = new ArrayList<>();
                final List<Double> y = new ArrayList<>();
                for (final Row row : rows)
                {
                    if (row.traffic().equals(traffic) && row.mix().equals(mix) &&
                        row.metrics().scheme().equals(scheme))
                    {
                        x.add(row.load());
                        y.add(panel.value().applyAsDouble(row.metrics()));
                    }
                }
                if (!x.isEmpty())
                {
                    chart.addSeries(scheme, x, y);
                }
            }
            charts.add(chart);
        }
        ChartGrid.write(charts, 3, width, height, title, file);
    }
}
