package io.pfabric.cli;

import io.pfabric.bench.jmh.QueueBenchmark;
import io.pfabric.dataplane.queue.DisciplineKind;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code pfabric bench queue}: the JMH queue-discipline benchmark.
 */
@Command(
    name = "queue",
    mixinStandardHelpOptions = true,
    header = "Benchmark the queue disciplines with JMH.",
    description = "Measures one enqueue plus one dequeue on an egress buffer kept at a steady occupancy (all but one " +
        "frame), random priorities over 1024 flows, for each discipline and buffer size in one JMH run, with JMH's " +
        "GC profiler for bytes allocated per operation. The enqueue copies the frame into a packet slot; the " +
        "dequeue hands the port a view of the slot. JMH's progress goes to stderr, the results to stdout.")
public final class QueueBenchCommand implements Callable<Integer>
{
    @Option(names = "--quick", description = "Two forks of 2 warm-up and 3 measurement iterations of 1 s (about 80 s).")
    boolean quick;

    @Option(names = "--format", defaultValue = "table", paramLabel = "table|csv",
        description = "table (default) or csv: discipline,buffer_packets,ns_per_op,bytes_per_op.")
    String format;

    @Option(names = "--disciplines", split = ",", defaultValue = "pfabric,pfabric-edf,droptail,reference",
        paramLabel = "LIST",
        description = "Comma-separated: pfabric, droptail, ecn, strict, pfabric-classes, pfabric-edf, reference, and " +
            "pfabric-sorted or pfabric-heaps to force pFabric's structure (default: ${DEFAULT-VALUE}).")
    List<String> disciplines;

    @Option(names = "--buffers", split = ",", defaultValue = "24,600", paramLabel = "FRAMES",
        description = "Buffer sizes in full 1500-byte frames (default: ${DEFAULT-VALUE}).")
    List<Integer> bufferPackets;

    @Option(names = "--frame-length", defaultValue = "1500", paramLabel = "BYTES",
        description = "Length of the frames offered, 60 to 1514 (default: ${DEFAULT-VALUE}).")
    int frameLength;

    /**
     * {@inheritDoc}
     */
    public Integer call() throws RunnerException
    {
        final boolean csv = OutputFormats.isCsv(format);
        for (final String discipline : disciplines)
        {
            if (QueueBenchmark.isStructureName(discipline))
            {
                QueueBenchmark.structure(discipline);
            }
            else if (!QueueBenchmark.REFERENCE.equals(discipline))
            {
                DisciplineKind.byName(discipline);
            }
        }
        if (frameLength < 60 || frameLength > 1514)
        {
            throw new IllegalArgumentException("--frame-length must be between 60 and 1514, not " + frameLength);
        }
        for (final int frames : bufferPackets)
        {
            if (frames < 2)
            {
                throw new IllegalArgumentException("--buffers must be at least 2 frames, not " + frames);
            }
        }

        final ChainedOptionsBuilder options = new OptionsBuilder()
            .include(QueueBenchmark.class.getName() + ".enqueueDequeue")
            .param("discipline", disciplines.toArray(new String[0]))
            .param("bufferPackets", bufferPackets.stream().map(String::valueOf).toArray(String[]::new))
            .param("frameLength", String.valueOf(frameLength))
            .addProfiler(GCProfiler.class)
            .shouldFailOnError(true)
            .resultFormat(ResultFormatType.TEXT)
            .result("/dev/null");
        if (quick)
        {
            options.forks(2).warmupIterations(2).warmupTime(TimeValue.seconds(1))
                .measurementIterations(3).measurementTime(TimeValue.seconds(1));
        }
        else
        {
            options.forks(2).warmupIterations(5).warmupTime(TimeValue.seconds(1))
                .measurementIterations(5).measurementTime(TimeValue.seconds(2));
        }

        final Collection<RunResult> results = new Runner(
            options.build(), OutputFormatFactory.createFormatInstance(System.err, VerboseMode.NORMAL)).run();

        final List<String[]> rows = new ArrayList<>();
        for (final RunResult result : results)
        {
            final Result<?> primary = result.getPrimaryResult();
            rows.add(new String[]{
                result.getParams().getParam("discipline"),
                result.getParams().getParam("bufferPackets"),
                String.format(Locale.ROOT, "%.1f", primary.getScore()),
                String.format(Locale.ROOT, "%.1f", primary.getScoreError()),
                String.format(Locale.ROOT, "%.1f", allocatedBytesPerOp(result)) });
        }
        print(System.out, rows, csv);
        return 0;
    }

    @SuppressWarnings("rawtypes")
    private static double allocatedBytesPerOp(final RunResult result)
    {
        for (final var entry : result.getSecondaryResults().entrySet())
        {
            if (entry.getKey().endsWith("gc.alloc.rate.norm"))
            {
                return entry.getValue().getScore();
            }
        }
        return Double.NaN;
    }

    private static void print(final PrintStream out, final List<String[]> rows, final boolean csv)
    {
        if (csv)
        {
            out.println("discipline,buffer_packets,ns_per_op,bytes_per_op");
            for (final String[] row : rows)
            {
                out.println(row[0] + "," + row[1] + "," + row[2] + "," + row[4]);
            }
            return;
        }
        out.printf(Locale.ROOT, "%-15s %14s %12s %10s %12s%n", "discipline", "buffer_frames", "ns/op", "± error",
            "bytes/op");
        for (final String[] row : rows)
        {
            out.printf(Locale.ROOT, "%-15s %14s %12s %10s %12s%n", row[0], row[1], row[2], row[3], row[4]);
        }
        for (final String[] row : rows)
        {
            if ("pfabric".equals(row[0]))
            {
                for (final String[] other : rows)
                {
                    if (QueueBenchmark.REFERENCE.equals(other[0]) && other[1].equals(row[1]))
                    {
                        out.printf(Locale.ROOT, "pfabric is %.1fx faster than the reference model at %s frames%n",
                            Double.parseDouble(other[2]) / Double.parseDouble(row[2]), row[1]);
                    }
                }
            }
        }
    }
}
