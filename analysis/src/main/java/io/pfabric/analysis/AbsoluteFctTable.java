package io.pfabric.analysis;

import io.pfabric.hostd.workload.FctLogReader;

import java.io.BufferedWriter;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;

/**
 * Flow completion times in milliseconds, not normalized, per scheme and load, as SP-PIFO's and AIFO's papers plot
 * them: small flows' (at most {@link FctAnalysis#SMALL_MAX_BYTES}) count, mean and 99th percentile, and the count and
 * mean of flows of at least {@link #LARGE_MIN_BYTES}. The percentile is interpolated between ranks
 * ({@link FctAnalysis#percentileInterpolated}), not the nearest rank of {@code summary.csv}. Flows that never
 * completed are left out and counted apart. Written to {@code fct-ms.csv} by {@code pfabric analyze --absolute}.
 */
public final class AbsoluteFctTable
{
    /**
     * The file the table is written to.
     */
    public static final String FILE_NAME = "fct-ms.csv";

    /**
     * The header of {@code fct-ms.csv}.
     */
    public static final String CSV_HEADER =
        "scheme,load,small_flows,small_mean_ms,small_p99_ms,ge1MB_flows,ge1MB_mean_ms";

    /**
     * The smallest flow of the large mean, in bytes (inclusive).
     */
    public static final long LARGE_MIN_BYTES = 1_000_000;

    private static final double NS_PER_MS = 1e6;

    /**
     * A directory of FCT logs and the scheme its rows are named after.
     *
     * @param label     the scheme name of every log of the directory, or null to take each log's from its file name.
     * @param directory holds {@code fct-SCHEME-LOAD.csv} files.
     */
    public record Source(String label, Path directory)
    {
        /**
         * Parse {@code DIR} or {@code LABEL=DIR}.
         *
         * @param text as given.
         * @return the source.
         * @throws IllegalArgumentException if the label is empty or holds a comma.
         */
        public static Source parse(final String text)
        {
            final int equals = text.indexOf('=');
            if (equals < 0)
            {
                return new Source(null, Path.of(text));
            }
            final String label = text.substring(0, equals);
            if (label.isBlank() || label.contains(","))
            {
                throw new IllegalArgumentException("'" + text + "': LABEL=DIR takes a label without commas");
            }
            return new Source(label, Path.of(text.substring(equals + 1)));
        }
    }

    /**
     * One row of the table.
     *
     * @param scheme      the label, or the scheme of the log's file name.
     * @param load        as the file name gives it, e.g. 0.6, or "-".
     * @param smallFlows  completed flows of at most 100,000 B.
     * @param smallMeanMs their mean FCT.
     * @param smallP99Ms  their 99th percentile FCT, interpolated.
     * @param largeFlows  completed flows of at least 1,000,000 B.
     * @param largeMeanMs their mean FCT, NaN if there are none.
     * @param incomplete  flows of the log that never completed, left out of the figures.
     */
    public record Row(String scheme, String load, int smallFlows, double smallMeanMs, double smallP99Ms,
        int largeFlows, double largeMeanMs, int incomplete)
    {
    }

    private AbsoluteFctTable()
    {
    }

    /**
     * The row of one log.
     *
     * @param scheme its name in the table.
     * @param load   its load.
     * @param flows  its flows, in log order (the order the means add them in).
     * @param where  names the log in an error.
     * @return the row.
     * @throws IllegalArgumentException if no small flow completed.
     */
    public static Row summarize(final String scheme, final String load, final List<FctLogReader.Row> flows,
        final String where)
    {
        final List<Double> small = new ArrayList<>();
        final List<Double> large = new ArrayList<>();
        int incomplete = 0;
        for (final FctLogReader.Row flow : flows)
        {
            if (!flow.isComplete())
            {
                incomplete++;
                continue;
            }
            final double fctMs = flow.fctNs() / NS_PER_MS;
            if (flow.sizeBytes() <= FctAnalysis.SMALL_MAX_BYTES)
            {
                small.add(fctMs);
            }
            if (flow.sizeBytes() >= LARGE_MIN_BYTES)
            {
                large.add(fctMs);
            }
        }
        if (small.isEmpty())
        {
            throw new IllegalArgumentException(where + ": no completed flow of at most " +
                FctAnalysis.SMALL_MAX_BYTES + " B");
        }
        final double[] sorted = small.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return new Row(scheme, load, small.size(), mean(small), FctAnalysis.percentileInterpolated(sorted, 99),
            large.size(), large.isEmpty() ? Double.NaN : mean(large), incomplete);
    }

