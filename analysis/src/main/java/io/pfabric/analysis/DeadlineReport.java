package io.pfabric.analysis;

import io.pfabric.hostd.workload.FctLogReader;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;
import java.util.regex.Matcher;

/**
 * What the pFabric paper reports of its deadline runs (§5.4.2): application throughput, the fraction of the flows with
 * a deadline that met it (Fig 10), and the average normalized FCT of the other flows, those without one (Fig 11). A
 * flow that never completed missed its deadline; among the other flows it is counted apart and left out of the mean.
 */
public final class DeadlineReport
{
    /**
     * The header of {@code deadlines.csv}.
     */
    public static final String CSV_HEADER = "scheme,load,deadline_mean_us,flows,met,fraction_met";

    /**
     * The header of {@code deadlines-other-fct.csv}: the flows without a deadline in the same runs.
     */
    public static final String OTHER_CSV_HEADER =
        "scheme,load,deadline_mean_us,flows,incomplete,mean_normalized_fct";

    private static final int PANEL_WIDTH = 620;
    private static final int PANEL_HEIGHT = 420;

    /**
     * One run's figures.
     *
     * @param scheme              the scheme.
     * @param load                the load, as the runs name it.
     * @param deadlineMeanUs      the mean deadline of the run, in microseconds.
     * @param flows               flows with a deadline.
     * @param met                 of them, those that completed within it.
     * @param otherFlows          flows without a deadline.
     * @param otherIncomplete     of them, those that never completed.
     * @param otherMeanNormalized the mean normalized FCT of those that completed; NaN if none did.
     */
    public record Row(String scheme, String load, double deadlineMeanUs, int flows, int met, int otherFlows,
        int otherIncomplete, double otherMeanNormalized)
    {
        /**
         * Application throughput.
         *
         * @return met over flows; NaN without deadline flows.
         */
        public double fractionMet()
        {
            return 0 == flows ? Double.NaN : (double)met / flows;
        }
    }

    private DeadlineReport()
    {
    }

    /**
     * Summarize one run's FCT log.
     *
     * @param scheme         the scheme.
     * @param load           the load.
     * @param deadlineMeanUs the run's mean deadline.
     * @param rows           the log.
     * @param analysis       normalizes the other flows' FCTs.
     * @param hostIndex      maps a host name to its index for the base RTT.
     * @return the figures.
     */
    public static Row of(final String scheme, final String load, final double deadlineMeanUs,
        final List<FctLogReader.Row> rows, final FctAnalysis analysis, final ToIntFunction<String> hostIndex)
    {
        int flows = 0;
        int met = 0;
        int others = 0;
        int incomplete = 0;
        double sum = 0;
        for (final FctLogReader.Row row : rows)
        {
            if (row.hasDeadline())
            {
                flows++;
                met += row.metDeadline() ? 1 : 0;
            }
            else if (!row.isComplete())
            {
                others++;
                incomplete++;
            }
            else
            {
                others++;
                sum += analysis.normalized(hostIndex.applyAsInt(row.source()), hostIndex.applyAsInt(row.destination()),
                    row.sizeBytes(), row.fctNs());
            }
        }
        final int completed = others - incomplete;
        return new Row(scheme, load, deadlineMeanUs, flows, met, others, incomplete,
            0 == completed ? Double.NaN : sum / completed);
    }

