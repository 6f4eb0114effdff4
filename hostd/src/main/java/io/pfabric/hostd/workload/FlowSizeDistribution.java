package io.pfabric.hostd.workload;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A flow-size distribution given as an ns-2 CDF table of {@code value cdf} lines, values in 1460-byte packets, and
 * sampled exactly as ns-2's {@code RandomVariable/Empirical} with {@code interpolation_ 2}: u uniform in
 * [first cdf, last cdf], the first entry whose cdf is at least u, linear interpolation from the entry before it when
 * u lies strictly below, then rounded up to whole packets. A flow of n packets is n × 1460 bytes.
 */
public final class FlowSizeDistribution
{
    /**
     * Payload bytes per packet in the workload files (1500 bytes on the wire with 40 bytes of TCP/IP headers).
     */
    public static final int SEGMENT_PAYLOAD_BYTES = 1460;

    /**
     * Bytes per packet on the wire, for the load formula.
     */
    public static final int SEGMENT_WIRE_BYTES = 1500;

    private final String name;
    private final double[] values;
    private final double[] cdfs;

    private FlowSizeDistribution(final String name, final double[] values, final double[] cdfs)
    {
        this.name = name;
        this.values = values;
        this.cdfs = cdfs;
    }

    /**
     * A bundled workload ({@code websearch} or {@code datamining}) or a CDF file.
     *
     * @param nameOrPath the workload's name or the file's path.
     * @return the distribution.
     * @throws IOException              if the file cannot be read.
     * @throws IllegalArgumentException if the table is malformed (the message names the line).
     */
    public static FlowSizeDistribution load(final String nameOrPath) throws IOException
    {
        final InputStream bundled = FlowSizeDistribution.class.getResourceAsStream("/workloads/" + nameOrPath + ".cdf");
        if (null != bundled)
        {
            try (Reader reader = new InputStreamReader(bundled, StandardCharsets.UTF_8))
            {
                return parse(nameOrPath, reader);
            }
        }
        final Path file = Path.of(nameOrPath);
        if (!Files.isRegularFile(file))
        {
            throw new IllegalArgumentException("'" + nameOrPath + "' is neither a bundled workload (websearch, " +
                "datamining) nor a CDF file");
        }
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8))
        {
            return parse(file.toString(), reader);
        }
    }

    /**
     * Parse a CDF table: {@code #} starts a comment, every other non-blank line is {@code value cdf} (further
     * columns, as in ns-2's three-column files, are ignored); values are positive and non-decreasing, cdfs
     * non-decreasing from at least 0 to exactly 1.
     *
     * @param sourceName for error messages.
     * @param reader     the table.
     * @return the distribution.
     * @throws IOException              if reading fails.
     * @throws IllegalArgumentException naming the line that is wrong.
     */
    public static FlowSizeDistribution parse(final String sourceName, final Reader reader) throws IOException
    {
        final List<double[]> rows = new ArrayList<>();
        final BufferedReader lines = new BufferedReader(reader);
        String line;
        int number = 0;
        while (null != (line = lines.readLine()))
        {
            number++;
            final int hash = line.indexOf('#');
            final String text = (hash >= 0 ? line.substring(0, hash) : line).trim();
            if (text.isEmpty())
            {
                continue;
            }
            final String[] fields = text.split("\\s+");
            final String where = sourceName + ":" + number + ": ";
            if (fields.length < 2)
            {
                throw new IllegalArgumentException(where + "expected 'value cdf', got '" + text + "'");
            }
            final double value;
            final double cdf;
            try
            {
                value = Double.parseDouble(fields[0]);
                cdf = Double.parseDouble(fields[fields.length - 1]);
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException(where + "not a number in '" + text + "'");
            }
            if (!(value > 0) || Double.isInfinite(value))
            {
                throw new IllegalArgumentException(where + "the size must be positive: " + fields[0]);
            }
            if (!(cdf >= 0 && cdf <= 1))
            {
                throw new IllegalArgumentException(where + "the cdf must be between 0 and 1: " + fields[1]);
            }
            if (!rows.isEmpty())
            {
                final double[] previous = rows.get(rows.size() - 1);
                if (cdf < previous[1] || value < previous[0])
                {
                    throw new IllegalArgumentException(where + "sizes and cdfs must not decrease");
                }
            }
            rows.add(new double[]{ value, cdf });
        }
        if (rows.isEmpty())
        {
            throw new IllegalArgumentException(sourceName + ": no 'value cdf' lines");
        }
        if (rows.get(rows.size() - 1)[1] != 1.0)
        {
            throw new IllegalArgumentException(sourceName + ":" + number + ": the last cdf must be 1");
        }
        final double[] values = new double[rows.size()];
        final double[] cdfs = new double[rows.size()];
        for (int i = 0; i < rows.size(); i++)
        {
            values[i] = rows.get(i)[0];
            cdfs[i] = rows.get(i)[1];
        }
        final String name = Path.of(sourceName).getFileName().toString().replaceFirst("\\.cdf$", "");
        return new FlowSizeDistribution(name, values, cdfs);
    }

    /**
     * The size for a given draw, as ns-2 computes it.
     *
     * @param uniform a number in [0, 1), mapped onto [first cdf, last cdf].
     * @return whole packets, at least 1.
     */
    public long samplePackets(final double uniform)
    {
        final double u = cdfs[0] + uniform * (cdfs[cdfs.length - 1] - cdfs[0]);
        int mid = 0;
        while (mid < cdfs.length - 1 && cdfs[mid] < u)
        {
            mid++;
        }
        final double value;
        if (mid > 0 && u < cdfs[mid])
        {
            value = values[mid - 1] +
                (u - cdfs[mid - 1]) * (values[mid] - values[mid - 1]) / (cdfs[mid] - cdfs[mid - 1]);
        }
        else
        {
            value = values[mid];
        }
        return Math.max(1, (long)Math.ceil(value));
    }

    /**
     * Draw a size.
     *
     * @param random the generator.
     * @return whole packets, at least 1.
     */
    public long samplePackets(final SplittableRandom random)
    {
        return samplePackets(random.nextDouble());
    }

    /**
     * The exact mean of {@link #samplePackets(double)}: each segment of the table contributes its probability times
     * the mean of the ceiling of a value uniform between its ends.
     *
     * @return packets.
     */
    public double exactMeanPackets()
    {
        double mean = 0;
        final double span = cdfs[cdfs.length - 1] - cdfs[0];
        for (int i = 1; i < values.length; i++)
        {
            final double probability = (cdfs[i] - cdfs[i - 1]) / span;
            if (probability > 0)
            {
                mean += probability * meanCeiling(values[i - 1], values[i]);
            }
        }
        if (0 == span)
        {
            return Math.max(1, Math.ceil(values[0]));
        }
        return mean;
    }

    private static double meanCeiling(final double low, final double high)
    {
        if (high <= low)
        {
            return Math.max(1, Math.ceil(high));
        }
        double integral = 0;
        for (long k = (long)Math.floor(low) + 1; k <= (long)Math.ceil(high); k++)
        {
            final double from = Math.max(low, k - 1);
            final double to = Math.min(high, k);
            if (to > from)
            {
                integral += (to - from) * Math.max(1, k);
            }
        }
        return integral / (high - low);
    }

    /**
     * The exact distribution of {@link #samplePackets(double)}: the probability of each whole number of packets.
     *
     * @return index n holds the probability of n packets, from 0 (always 0) to the largest size.
     */
    public double[] packetProbabilities()
    {
        final int largest = (int)Math.max(1, Math.ceil(values[values.length - 1]));
        final double[] probabilities = new double[largest + 1];
        final double span = cdfs[cdfs.length - 1] - cdfs[0];
        if (0 == span)
        {
            probabilities[(int)Math.max(1, Math.ceil(values[0]))] = 1;
            return probabilities;
        }
        for (int i = 1; i < values.length; i++)
        {
            final double probability = (cdfs[i] - cdfs[i - 1]) / span;
            if (probability <= 0)
            {
                continue;
            }
            final double low = values[i - 1];
            final double high = values[i];
            if (high <= low)
            {
                probabilities[(int)Math.max(1, Math.ceil(high))] += probability;
                continue;
            }
            for (long k = (long)Math.floor(low) + 1; k <= (long)Math.ceil(high); k++)
            {
                final double overlap = Math.min(high, k) - Math.max(low, k - 1);
                if (overlap > 0)
                {
                    probabilities[(int)Math.max(1, k)] += probability * overlap / (high - low);
                }
            }
        }
        return probabilities;
    }

    /**
     * The exact mean in bytes.
     *
     * @return bytes.
     */
    public double exactMeanBytes()
    {
        return exactMeanPackets() * SEGMENT_PAYLOAD_BYTES;
    }

    /**
     * The workload's name (the file name without {@code .cdf}).
     *
     * @return the name.
     */
    public String name()
    {
        return name;
    }
}