    /**
     * The rows of every {@code fct-*.csv} of the sources, ordered by scheme, then load.
     *
     * @param sources where the logs are, and their labels.
     * @param loads   the loads to take, empty for all; a log without a load in its name is taken only when empty.
     * @return the rows.
     * @throws IOException              if a log cannot be read.
     * @throws IllegalArgumentException if a source is not a directory or has no log (of these loads), a labelled
     *                                  source holds the logs of several schemes, two logs give the same scheme and
     *                                  load, or a log is malformed or has no completed small flow.
     */
    public static List<Row> summarize(final List<Source> sources, final Set<Double> loads) throws IOException
    {
        for (final Source source : sources)
        {
            if (!Files.isDirectory(source.directory()))
            {
                throw new IllegalArgumentException(source.directory() + " is not a directory");
            }
        }
        final List<Row> rows = new ArrayList<>();
        final Set<String> seen = new HashSet<>();
        for (final Source source : sources)
        {
            final TreeMap<Path, String[]> logs = new TreeMap<>();
            final Set<String> schemes = new TreeSet<>();
            try (DirectoryStream<Path> files = Files.newDirectoryStream(source.directory(), "fct-*.csv"))
            {
                for (final Path file : files)
                {
                    final Matcher matcher = ResultsTable.FILE_NAME.matcher(file.getFileName().toString());
                    if (!matcher.matches())
                    {
                        continue;
                    }
                    final String load = null == matcher.group(2) ? "-" : matcher.group(2);
                    if (!"-".equals(load) && !load.matches("[0-9]*\\.?[0-9]+"))
                    {
                        throw new IllegalArgumentException(file + ": '" + load + "' is not a load");
                    }
                    if (loads.isEmpty() || !"-".equals(load) && loads.contains(Double.parseDouble(load)))
                    {
                        logs.put(file, new String[] {matcher.group(1), load});
                        schemes.add(matcher.group(1));
                    }
                }
            }
            if (logs.isEmpty())
            {
                throw new IllegalArgumentException(source.directory() + ": no fct-*.csv files" +
                    (loads.isEmpty() ? "" : " of the loads asked for"));
            }
            if (null != source.label() && schemes.size() > 1)
            {
                throw new IllegalArgumentException(source.label() + "=" + source.directory() +
                    ": one label for the logs of several schemes " + schemes);
            }
            for (final var log : logs.entrySet())
            {
                final String scheme = null == source.label() ? log.getValue()[0] : source.label();
                final String load = log.getValue()[1];
                if (!seen.add(scheme + "," + load))
                {
                    throw new IllegalArgumentException(log.getKey() + ": a second log of " + scheme + " at load " +
                        load);
                }
                rows.add(summarize(scheme, load, FctLogReader.read(log.getKey()), log.getKey().toString()));
            }
        }
        rows.sort(Comparator.comparing(Row::scheme).thenComparingDouble(row -> loadValue(row.load())));
        return rows;
    }

    /**
     * Write {@code fct-ms.csv}: {@link #CSV_HEADER}, then the rows with the means and percentile of small flows to 4
     * decimals and the large flows' mean to 3, each rounded from the exact binary value, ties to even; an empty
     * large mean when no such flow completed.
     *
     * @param file where.
     * @param rows the table.
     * @throws IOException if it cannot be written.
     */
    public static void writeCsv(final Path file, final List<Row> rows) throws IOException
    {
        try (BufferedWriter writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8))
        {
            writer.write(CSV_HEADER);
            writer.write('\n');
            for (final Row row : rows)
            {
                writer.write(line(row));
                writer.write('\n');
            }
        }
    }

    /**
     * One row as {@code fct-ms.csv} holds it.
     *
     * @param row the row.
     * @return its line, without the line end.
     */
    public static String line(final Row row)
    {
        return row.scheme() + "," + row.load() + "," + row.smallFlows() + "," + decimal(row.smallMeanMs(), 4) + "," +
            decimal(row.smallP99Ms(), 4) + "," + row.largeFlows() + "," +
            (Double.isNaN(row.largeMeanMs()) ? "" : decimal(row.largeMeanMs(), 3));
    }

    /**
     * A value to a number of decimals, rounded from its exact binary value with ties to even (as C's printf does;
     * {@code String.format} rounds the shortest decimal that reads back as the value, half up, which differs near
     * ties).
     *
     * @param value  finite.
     * @param places decimals.
     * @return the text.
     */
    static String decimal(final double value, final int places)
    {
        return new BigDecimal(value).setScale(places, RoundingMode.HALF_EVEN).toPlainString();
    }

    private static double mean(final List<Double> values)
    {
        double sum = 0;
        for (final double value : values)
        {
            sum += value;
        }
        return sum / values.size();
    }

    private static double loadValue(final String load)
    {
        return "-".equals(load) ? Double.NEGATIVE_INFINITY : Double.parseDouble(load);
    }
}
