package io.pfabric.analysis;

import io.pfabric.hostd.workload.FctLogReader;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Normalized FCT per scheme, load and size bin over a directory of FCT logs named {@code fct-SCHEME-LOAD.csv} (or
 * {@code fct-NAME.csv} without a load), as printed by {@code pfabric analyze} and written to {@code summary.csv}.
 * A log whose flows carry more than one DSCP (its {@code dscp} column) is also split per DSCP, under the scheme
 * {@code SCHEME:dscpN} beside the whole {@code SCHEME}, so that results compare per traffic class.
 */
public final class ResultsTable
{
    /**
     * The header of {@code summary.csv}.
     */
    public static final String CSV_HEADER = "scheme,load,bin,count,mean,p50,p99";

    /**
     * The header of an emulated experiment's {@code summary.csv}: {@link #CSV_HEADER} and whether the run's invariants
     * held ({@code ok}, {@code broken:INVARIANT+...}, {@code unchecked}, or {@code -} for a scheme that was not
     * emulated, such as Ideal or the simulator).
     */
    public static final String FIDELITY_CSV_HEADER = CSV_HEADER + ",fidelity";

    /**
     * What follows a scheme's name, then the DSCP, in the lines of one DSCP's flows: {@code pfabric:dscp8}.
     */
    public static final String DSCP_SUFFIX = ":dscp";

    static final Pattern FILE_NAME = Pattern.compile("fct-(.+?)(?:-([0-9.]+))?\\.csv");

    /**
     * One row of the table.
     *
     * @param scheme  as the log names it, e.g. pfabric.
     * @param load    as the file name gives it, e.g. 0.6, or "-".
     * @param summary the bin's figures.
     */
    public record Line(String scheme, String load, FctAnalysis.Summary summary)
    {
        /**
         * The bin's name in lower case.
         *
         * @return e.g. small.
         */
        public String bin()
        {
            return summary.bin().name().toLowerCase(Locale.ROOT);
        }
    }

    private ResultsTable()
    {
    }

