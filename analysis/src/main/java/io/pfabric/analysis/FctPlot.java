package io.pfabric.analysis;

import io.pfabric.analysis.FctAnalysis;
import io.pfabric.analysis.ResultsTable;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * {@code fct-vs-load.png}: normalized FCT against load, one line per scheme, in five panels: the mean of small,
 * medium, large and all flows, and the 99th percentile of small flows.
 */
public final class FctPlot
{
    private static final int PANEL_WIDTH = 520;
    private static final int PANEL_HEIGHT = 380;
    private static final int COLUMNS = 3;

    /**
     * The legend's name for the marks of runs whose invariants broke.
     */
    public static final String BROKEN_SERIES = "invariants broken";

    private record Panel(String title, FctAnalysis.Bin bin, ToDoubleFunction<FctAnalysis.Summary> value)
    {
    }

    private static final List<Panel> PANELS = List.of(
        new Panel("(0, 100KB]: mean", FctAnalysis.Bin.SMALL, FctAnalysis.Summary::mean),
        new Panel("(0, 100KB]: 99th percentile", FctAnalysis.Bin.SMALL, FctAnalysis.Summary::p99),
        new Panel("(100KB, 10MB]: mean", FctAnalysis.Bin.MEDIUM, FctAnalysis.Summary::mean),
        new Panel("(10MB, inf): mean", FctAnalysis.Bin.LARGE, FctAnalysis.Summary::mean),
        new Panel("all flows: mean", FctAnalysis.Bin.ALL, FctAnalysis.Summary::mean));

    private FctPlot()
    {
    }

    /**
     * Draw the summary and write it as a PNG.
     *
     * @param lines the summary table; lines without a numeric load are left out.
     * @param title above the panels, e.g. the workload and fabric.
     * @param file  where to write.
     * @throws IOException if it cannot be written.
     */
    public static void write(final List<ResultsTable.Line> lines, final String title, final Path file)
        throws IOException
    {
        write(lines, title, file, Set.of());
    }

    /**
     * Draw the summary with the points of runs whose invariants broke marked by a red cross (series
     * {@value #BROKEN_SERIES}), and write it as a PNG.
     *
     * @param lines  the summary table; lines without a numeric load are left out.
     * @param title  above the panels, e.g. the workload and fabric.
     * @param file   where to write.
     * @param broken the runs to mark, as {@code scheme,load}.
     * @throws IOException if it cannot be written.
     */
    public static void write(final List<ResultsTable.Line> lines, final String title, final Path file,
        final Set<String> broken) throws IOException
    {
        final Set<String> schemes = new LinkedHashSet<>();
        for (final ResultsTable.Line line : lines)
        {
            schemes.add(line.scheme());
        }
        final List<XYChart> charts = new ArrayList<>();
        for (final Panel panel : PANELS)
        {
            charts.add(chart(panel, schemes, lines, broken));
        }
        ChartGrid.write(charts, COLUMNS, PANEL_WIDTH, PANEL_HEIGHT, title, file);
    }

    private static XYChart chart(final Panel panel, final Set<String> schemes, final List<ResultsTable.Line> lines,
        final Set<String> broken)
    {
        final XYChart chart = new XYChartBuilder().width(PANEL_WIDTH).height(PANEL_HEIGHT).title(panel.title())
            .xAxisTitle("load").yAxisTitle("normalized FCT").build();
        chart.getStyler().setLegendVisible(true);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        for (final String scheme : schemes)
        {
            final List<Double> loads = new ArrayList<>();
            final List<Double> values = new ArrayList<>();
            for (final ResultsTable.Line line : lines)
            {
                final double value = panel.value().applyAsDouble(line.summary());
                if (line.scheme().equals(scheme) && line.summary().bin() == panel.bin() &&
                    line.load().matches("[0-9.]+") && !Double.isNaN(value))
                {
                    loads.add(Double.parseDouble(line.load()));
                    values.add(value);
                }
            }
            if (!loads.isEmpty())
            {
                chart.addSeries(scheme, loads, values).setMarker(SeriesMarkers.CIRCLE);
            }
        }
        final List<Double> brokenLoads = new ArrayList<>();
        final List<Double> brokenValues = new ArrayList<>();
        for (final ResultsTable.Line line : lines)
        {
            final double value = panel.value().applyAsDouble(line.summary());
            if (broken.contains(line.scheme() + "," + line.load()) && line.summary().bin() == panel.bin() &&
                line.load().matches("[0-9.]+") && !Double.isNaN(value))
            {
                brokenLoads.add(Double.parseDouble(line.load()));
                brokenValues.add(value);
            }
        }
        if (!brokenLoads.isEmpty())
        {
            final XYSeries marks = chart.addSeries(BROKEN_SERIES, brokenLoads, brokenValues);
            marks.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            marks.setMarker(SeriesMarkers.CROSS);
            marks.setMarkerColor(Color.RED);
        }
        return chart;
    }
}
