package io.pfabric.analysis;

import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code classes.png}: traffic classes sharing a fabric. Per scheme, the receivers' throughput of each class against
 * time; each class's share of the delivered bytes against time, every scheme in one panel, with each class's share
 * of the weights; per class, the distribution of its small flows' normalized FCT under every scheme.
 */
public final class ClassPlot
{
    private static final int PANEL_WIDTH = 560;
    private static final int PANEL_HEIGHT = 400;
    private static final int COLUMNS = 3;

    /**
     * One class's throughput over time under one scheme.
     *
     * @param scheme        the scheme.
     * @param label         the class, such as {@code dscp0 websearch}.
     * @param gbitsPerSec   the receivers' throughput in each bin.
     * @param share         the class's share of the bytes delivered in each bin.
     */
    public record Throughput(String scheme, String label, double[] gbitsPerSec, double[] share)
    {
    }

    /**
     * One class's small flows under one scheme.
     *
     * @param label      the class.
     * @param scheme     the scheme.
     * @param normalized the flows' normalized FCTs, ascending.
     */
    public record SmallFlows(String label, String scheme, double[] normalized)
    {
    }

    private ClassPlot()
    {
    }

    /**
     * Draw and write the plot.
     *
     * @param throughputs  every scheme's classes over the same bins.
     * @param binMs        the bins' width.
     * @param weightShares each class's share of the weights, by label.
     * @param smallFlows   every class's small flows under every scheme, classes in order.
     * @param title        above the panels.
     * @param file         where to write.
     * @throws IOException if it cannot be written.
     */
    public static void write(final List<Throughput> throughputs, final double binMs,
        final Map<String, Double> weightShares, final List<SmallFlows> smallFlows, final String title,
        final Path file) throws IOException
    {
        final List<XYChart> charts = new ArrayList<>();
        final List<String> schemes = throughputs.stream().map(Throughput::scheme).distinct().toList();
        for (final String scheme : schemes)
        {
            final XYChart chart = chart("receivers' throughput, " + scheme, "time (ms)", "Gb/s, all receivers");
            chart.getStyler().setXAxisMin(0.0);
            for (final Throughput throughput : throughputs)
            {
                if (throughput.scheme().equals(scheme))
                {
                    series(chart, throughput.label(), binMs, throughput.gbitsPerSec());
                }
            }
            charts.add(chart);
        }
        final XYChart shares = chart("share of bytes delivered", "time (ms)", "share");
        for (final Throughput throughput : throughputs)
        {
            series(shares, throughput.scheme() + " " + throughput.label(), binMs, throughput.share());
        }
        final int bins = throughputs.isEmpty() ? 0 : throughputs.get(0).share().length;
        for (final Map.Entry<String, Double> weight : weightShares.entrySet())
        {
            shares.addSeries("weight " + weight.getKey(), new double[] { 0, bins * binMs },
                new double[] { weight.getValue(), weight.getValue() }).setMarker(SeriesMarkers.NONE);
        }
        charts.add(shares);
        final List<String> labels = smallFlows.stream().map(SmallFlows::label).distinct().toList();
        for (final String label : labels)
        {
            final XYChart chart = chart("(0, 100KB] of " + label + ": CDF", "normalized FCT", "fraction of flows");
            chart.getStyler().setXAxisLogarithmic(true);
            for (final SmallFlows flows : smallFlows)
            {
                if (flows.label().equals(label) && flows.normalized().length > 0)
                {
                    final double[] values = flows.normalized();
                    final double[] fractions = new double[values.length];
                    for (int i = 0; i < values.length; i++)
                    {
                        fractions[i] = (i + 1.0) / values.length;
                    }
                    chart.addSeries(flows.scheme(), values, fractions).setMarker(SeriesMarkers.NONE);
                }
            }
            charts.add(chart);
        }
        ChartGrid.write(charts, COLUMNS, PANEL_WIDTH, PANEL_HEIGHT, title, file);
    }

    private static XYChart chart(final String title, final String xTitle, final String yTitle)
    {
        final XYChart chart = new XYChartBuilder().width(PANEL_WIDTH).height(PANEL_HEIGHT).title(title)
            .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        chart.getStyler().setLegendVisible(true);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setXAxisDecimalPattern("#,##0.##");
        chart.getStyler().setYAxisDecimalPattern("#,##0.##");
        return chart;
    }

    private static void series(final XYChart chart, final String name, final double binMs, final double[] values)
    {
        final double[] times = new double[values.length];
        for (int i = 0; i < values.length; i++)
        {
            times[i] = (i + 0.5) * binMs;
        }
        chart.addSeries(name, times, values).setMarker(SeriesMarkers.NONE);
    }
}
