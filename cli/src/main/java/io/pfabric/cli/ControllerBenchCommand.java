package io.pfabric.cli;

import io.pfabric.bench.jmh.RateNormalizerBenchmark;
import io.pfabric.bench.jmh.TimeslotAllocatorBenchmark;
import io.pfabric.controllerd.syn.Metric;
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
 * {@code pfabric bench controller}: the JMH benchmarks of the controller's allocators.
 */
@Command(
    name = "controller",
    mixinStandardHelpOptions = true,
    header = "Benchmark the controller's SYN and ASY allocators with JMH.",
    description = "SYN: nanoseconds per allocated slot of the timeslot allocator (64-slot batches, matching plus " +
        "spine assignment, one core) on a non-blocking leaf-spine fabric at 90%% offered load, uniform random " +
        "destinations. ASY: milliseconds per normalization of a sparse offered-rate matrix (16 entries per row), " +
        "warm from the last result after a change of up to 10%% per entry, and cold. JMH's GC profiler gives the " +
        "bytes allocated per operation. JMH's progress goes to stderr, the results to stdout.")
public final class ControllerBenchCommand implements Callable<Integer>
{
    @Option(names = "--quick", description = "One fork of 2 warm-up and 3 measurement iterations of 1 s (about 40 s).")
    boolean quick;

    @Option(names = "--format", defaultValue = "table", paramLabel = "table|csv",
        description = "table (default) or csv: benchmark,hosts,value,unit.")
    String format;

    @Option(names = "--hosts", split = ",", defaultValue = "144,1024", paramLabel = "N",
        description = "Host counts for SYN (default: ${DEFAULT-VALUE}).")
    List<Integer> synHosts;

    @Option(names = "--metrics", split = ",", defaultValue = "OCF", paramLabel = "LIST",
        description = "SYN orders: OCF, SRJF, MMF (default: ${DEFAULT-VALUE}).")
    List<String> metrics;

    @Option(names = "--load", defaultValue = "0.9", paramLabel = "FRACTION",
        description = "SYN offered load per host, 0 to 1 (default: ${DEFAULT-VALUE}).")
    double load;

    @Option(names = "--asy-hosts", defaultValue = "1024", paramLabel = "N",
        description = "Hosts of the ASY matrix (default: ${DEFAULT-VALUE}).")
    int asyHosts;

    /**
     * {@inheritDoc}
     */
    public Integer call() throws RunnerException
    {
        final boolean csv = OutputFormats.isCsv(format);
        final List<String> metricNames = new ArrayList<>();
        for (final String name : metrics)
        {
            metricNames.add(Metric.valueOf(name.toUpperCase(Locale.ROOT)).name());
        }
        for (final int hosts : synHosts)
        {
            if (hosts < 2 || hosts > 4096)
            {
                throw new IllegalArgumentException("--hosts must be 2 to 4096, not " + hosts);
            }
        }
        if (!(load > 0 && load <= 1))
        {
            throw new IllegalArgumentException("--load must be in (0, 1], not " + load);
        }
        if (asyHosts < 16)
        {
            throw new IllegalArgumentException("--asy-hosts must be at least 16, not " + asyHosts);
        }

        final List<String[]> rows = new ArrayList<>();
        for (final RunResult result : run(new OptionsBuilder()
            .include(TimeslotAllocatorBenchmark.class.getName() + ".allocateBatch")
            .param("hosts", synHosts.stream().map(String::valueOf).toArray(String[]::new))
            .param("metric", metricNames.toArray(new String[0]))
            .param("load", String.valueOf(load))))
        {
            final double grantsPerBatch = secondary(result, "grants") / secondary(result, "batches");
            final String name = "syn_" + result.getParams().getParam("metric").toLowerCase(Locale.ROOT);
            final String hosts = result.getParams().getParam("hosts");
            final Result<?> primary = result.getPrimaryResult();
            rows.add(row(name, hosts, primary.getScore() / grantsPerBatch, "ns_per_slot",
                primary.getScoreError() / grantsPerBatch));
            rows.add(row(name, hosts, grantsPerBatch / (64.0 * Integer.parseInt(hosts)), "slot_utilization",
                Double.NaN));
            rows.add(row(name, hosts, secondary(result, "gc.alloc.rate.norm"), "bytes_per_batch", Double.NaN));
        }
        for (final RunResult result : run(new OptionsBuilder()
            .include(RateNormalizerBenchmark.class.getName() + ".(warm|cold)")
            .param("hosts", String.valueOf(asyHosts))))
        {
            final String label = result.getParams().getBenchmark();
            final String name = "asy_" + label.substring(label.lastIndexOf('.') + 1);
            final String hosts = result.getParams().getParam("hosts");
            final Result<?> primary = result.getPrimaryResult();
            rows.add(row(name, hosts, primary.getScore(), "ms_per_normalization", primary.getScoreError()));
            rows.add(row(name, hosts, secondary(result, "iterations") / secondary(result, "normalizations"),
                "iterations", Double.NaN));
            rows.add(row(name, hosts, secondary(result, "gc.alloc.rate.norm"), "bytes_per_normalization",
                Double.NaN));
        }
        print(System.out, rows, csv);
        return 0;
    }

    private Collection<RunResult> run(final ChainedOptionsBuilder options) throws RunnerException
    {
        options.addProfiler(GCProfiler.class)
            .shouldFailOnError(true)
            .resultFormat(ResultFormatType.TEXT)
            .result("/dev/null");
        if (quick)
        {
            options.forks(1).warmupIterations(2).warmupTime(TimeValue.seconds(1))
                .measurementIterations(3).measurementTime(TimeValue.seconds(1));
        }
        else
        {
            options.forks(2).warmupIterations(5).warmupTime(TimeValue.seconds(1))
                .measurementIterations(5).measurementTime(TimeValue.seconds(2));
        }
        return new Runner(options.build(), OutputFormatFactory.createFormatInstance(System.err, VerboseMode.NORMAL))
            .run();
    }

    private static String[] row(
        final String name, final String hosts, final double value, final String unit, final double error)
    {
        return new String[]{ name, hosts, String.format(Locale.ROOT, "%.3f", value), unit,
            Double.isNaN(error) ? "" : String.format(Locale.ROOT, "%.3f", error) };
    }

    @SuppressWarnings("rawtypes")
    private static double secondary(final RunResult result, final String suffix)
    {
        for (final var entry : result.getSecondaryResults().entrySet())
        {
            if (entry.getKey().endsWith(suffix))
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
            out.println("benchmark,hosts,value,unit");
            for (final String[] row : rows)
            {
                out.println(row[0] + "," + row[1] + "," + row[2] + "," + row[3]);
            }
            return;
        }
        out.printf(Locale.ROOT, "%-10s %6s %14s %-24s %10s%n", "benchmark", "hosts", "value", "unit", "± error");
        for (final String[] row : rows)
        {
            out.printf(Locale.ROOT, "%-10s %6s %14s %-24s %10s%n", row[0], row[1], row[2], row[3], row[4]);
        }
    }
}
