package io.pfabric.analysis;

import io.pfabric.hostd.workload.FlowSizeDistribution;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What {@link StrictQueueModel} says, as text for {@code pfabric thresholds} and as the pFabric paper's Figs 15 and 16:
 * the normalized FCT against the threshold of two queues, and the best threshold against the load.
 */
public final class StrictQueueModelReport
{
    /**
     * Loads of the curves of Fig 15.
     */
    public static final double[] FIG15_LOADS = { 0.2, 0.4, 0.6, 0.8 };

    private static final int PANEL_WIDTH = 560;
    private static final int PANEL_HEIGHT = 420;

    private StrictQueueModelReport()
    {
    }

    /**
     * The thresholds and predicted FCTs for one setting, as {@code pfabric thresholds} prints them.
     *
     * @param sizes      the workload.
     * @param load       offered load, in [0, 1).
     * @param queueCount N, 1 to 8.
     * @param equal      split the flow-size range equally instead of asking the model for the best thresholds.
     * @param csv        one header line and one data line instead of text.
     * @return the lines.
     */
    public static String describe(final FlowSizeDistribution sizes, final double load, final int queueCount,
        final boolean equal, final boolean csv)
    {
        final StrictQueueModel model = new StrictQueueModel(sizes.packetProbabilities());
        final StrictQueueModel.Prediction prediction = equal ?
            model.predict(load, model.equalSplit(queueCount)) : model.optimal(load, queueCount);
        final StrictQueueModel.Prediction fifo = model.predict(load, new long[0]);
        final String thresholds = join(prediction.thresholdsBytes(), csv ? ";" : ",");
        if (csv)
        {
            return "workload,load,queues,split,thresholds_bytes,overall,small_0_100KB,large_10MB_inf,fifo_overall\n" +
                String.format(Locale.ROOT, "%s,%.3f,%d,%s,%s,%.4f,%.4f,%.4f,%.4f%n", sizes.name(), load, queueCount,
                    equal ? "equal" : "model", thresholds, prediction.overall(), prediction.small(),
                    prediction.large(), fifo.overall());
        }
        return String.format(Locale.ROOT, "%s at load %.2f on %d strict-priority queue%s, thresholds %s%n",
            sizes.name(), load, queueCount, 1 == queueCount ? "" : "s",
            equal ? "splitting the flow-size range equally" : "minimizing the model's mean normalized FCT") +
            String.format(Locale.ROOT, "thresholds (bytes of remaining flow size; below the first, the most urgent " +
                "queue): %s%n", thresholds.isEmpty() ? "none" : thresholds) +
            String.format(Locale.ROOT, "predicted normalized FCT (M/G/1, pFabric paper §6.1): all flows %.3f, " +
                "(0, 100 KB] %.3f, (10 MB, inf) %.3f%n", prediction.overall(), prediction.small(),
                prediction.large()) +
            String.format(Locale.ROOT, "one FIFO queue at this load: all flows %.3f%n", fifo.overall());
    }

