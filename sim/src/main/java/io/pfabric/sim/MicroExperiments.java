package io.pfabric.sim;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.internal.chartpart.Chart;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * What the paper's micro-experiments share: labels for sizes, loads and durations, and writing a chart.
 */
final class MicroExperiments
{
    private MicroExperiments()
    {
    }

    /**
     * A size for people: 10KB, 2.5MB, 1GB; decimal units.
     *
     * @param bytes the size.
     * @return the label.
     */
    static String sizeLabel(final long bytes)
    {
        if (Long.MAX_VALUE == bytes)
        {
            return "inf";
        }
        final String[] units = { "B", "KB", "MB", "GB" };
        double value = bytes;
        int unit = 0;
        while (value >= 1000 && unit < units.length - 1)
        {
            value /= 1000;
            unit++;
        }
        final String text = String.format(Locale.ROOT, "%.1f", value).replaceAll("\\.0$", "");
        return text + units[unit];
    }

    /**
     * A load as a label: 0.8, 0.25.
     *
     * @param load the load.
     * @return the shortest decimal of at most three places.
     */
    static String loadLabel(final double load)
    {
        final String text = String.format(Locale.ROOT, "%.3f", load);
        return text.replaceAll("0+$", "").replaceAll("\\.$", "");
    }

    /**
     * Write a chart as a PNG.
     *
     * @param chart the chart.
     * @param file  where.
     * @throws IOException if it cannot be written.
     */
    static void writePng(final Chart<?, ?> chart, final Path file) throws IOException
    {
        System.setProperty("java.awt.headless", "true");
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    /**
     * Refuse a scheme the simulator does not run, or one the experiment does not take.
     *
     * @param option  the option that named it.
     * @param scheme  the scheme.
     * @param allowed the experiment's schemes.
     */
    static void requireScheme(final String option, final String scheme, final java.util.List<String> allowed)
    {
        if (!allowed.contains(scheme))
        {
            throw new IllegalArgumentException(option + ": this experiment runs " + String.join(", ", allowed) +
                ", not '" + scheme + "'");
        }
    }
}
