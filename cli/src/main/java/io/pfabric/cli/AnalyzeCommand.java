package io.pfabric.cli;

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
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.ToIntFunction;

/**
 * {@code pfabric analyze}: normalized FCT per scheme, load and size bin from a directory of FCT logs.
 */
@Command(
    name = "analyze",
    mixinStandardHelpOptions = true,
    header = "Summarize FCT logs as normalized FCT per scheme, load and size bin.",
    description = "Reads every fct-*.csv in the directory (the FCT logs of hostd, the TCP baseline or 'pfabric " +
        "ideal'; a file named fct-SCHEME-LOAD.csv gives its load), normalizes each completed flow's FCT to the best " +
        "it could do alone on the idle fabric (base RTT + (segments - 1) packet times at the access rate), and " +
        "prints per scheme, load and bin (small (0,100KB], medium (100KB,10MB], large (10MB,inf), all) the count, " +
        "mean, median and 99th percentile; flows that never completed are counted apart. Writes DIR/summary.csv " +
        "as " + ResultsTable.CSV_HEADER + ". When flows carry deadlines, also prints per log the fraction of them " +
        "that met their deadline and the other flows' mean normalized FCT, and writes DIR/deadlines-analyzed.csv as " +
        DeadlineReport.CSV_HEADER + " (the mean deadline being the mean of the log's deadlines).")
public final class AnalyzeCommand implements Callable<Integer>
{
    @Parameters(index = "0", paramLabel = "RESULTS_DIR", description = "Directory holding fct-*.csv files.")
    Path directory;

    @Option(names = "--rate", required = true, paramLabel = "RATE", description = "Access link rate, e.g. 1g.")
    String rate;

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
}
