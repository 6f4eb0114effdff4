package io.pfabric.cli;

import io.pfabric.analysis.AbsoluteFctTable;
import io.pfabric.analysis.DeadlineReport;
import io.pfabric.analysis.FctAnalysis;
import io.pfabric.analysis.PathRtts;
import io.pfabric.analysis.ResultsTable;
import io.pfabric.common.config.Quantities;
import io.pfabric.common.topology.Rates;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.ToIntFunction;

/**
 * {@code pfabric analyze}: normalized FCT per scheme, load and size bin from a directory of FCT logs, or with
 * {@code --absolute} FCT in milliseconds per scheme and load from one or more such directories.
 */
@Command(
    name = "analyze",
    mixinStandardHelpOptions = true,
    header = "Summarize FCT logs as normalized FCT per scheme, load and size bin, or as FCT in milliseconds.",
    description = "Without --absolute, reads every fct-*.csv in the directory (the FCT logs of hostd, the TCP " +
        "baseline or 'pfabric ideal'; a file named fct-SCHEME-LOAD.csv gives its load), normalizes each completed " +
        "flow's FCT to the best " +
        "it could do alone on the idle fabric (base RTT + (segments - 1) packet times at the access rate), and " +
        "prints per scheme, load and bin (small (0,100KB], medium (100KB,10MB], large (10MB,inf), all) the count, " +
        "mean, median and 99th percentile; flows that never completed are counted apart. Writes DIR/summary.csv " +
        "as " + ResultsTable.CSV_HEADER + ". When flows carry deadlines, also prints per log the fraction of them " +
        "that met their deadline and the other flows' mean normalized FCT, and writes DIR/deadlines-analyzed.csv as " +
        DeadlineReport.CSV_HEADER + " (the mean deadline being the mean of the log's deadlines).%n%n" +
        "With --absolute, takes no --rate or --base-rtt and normalizes nothing: for every fct-*.csv of each " +
        "directory, one row named after the scheme of its file name (or LABEL, for a directory given as " +
        "LABEL=RESULTS_DIR whose logs are all of one scheme) and the load, with the completed small flows' " +
        "(at most 100,000 B) count, mean and 99th percentile FCT (interpolated between the two closest ranks, " +
        "as numpy's percentile in NetBench's analysis, not the nearest rank of summary.csv) and the count and " +
        "mean FCT of completed flows of at least 1,000,000 B (empty when there are none), in milliseconds; flows " +
        "that never completed are left out. Writes them, ordered by scheme then load, to fct-ms.csv (" +
        AbsoluteFctTable.CSV_HEADER + ") in --out, or in RESULTS_DIR when there is one, and prints them. A " +
        "directory without logs (of --loads), a log without a completed small flow, or two logs of the same scheme " +
        "and load is an error.")
public final class AnalyzeCommand implements Callable<Integer>
{
    @Parameters(arity = "1..*", paramLabel = "RESULTS_DIR",
        description = "Directory holding fct-*.csv files; with --absolute, one or more, each as RESULTS_DIR or " +
            "LABEL=RESULTS_DIR.")
    List<String> directories;

    @Option(names = "--rate", paramLabel = "RATE",
        description = "Access link rate, e.g. 1g; required without --absolute.")
    String rate;

    @Option(names = "--absolute",
        description = "FCT in milliseconds, not normalized, per scheme and load: writes fct-ms.csv.")
    boolean absolute;

    @Option(names = "--out", paramLabel = "DIR",
        description = "With --absolute: where to write fct-ms.csv (default: the one RESULTS_DIR).")
    Path out;

    @Option(names = "--loads", paramLabel = "LOAD,...",
        description = "With --absolute: only the logs of these loads, e.g. 0.2,0.5 (default: all).")
    String loads;

    @Option(names = "--base-rtt", paramLabel = "DURATION",
        description = "Round trip of a full packet and its ACK on the idle fabric, the same for every path, e.g. " +
            "14.68us. Without it, each path's base RTT is read from RESULTS_DIR/base-rtt.csv (written by 'pfabric " +
            "experiment').")
    String baseRtt;