    /**
     * Summarize every {@code fct-*.csv} of a directory.
     *
     * @param directory the results.
     * @param analysis  normalizes each flow.
     * @param hostIndex maps a host name to its index for the base RTT.
     * @return lines ordered by scheme, load and bin.
     * @throws IOException if a log cannot be read, or there is none.
     */
    public static List<Line> summarize(final Path directory, final FctAnalysis analysis,
        final ToIntFunction<String> hostIndex) throws IOException
    {
        final Map<String, List<FctLogReader.Row>> byKey = new TreeMap<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "fct-*.csv"))
        {
            for (final Path file : files)
            {
                final Matcher matcher = FILE_NAME.matcher(file.getFileName().toString());
                final String load = matcher.matches() && null != matcher.group(2) ? matcher.group(2) : "-";
                final List<FctLogReader.Row> rows = FctLogReader.read(file);
                final boolean split = rows.stream().mapToInt(FctLogReader.Row::dscp).distinct().count() > 1;
                for (final FctLogReader.Row row : rows)
                {
                    byKey.computeIfAbsent(row.scheme() + "," + load, key -> new ArrayList<>()).add(row);
                    if (split)
                    {
                        byKey.computeIfAbsent(row.scheme() + DSCP_SUFFIX + row.dscp() + "," + load,
                            key -> new ArrayList<>()).add(row);
                    }
                }
            }
        }
        if (byKey.isEmpty())
        {
            throw new IOException("no fct-*.csv files in " + directory);
        }
        final List<Line> lines = new ArrayList<>();
        for (final Map.Entry<String, List<FctLogReader.Row>> entry : byKey.entrySet())
        {
            final String[] key = entry.getKey().split(",");
            for (final FctAnalysis.Summary summary : analysis.summarize(entry.getValue(), hostIndex))
            {
                lines.add(new Line(key[0], key[1], summary));
            }
        }
        return lines;
    }

    /**
     * Write {@code summary.csv}.
     *
     * @param file  where.
     * @param lines the table.
     * @throws IOException if it cannot be written.
     */
    public static void writeCsv(final Path file, final List<Line> lines) throws IOException
    {
        writeCsv(file, lines, null);
    }

    /**
     * Write {@code summary.csv} with each line's run's fidelity ({@link #FIDELITY_CSV_HEADER}).
     *
     * @param file     where.
     * @param lines    the table.
     * @param fidelity each line's verdict, or null for the plain table ({@link #CSV_HEADER}).
     * @throws IOException if it cannot be written.
     */
    public static void writeCsv(final Path file, final List<Line> lines, final Function<Line, String> fidelity)
        throws IOException
    {
        try (BufferedWriter writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8))
        {
            writer.write(null == fidelity ? CSV_HEADER : FIDELITY_CSV_HEADER);
            writer.newLine();
            for (final Line line : lines)
            {
                final FctAnalysis.Summary s = line.summary();
                writer.write(String.format(Locale.ROOT, "%s,%s,%s,%d,%.4f,%.4f,%.4f", line.scheme(), line.load(),
                    line.bin(), s.count(), s.mean(), s.p50(), s.p99()));
                if (null != fidelity)
                {
                    writer.write("," + fidelity.apply(line));
                }
                writer.newLine();
            }
        }
    }

    /**
     * Read a {@code summary.csv} back (its counts of incomplete flows, which it does not hold, read as 0; a fidelity
     * column is passed over).
     *
     * @param file the summary.
     * @return its lines in file order.
     * @throws IOException if it cannot be read, or a line is not a summary line (saying which).
     */
    public static List<Line> readCsv(final Path file) throws IOException
    {
        final List<String> text = Files.readAllLines(file, StandardCharsets.UTF_8);
        final boolean withFidelity = !text.isEmpty() && FIDELITY_CSV_HEADER.equals(text.get(0).trim());
        if (text.isEmpty() || !CSV_HEADER.equals(text.get(0).trim()) && !withFidelity)
        {
            throw new IOException(file + ": not a summary (its first line is not '" + CSV_HEADER + "')");
        }
        final List<Line> lines = new ArrayList<>();
        for (int i = 1; i < text.size(); i++)
        {
            if (text.get(i).isBlank())
            {
                continue;
            }
            final String[] fields = text.get(i).split(",", -1);
            try
            {
                final int expected = withFidelity ? 8 : 7;
                if (expected != fields.length)
                {
                    throw new IllegalArgumentException(expected + " fields expected, got " + fields.length);
                }
                final FctAnalysis.Bin bin = FctAnalysis.Bin.valueOf(fields[2].trim().toUpperCase(Locale.ROOT));
                lines.add(new Line(fields[0].trim(), fields[1].trim(), new FctAnalysis.Summary(bin,
                    Integer.parseInt(fields[3].trim()), 0, Double.parseDouble(fields[4]), Double.parseDouble(fields[5]),
                    Double.parseDouble(fields[6]))));
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IOException(file + ":" + (i + 1) + ": " + ex.getMessage(), ex);
            }
        }
        return lines;
    }

    /**
     * Print the table for people.
     *
     * @param out   where.
     * @param lines the table.
     */
    public static void print(final PrintStream out, final List<Line> lines)
    {
        print(out, lines, null);
    }

    /**
     * Print the table for people, with each line's run's fidelity in a last column.
     *
     * @param out      where.
     * @param lines    the table.
     * @param fidelity each line's verdict, or null for none.
     */
    public static void print(final PrintStream out, final List<Line> lines, final Function<Line, String> fidelity)
    {
        out.printf(Locale.ROOT, "%-10s %6s %-7s %8s %11s %9s %9s %9s%s%n", "scheme", "load", "bin", "count",
            "incomplete", "mean", "p50", "p99", null == fidelity ? "" : "  fidelity");
        for (final Line line : lines)
        {
            final FctAnalysis.Summary s = line.summary();
            out.printf(Locale.ROOT, "%-10s %6s %-7s %8d %11d %9.3f %9.3f %9.3f%s%n", line.scheme(), line.load(),
                line.bin(), s.count(), s.incomplete(), s.mean(), s.p50(), s.p99(),
                null == fidelity ? "" : "  " + fidelity.apply(line));
        }
    }

    /**
     * Print the table as CSV for scripts: {@code scheme,load,bin,count,mean,p50,p99} ({@link #CSV_HEADER}), or
     * without the load: {@code scheme,bin,count,mean,p99}.
     *
     * @param out      where to print.
     * @param lines    the lines.
     * @param withLoad whether to print the load column, and the median.
     */
    public static void printCsv(final PrintStream out, final List<Line> lines, final boolean withLoad)
    {
        out.println(withLoad ? CSV_HEADER : "scheme,bin,count,mean,p99");
        for (final Line line : lines)
        {
            final FctAnalysis.Summary s = line.summary();
            if (withLoad)
            {
                out.printf(Locale.ROOT, "%s,%s,%s,%d,%.4f,%.4f,%.4f%n", line.scheme(), line.load(), line.bin(),
                    s.count(), s.mean(), s.p50(), s.p99());
            }
            else
            {
                out.printf(Locale.ROOT, "%s,%s,%d,%.4f,%.4f%n", line.scheme(), line.bin(), s.count(), s.mean(), s.p99());
            }
        }
    }
}