    /**
     * Summarize every {@code fct-*.csv} of a directory whose flows carry deadlines, one row per log (a log names its
     * scheme and load as {@link ResultsTable#summarize} reads them). The log does not record the mean the deadlines
     * were drawn with, so a row's mean deadline is the mean of its flows' deadlines.
     *
     * @param directory the results.
     * @param analysis  normalizes the other flows' FCTs.
     * @param hostIndex maps a host name to its index for the base RTT.
     * @return the rows, by file name; empty if no flow has a deadline.
     * @throws IOException if a log cannot be read.
     */
    public static List<Row> summarize(final Path directory, final FctAnalysis analysis,
        final ToIntFunction<String> hostIndex) throws IOException
    {
        final List<Path> logs = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "fct-*.csv"))
        {
            files.forEach(logs::add);
        }
        logs.sort(null);
        final List<Row> rows = new ArrayList<>();
        for (final Path log : logs)
        {
            final List<FctLogReader.Row> flows = FctLogReader.read(log);
            final double meanDeadlineNs = flows.stream().filter(FctLogReader.Row::hasDeadline)
                .mapToLong(FctLogReader.Row::deadlineNs).average().orElse(Double.NaN);
            if (Double.isNaN(meanDeadlineNs))
            {
                continue;
            }
            final Matcher matcher = ResultsTable.FILE_NAME.matcher(log.getFileName().toString());
            final String load = matcher.matches() && null != matcher.group(2) ? matcher.group(2) : "-";
            final String scheme = flows.get(0).scheme();
            rows.add(of(scheme, load, meanDeadlineNs / 1e3, flows, analysis, hostIndex));
        }
        return rows;
    }

    /**
     * Write {@code deadlines.csv}: {@link #CSV_HEADER}.
     *
     * @param file where.
     * @param rows the runs.
     * @throws IOException if it cannot be written.
     */
    public static void writeCsv(final Path file, final List<Row> rows) throws IOException
    {
        try (BufferedWriter writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8))
        {
            writer.write(CSV_HEADER);
            writer.newLine();
            for (final Row row : rows)
            {
                writer.write(String.format(Locale.ROOT, "%s,%s,%s,%d,%d,%.4f", row.scheme(), row.load(),
                    number(row.deadlineMeanUs()), row.flows(), row.met(), row.fractionMet()));
                writer.newLine();
            }
        }
    }

    /**
     * Write {@code deadlines-other-fct.csv}: {@link #OTHER_CSV_HEADER}.
     *
     * @param file where.
     * @param rows the runs.
     * @throws IOException if it cannot be written.
     */
    public static void writeOtherCsv(final Path file, final List<Row> rows) throws IOException
    {
        try (BufferedWriter writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8))
        {
            writer.write(OTHER_CSV_HEADER);
            writer.newLine();
            for (final Row row : rows)
            {
                writer.write(String.format(Locale.ROOT, "%s,%s,%s,%d,%d,%.4f", row.scheme(), row.load(),
                    number(row.deadlineMeanUs()), row.otherFlows(), row.otherIncomplete(),
                    row.otherMeanNormalized()));
                writer.newLine();
            }
        }
    }

    /**
     * Print the runs as a table.
     *
     * @param out  where.
     * @param rows the runs.
     */
    public static void print(final PrintStream out, final List<Row> rows)
    {
        out.printf(Locale.ROOT, "%-14s %5s %12s %8s %8s %12s %12s %14s%n", "scheme", "load", "deadline_us",
            "flows", "met", "fraction_met", "other_flows", "other_mean_fct");
        for (final Row row : rows)
        {
            out.printf(Locale.ROOT, "%-14s %5s %12s %8d %8d %12.4f %12d %14.3f%n", row.scheme(), row.load(),
                number(row.deadlineMeanUs()), row.flows(), row.met(), row.fractionMet(), row.otherFlows(),
                row.otherMeanNormalized());
        }
    }

    /**
     * Draw Figs 10 and 11 side by side: the fraction of deadline flows that met their deadline, and the other flows'
     * mean normalized FCT, against the mean deadline (log scale), one line per scheme.
     *
     * @param rows  the runs.
     * @param title above the panels.
     * @param file  where to write the PNG.
     * @throws IOException if it cannot be written.
     */
    public static void plot(final List<Row> rows, final String title, final Path file) throws IOException
    {
        final Set<String> schemes = new LinkedHashSet<>();
        for (final Row row : rows)
        {
            schemes.add(row.scheme());
        }
        final List<XYChart> charts = List.of(
            chart("application throughput (Fig 10)", "fraction of deadlines met", schemes, rows, Row::fractionMet),
            chart("flows without deadlines (Fig 11)", "mean normalized FCT", schemes, rows,
                Row::otherMeanNormalized));
        ChartGrid.write(charts, 2, PANEL_WIDTH, PANEL_HEIGHT, title, file);
    }

    private static XYChart chart(final String title, final String yTitle, final Set<String> schemes,
        final List<Row> rows, final ToDoubleFunction<Row> value)
    {
        final XYChart chart = new XYChartBuilder().width(PANEL_WIDTH).height(PANEL_HEIGHT).title(title)
            .xAxisTitle("mean deadline (us)").yAxisTitle(yTitle).build();
        chart.getStyler().setLegendVisible(true);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setXAxisLogarithmic(true);
        for (final String scheme : schemes)
        {
            final List<Double> means = new ArrayList<>();
            final List<Double> values = new ArrayList<>();
            for (final Row row : rows)
            {
                final double y = value.applyAsDouble(row);
                if (row.scheme().equals(scheme) && !Double.isNaN(y))
                {
                    means.add(row.deadlineMeanUs());
                    values.add(y);
                }
            }
            if (!means.isEmpty())
            {
                chart.addSeries(scheme, means, values).setMarker(SeriesMarkers.CIRCLE);
            }
        }
        return chart;
    }

    private static String number(final double value)
    {
        return value == Math.rint(value) ? Long.toString((long)value) : String.format(Locale.ROOT, "%.3f", value);
    }
}