    /**
     * Write Figs 15 and 16 of the model: {@code fig15.csv} and {@code fig15.png} (two queues, normalized FCT of all,
     * small and large flows against the threshold, one curve per load in {@link #FIG15_LOADS}), {@code fig16.csv}
     * and {@code fig16.png} (the best thresholds of 2, 4 and 8 queues, and their predicted FCT beside one FIFO's,
     * against the load, 0.1 to 0.9).
     *
     * @param sizes the workload.
     * @param dir   where to write; created if missing.
     * @throws IOException if a file cannot be written.
     */
    public static void writeFigures(final FlowSizeDistribution sizes, final Path dir) throws IOException
    {
        Files.createDirectories(dir);
        final StrictQueueModel model = new StrictQueueModel(sizes.packetProbabilities());
        final long[] grid = model.candidateGrid();

        final StringBuilder fig15 = new StringBuilder("load,threshold_bytes,overall,small_0_100KB,large_10MB_inf\n");
        final List<XYChart> fig15Charts = new ArrayList<>();
        final String[] titles = { "all flows", "(0, 100 KB]", "(10 MB, inf)" };
        for (final String title : titles)
        {
            final boolean large = titles[2].equals(title);
            final XYChart chart = chart(title + ": normalized FCT, 2 queues", "threshold (KB, log)",
                large ? "normalized FCT" : "normalized FCT (log)", true);
            chart.getStyler().setYAxisLogarithmic(!large);
            fig15Charts.add(chart);
        }
        for (final double load : FIG15_LOADS)
        {
            final List<List<Double>> ys = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
            final List<Double> xs = new ArrayList<>();
            for (final long t : grid)
            {
                final StrictQueueModel.Prediction p = model.predict(load, new long[]{ t });
                final long bytes = p.thresholdsBytes()[0];
                fig15.append(String.format(Locale.ROOT, "%.2f,%d,%.5f,%.5f,%.5f%n", load, bytes, p.overall(),
                    p.small(), p.large()));
                xs.add(bytes / 1000.0);
                ys.get(0).add(p.overall());
                ys.get(1).add(p.small());
                ys.get(2).add(p.large());
            }
            for (int panel = 0; panel < titles.length; panel++)
            {
                fig15Charts.get(panel).addSeries(String.format(Locale.ROOT, "load %.1f", load), xs, ys.get(panel))
                    .setMarker(SeriesMarkers.NONE);
            }
        }
        Files.writeString(dir.resolve("fig15.csv"), fig15);
        ChartGrid.write(fig15Charts, 3, PANEL_WIDTH, PANEL_HEIGHT,
            "Fig 15 from the M/G/1 model: " + sizes.name() + ", two strict-priority queues", dir.resolve("fig15.png"));

        final StringBuilder fig16 = new StringBuilder(
            "load,queues,thresholds_bytes,overall,small_0_100KB,large_10MB_inf\n");
        final int[] queueCounts = { 1, 2, 4, 8 };
        final XYChart thresholdChart = chart("best threshold of 2 queues", "load", "threshold (KB)", false);
        final XYChart fctChart = chart("predicted normalized FCT, all flows", "load", "normalized FCT (log)", false);
        fctChart.getStyler().setYAxisLogarithmic(true);
        final List<Double> loads = new ArrayList<>();
        final List<Double> bestThresholds = new ArrayList<>();
        final List<List<Double>> fcts = new ArrayList<>();
        for (int i = 0; i < queueCounts.length; i++)
        {
            fcts.add(new ArrayList<>());
        }
        for (int step = 2; step <= 18; step++)
        {
            final double load = step * 0.05;
            loads.add(load);
            for (int i = 0; i < queueCounts.length; i++)
            {
                final StrictQueueModel.Prediction best = model.optimal(load, queueCounts[i]);
                fig16.append(String.format(Locale.ROOT, "%.2f,%d,%s,%.5f,%.5f,%.5f%n", load, queueCounts[i],
                    join(best.thresholdsBytes(), ";"), best.overall(), best.small(), best.large()));
                fcts.get(i).add(best.overall());
                if (2 == queueCounts[i])
                {
                    bestThresholds.add(best.thresholdsBytes()[0] / 1000.0);
                }
            }
        }
        thresholdChart.addSeries("2 queues", loads, bestThresholds).setMarker(SeriesMarkers.CIRCLE);
        for (int i = 0; i < queueCounts.length; i++)
        {
            fctChart.addSeries(1 == queueCounts[i] ? "1 queue (FIFO)" : queueCounts[i] + " queues", loads,
                fcts.get(i)).setMarker(SeriesMarkers.CIRCLE);
        }
        Files.writeString(dir.resolve("fig16.csv"), fig16);
        ChartGrid.write(List.of(thresholdChart, fctChart), 2, PANEL_WIDTH, PANEL_HEIGHT,
            "Fig 16 from the M/G/1 model: " + sizes.name() + ", best thresholds against load",
            dir.resolve("fig16.png"));
    }

    private static XYChart chart(final String title, final String xTitle, final String yTitle, final boolean logX)
    {
        final XYChart chart = new XYChartBuilder().width(PANEL_WIDTH).height(PANEL_HEIGHT).title(title)
            .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        chart.getStyler().setLegendVisible(true);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setXAxisLogarithmic(logX);
        return chart;
    }

    private static String join(final long[] values, final String separator)
    {
        final StringBuilder out = new StringBuilder();
        for (int i = 0; i < values.length; i++)
        {
            out.append(i > 0 ? separator : "").append(values[i]);
        }
        return out.toString();
    }
}
