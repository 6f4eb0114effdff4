package io.pfabric.bench.cli;

import io.pfabric.bench.fct.FctAnalysis;
import io.pfabric.common.config.Quantities;
import io.pfabric.common.topology.Rates;
import io.pfabric.hostd.workload.FctLogReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
        "as scheme,load,bin,count,mean,p50,p99.")
public final class AnalyzeCommand implements Callable<Integer>
{
    private static final Pattern FILE_NAME = Pattern.compile("fct-(.+?)(?:-([0-9.]+))?\\.csv");

    @Parameters(index = "0", paramLabel = "RESULTS_DIR", description = "Directory holding fct-*.csv files.")
    Path directory;

    @Option(names = "--rate", required = true, paramLabel = "RATE", description = "Access link rate, e.g. 1g.")
    String rate;

    @Option(names = "--base-rtt", required = true, paramLabel = "DURATION",
        description = "Round trip of a full packet and its ACK on the idle fabric, e.g. 14.68us.")
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
        final long rateBitsPerSec = Rates.parseBitsPerSec(rate);
        final long baseRttNs = Quantities.parseNanos(baseRtt);
        if (rateBitsPerSec <= 0 || baseRttNs <= 0)
        {
            throw new IllegalArgumentException("--rate and --base-rtt must be positive");
        }
        final FctAnalysis analysis = new FctAnalysis(rateBitsPerSec, (source, destination) -> baseRttNs);
        final Map<String, List<FctLogReader.Row>> byKey = new TreeMap<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "fct-*.csv"))
        {
            for (final Path file : files)
            {
                final Matcher matcher = FILE_NAME.matcher(file.getFileName().toString());
                final String load = matcher.matches() && null != matcher.group(2) ? matcher.group(2) : "-";
                for (final FctLogReader.Row row : FctLogReader.read(file))
                {
                    byKey.computeIfAbsent(row.scheme() + "," + load, key -> new ArrayList<>()).add(row);
                }
            }
        }
        if (byKey.isEmpty())
        {
            throw new IllegalArgumentException("no fct-*.csv files in " + directory);
        }
        final Path summaryFile = directory.resolve("summary.csv");
        System.out.printf(Locale.ROOT, "%-10s %6s %-7s %8s %11s %9s %9s %9s%n", "scheme", "load", "bin", "count",
            "incomplete", "mean", "p50", "p99");
        try (BufferedWriter summary = Files.newBufferedWriter(summaryFile, StandardCharsets.UTF_8))
        {
            summary.write("scheme,load,bin,count,mean,p50,p99");
            summary.newLine();
            for (final Map.Entry<String, List<FctLogReader.Row>> entry : byKey.entrySet())
            {
                final String[] key = entry.getKey().split(",");
                for (final FctAnalysis.Summary bin : analysis.summarize(entry.getValue(), host -> 0))
                {
                    final String name = bin.bin().name().toLowerCase(Locale.ROOT);
                    System.out.printf(Locale.ROOT, "%-10s %6s %-7s %8d %11d %9.3f %9.3f %9.3f%n", key[0], key[1],
                        name, bin.count(), bin.incomplete(), bin.mean(), bin.p50(), bin.p99());
                    summary.write(String.format(Locale.ROOT, "%s,%s,%s,%d,%.4f,%.4f,%.4f", key[0], key[1], name,
                        bin.count(), bin.mean(), bin.p50(), bin.p99()));
                    summary.newLine();
                }
            }
        }
        System.err.println("pfabric analyze: wrote " + summaryFile);
        return 0;
    }
}
