package io.pfabric.testbed.monitor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The samples of a Prometheus text exposition (a daemon's {@code --counters-file} or {@code /metrics}), read back:
 * {@code name{labels} value} lines, comments skipped.
 *
 * @param samples every sample in file order.
 */
public record PrometheusText(List<Sample> samples)
{
    /**
     * One sample.
     *
     * @param name   metric name.
     * @param labels label values by label name.
     * @param value  the value.
     */
    public record Sample(String name, Map<String, String> labels, double value)
    {
    }

    /**
     * Read a file.
     *
     * @param file the exposition.
     * @return its samples.
     * @throws IOException if it cannot be read or a line is not a sample.
     */
    public static PrometheusText read(final Path file) throws IOException
    {
        return parse(file.toString(), Files.readAllLines(file, StandardCharsets.UTF_8));
    }

    /**
     * Read an exposition's text, such as a {@code /metrics} response.
     *
     * @param source where the text came from, for the message.
     * @param text   the exposition.
     * @return its samples.
     * @throws IOException if a line is not a sample.
     */
    public static PrometheusText parse(final String source, final String text) throws IOException
    {
        return parse(source, text.lines().toList());
    }

    private static PrometheusText parse(final String source, final List<String> lines) throws IOException
    {
        final List<Sample> samples = new ArrayList<>();
        int lineNumber = 0;
        for (final String line : lines)
        {
            lineNumber++;
            if (line.isBlank() || line.startsWith("#"))
            {
                continue;
            }
            try
            {
                samples.add(parse(line));
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IOException(source + ":" + lineNumber + ": " + ex.getMessage(), ex);
            }
        }
        return new PrometheusText(List.copyOf(samples));
    }

    /**
     * One sample line.
     *
     * @param line {@code name{labels} value [timestamp]}.
     * @return the sample.
     * @throws IllegalArgumentException if it is not one.
     */
    public static Sample parse(final String line)
    {
        final int brace = line.indexOf('{');
        final int space;
        final Map<String, String> labels = new LinkedHashMap<>();
        final String name;
        if (brace >= 0)
        {
            final int close = line.indexOf('}', brace);
            if (close < 0)
            {
                throw new IllegalArgumentException("no closing brace");
            }
            name = line.substring(0, brace);
            int at = brace + 1;
            while (at < close)
            {
                final int equals = line.indexOf('=', at);
                if (equals < 0 || equals + 1 >= line.length() || '"' != line.charAt(equals + 1))
                {
                    throw new IllegalArgumentException("bad label");
                }
                final StringBuilder value = new StringBuilder();
                int i = equals + 2;
                while (i < line.length() && '"' != line.charAt(i))
                {
                    final char c = line.charAt(i);
                    if ('\\' == c && i + 1 < line.length())
                    {
                        final char escaped = line.charAt(++i);
                        value.append('n' == escaped ? '\n' : escaped);
                    }
                    else
                    {
                        value.append(c);
                    }
                    i++;
                }
                labels.put(line.substring(at, equals).trim(), value.toString());
                at = i + 1;
                while (at < close && (',' == line.charAt(at) || ' ' == line.charAt(at)))
                {
                    at++;
                }
            }
            space = close + 1;
        }
        else
        {
            space = line.indexOf(' ');
            if (space < 0)
            {
                throw new IllegalArgumentException("no value");
            }
            name = line.substring(0, space);
        }
        final String[] rest = line.substring(space).trim().split("\\s+");
        try
        {
            return new Sample(name, Map.copyOf(labels), Double.parseDouble(rest[0]));
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("bad value '" + rest[0] + "'", ex);
        }
    }

    /**
     * The sum of every sample of a metric whose labels include the given ones.
     *
     * @param name   metric name.
     * @param labels label name and value pairs that must match, e.g. {@code "switch", "s1"}.
     * @return the sum, 0 if none matches.
     */
    public double sum(final String name, final String... labels)
    {
        double total = 0;
        for (final Sample sample : samples)
        {
            if (sample.name().equals(name) && matches(sample, labels))
            {
                total += sample.value();
            }
        }
        return total;
    }

    /**
     * Whether the file has a sample of this metric.
     *
     * @param name metric name.
     * @return true if so.
     */
    public boolean has(final String name)
    {
        return samples.stream().anyMatch(s -> s.name().equals(name));
    }

    /**
     * The distinct values of one label among a metric's samples, in file order.
     *
     * @param name  metric name.
     * @param label label name.
     * @return the values.
     */
    public List<String> labelValues(final String name, final String label)
    {
        return samples.stream().filter(s -> s.name().equals(name)).map(s -> s.labels().get(label))
            .filter(v -> null != v).distinct().toList();
    }

    private static boolean matches(final Sample sample, final String[] labels)
    {
        for (int i = 0; i + 1 < labels.length; i += 2)
        {
            if (!labels[i + 1].equals(sample.labels().get(labels[i])))
            {
                return false;
            }
        }
        return true;
    }
}
