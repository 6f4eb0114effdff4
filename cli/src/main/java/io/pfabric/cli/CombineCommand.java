package io.pfabric.cli;

import io.pfabric.analysis.FctPlot;
import io.pfabric.analysis.ResultsTable;
import io.pfabric.analysis.SummaryMerge;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code pfabric combine}: one summary and plot from the summaries of several sweeps of one trace.
 */
@Command(
    name = "combine",
    mixinStandardHelpOptions = true,
    header = "Merge the summaries of several sweeps of one trace into one table and plot.",
    description = "Reads each SUMMARY (a summary.csv of 'pfabric sim sweep', 'experiment' or 'analyze'), takes " +
        "the schemes named after it (FILE:SCHEME,SCHEME...; all of them without), and writes DIR/summary.csv and " +
        "DIR/fct-vs-load.png (the mean of small, medium, large and all flows and the small flows' 99th " +
        "percentile against load). For schemes run at different times on the same workload, flows per load and " +
        "seed. A scheme named by two sources, or missing from its file, is an error.")
public final class CombineCommand implements Callable<Integer>
{
    @Parameters(arity = "1..*", paramLabel = "SUMMARY[:SCHEMES]", description = "Summaries and their schemes.")
    List<String> sources;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Where to write.")
    Path out;

    @Option(names = "--title", defaultValue = "normalized FCT", paramLabel = "TEXT",
        description = "Above the plot (default: ${DEFAULT-VALUE}).")
    String title;

    /**
     * {@inheritDoc}
     */
    public Integer call() throws IOException
    {
        final List<SummaryMerge.Source> parsed = new ArrayList<>();
        for (final String source : sources)
        {
            final SummaryMerge.Source one = SummaryMerge.Source.parse(source);
            if (!Files.isRegularFile(one.summary()))
            {
                throw new IllegalArgumentException(one.summary() + ": no such file");
            }
            parsed.add(one);
        }
        final List<ResultsTable.Line> lines = SummaryMerge.merge(parsed);
        Files.createDirectories(out);
        ResultsTable.writeCsv(out.resolve("summary.csv"), lines);
        FctPlot.write(lines, title, out.resolve("fct-vs-load.png"));
        ResultsTable.print(System.out, lines);
        return 0;
    }
}