    /**
     * {@inheritDoc}
     */
    public Integer call() throws IOException
    {
        if (absolute)
        {
            return absolute();
        }
        if (null != out || null != loads)
        {
            throw new IllegalArgumentException((null != out ? "--out" : "--loads") + " is only for --absolute");
        }
        if (directories.size() > 1)
        {
            throw new IllegalArgumentException("give one RESULTS_DIR (several only with --absolute)");
        }
        if (null == rate)
        {
            throw new IllegalArgumentException("--rate: give the access link rate, e.g. --rate 1g");
        }
        final Path directory = Path.of(directories.get(0));
        if (!Files.isDirectory(directory))
        {
            throw new IllegalArgumentException(directory + " is not a directory");
        }
        final long rateBitsPerSec = Rates.parseOption("--rate", rate, false);
        final List<ResultsTable.Line> lines;
        final FctAnalysis analysis;
        final ToIntFunction<String> hostIndex;
        if (null != baseRtt)
        {
            final long baseRttNs = Quantities.parseNanos(baseRtt);
            if (baseRttNs <= 0)
            {
                throw new IllegalArgumentException("--base-rtt must be positive");
            }
            analysis = new FctAnalysis(rateBitsPerSec, (source, destination) -> baseRttNs);
            hostIndex = host -> 0;
        }
        else
        {
            final Path table = directory.resolve("base-rtt.csv");
            if (!Files.isRegularFile(table))
            {
                throw new IllegalArgumentException("give --base-rtt: there is no " + table);
            }
            final PathRtts rtts = PathRtts.read(table);
            analysis = new FctAnalysis(rateBitsPerSec, rtts);
            hostIndex = rtts::hostIndex;
        }
        lines = ResultsTable.summarize(directory, analysis, hostIndex);
        final Path summaryFile = directory.resolve("summary.csv");
        ResultsTable.print(System.out, lines);
        ResultsTable.writeCsv(summaryFile, lines);
        System.err.println("pfabric analyze: wrote " + summaryFile);
        final List<DeadlineReport.Row> deadlines = DeadlineReport.summarize(directory, analysis, hostIndex);
        if (!deadlines.isEmpty())
        {
            final Path deadlinesFile = directory.resolve("deadlines-analyzed.csv");
            System.out.println();
            DeadlineReport.print(System.out, deadlines);
            DeadlineReport.writeCsv(deadlinesFile, deadlines);
            System.err.println("pfabric analyze: wrote " + deadlinesFile);
        }
        return 0;
    }

    private Integer absolute() throws IOException
    {
        if (null != rate || null != baseRtt)
        {
            throw new IllegalArgumentException((null != rate ? "--rate" : "--base-rtt") +
                " does not apply to --absolute, which normalizes nothing");
        }
        final List<AbsoluteFctTable.Source> sources = new ArrayList<>();
        for (final String directory : directories)
        {
            sources.add(AbsoluteFctTable.Source.parse(directory));
        }
        if (null == out && sources.size() > 1)
        {
            throw new IllegalArgumentException("--out: give where to write " + AbsoluteFctTable.FILE_NAME +
                " when reading several directories");
        }
        final Set<Double> loadSet = new HashSet<>();
        for (final String load : null == loads ? new String[0] : loads.split(",", -1))
        {
            final double value;
            try
            {
                value = Double.parseDouble(load.trim());
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException("--loads: '" + load + "' is not a number");
            }
            if (!(value >= 0))
            {
                throw new IllegalArgumentException("--loads: '" + load + "' is not a load");
            }
            loadSet.add(value);
        }
        final List<AbsoluteFctTable.Row> rows = AbsoluteFctTable.summarize(sources, loadSet);
        final Path directory = null == out ? sources.get(0).directory() : out;
        Files.createDirectories(directory);
        final Path file = directory.resolve(AbsoluteFctTable.FILE_NAME);
        AbsoluteFctTable.writeCsv(file, rows);
        System.out.println(AbsoluteFctTable.CSV_HEADER);
        for (final AbsoluteFctTable.Row row : rows)
        {
            System.out.println(AbsoluteFctTable.line(row));
            if (row.incomplete() > 0)
            {
                System.err.println("pfabric analyze: " + row.scheme() + " at load " + row.load() + ": " +
                    row.incomplete() + " flows never completed, left out");
            }
        }
        System.err.println("pfabric analyze: wrote " + file);
        return 0;
    }
}
