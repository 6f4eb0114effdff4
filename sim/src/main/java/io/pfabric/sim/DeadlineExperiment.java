package io.pfabric.sim;

import io.pfabric.analysis.DeadlineReport;
import io.pfabric.analysis.FctAnalysis;
import io.pfabric.analysis.PathRtts;
import io.pfabric.hostd.workload.DeadlineSpec;
import io.pfabric.hostd.transport.PriorityPolicy;
import io.pfabric.hostd.workload.FctLogReader;
import io.pfabric.hostd.workload.FctLogWriter;
import io.pfabric.hostd.workload.FlowSizeDistribution;
import io.pfabric.hostd.workload.TraceFile;
import io.pfabric.hostd.workload.WorkloadTrace;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The pFabric paper's deadline experiment (§5.4.2, Figs 10 and 11) in the simulator: one trace at one load, its flows
 * below a size given deadlines of each mean in turn (exponential, at least 1.25 x the flow's minimum FCT), every
 * scheme run on each; the fraction of deadline flows that met their deadline and the other flows' mean normalized FCT,
 * against the mean deadline. Writes {@code DIR/mean-Nus/} (the trace with deadlines and each scheme's FCT log) for
 * every mean, {@code DIR/deadlines.csv} ({@link DeadlineReport#CSV_HEADER}), {@code DIR/deadlines-other-fct.csv} and
 * {@code DIR/deadlines.png}. Deterministic for a seed: the same flows for every mean, the same draws for every scheme.
 * <p>
 * A scheme that never reads a deadline (tcp, dctcp, ideal, and pfabric and linerate unless their priority is the
 * deadline) runs the same packets whatever the deadlines, so it runs once, at the first mean; its log at every other
 * mean is that run's, with that mean's deadlines and whether each was met.
 */
public final class DeadlineExperiment
{
    /**
     * What to run.
     *
     * @param fabric       the fabric.
     * @param settings     the schemes' settings on it.
     * @param workload     the flow sizes.
     * @param load         offered load per access link, in (0, 1).
     * @param flows        flows per run.
     * @param seed         of the trace, the deadlines and the spraying.
     * @param belowBytes   flows smaller than this get deadlines.
     * @param meansNs      the mean deadlines, one run per scheme each.
     * @param schemes      of {@link SimRun#SCHEMES}.
     */
    public record Config(SimFabric fabric, SimSettings settings, FlowSizeDistribution workload, double load,
        long flows, long seed, long belowBytes, List<Long> meansNs, List<String> schemes)
    {
        /**
         * Validate, before anything is written.
         */
        public Config
        {
            if (!(load > 0 && load < 1))
            {
                throw new IllegalArgumentException("--load must be between 0 and 1, not " + load);
            }
            if (flows < 1)
            {
                throw new IllegalArgumentException("--flows must be at least 1");
            }
            if (meansNs.isEmpty())
            {
                throw new IllegalArgumentException("--means needs at least one mean deadline");
            }
            for (final long meanNs : meansNs)
            {
                new DeadlineSpec(meanNs, belowBytes).requireSelectsFrom(workload);
            }
            if (schemes.isEmpty())
            {
                throw new IllegalArgumentException("--schemes needs at least one scheme");
            }
            for (final String scheme : schemes)
            {
                if (!SimRun.SCHEMES.contains(scheme))
                {
                    throw new IllegalArgumentException("the simulator runs " + SimRun.SCHEMES + ", not '" + scheme +
                        "'");
                }
            }
            meansNs = List.copyOf(meansNs);
            schemes = List.copyOf(schemes);
        }
    }

    private static final Set<String> DEADLINE_AGNOSTIC = Set.of("tcp", "dctcp", "tcp-per-flow", "dctcp-per-flow",
        "ideal");

    private DeadlineExperiment()
    {
    }

    /**
     * Whether a scheme's run is the same whatever the flows' deadlines.
     *
     * @param scheme   the scheme.
     * @param settings its settings.
     * @return true for tcp, dctcp, ideal, and pfabric and linerate without the deadline priority.
     */
    public static boolean isDeadlineAgnostic(final String scheme, final SimSettings settings)
    {
        if ("pfabric".equals(scheme) || "linerate".equals(scheme))
        {
            return PriorityPolicy.DEADLINE != settings.pfabric().priorityPolicy();
        }
        return DEADLINE_AGNOSTIC.contains(scheme);
    }

    /**
     * The directory of one mean's runs.
     *
     * @param out    the experiment's directory.
     * @param meanNs the mean deadline.
     * @return {@code out/mean-Nus}.
     */
    public static Path meanDirectory(final Path out, final long meanNs)
    {
        return out.resolve("mean-" + microseconds(meanNs) + "us");
    }

    /**
     * Run every scheme at every mean deadline and write the results.
     *
     * @param config   what to run.
     * @param out      the results directory.
     * @param progress where to report.
     * @return one row per mean and scheme, in that order.
     * @throws IOException if the results cannot be written.
     */
    public static List<DeadlineReport.Row> run(final Config config, final Path out, final PrintStream progress)
        throws IOException
    {
        final SimFabric fabric = config.fabric();
        final List<String> names = SimRun.hostNames(fabric);
        final PathRtts rtts = PathRtts.byClass(names, fabric::baseRttNs);
        final FctAnalysis analysis = new FctAnalysis(fabric.edgeRateBitsPerSec(), rtts, SimFabric.segmentWireLength());
        final List<WorkloadTrace.FlowSpec> plain = WorkloadTrace.generate(fabric.hosts(), config.load(),
            fabric.edgeRateBitsPerSec(), config.workload(), config.seed(), config.flows(), 0);
        Files.createDirectories(out);
        rtts.write(out.resolve("base-rtt.csv"));
        final String load = loadLabel(config.load());
        final List<DeadlineReport.Row> rows = new ArrayList<>();
        final Map<String, Path> onceRun = new HashMap<>();
        int run = 0;
        final int runs = config.meansNs().size() * config.schemes().size();
        for (final long meanNs : config.meansNs())
        {
            final List<WorkloadTrace.FlowSpec> trace = new DeadlineSpec(meanNs, config.belowBytes())
                .apply(plain, fabric::baseRttNs, fabric.edgeRateBitsPerSec(), SimFabric.segmentWireLength(),
                    config.seed());
            final Path directory = meanDirectory(out, meanNs);
            Files.createDirectories(directory);
            TraceFile.write(directory.resolve("trace-" + load + ".csv"), trace, names);
            for (final String scheme : config.schemes())
            {
                run++;
                progress.printf(Locale.ROOT, "sim deadlines: run %d of %d: %s, mean deadline %s us, load %s, %,d " +
                    "flows%n", run, runs, scheme, microseconds(meanNs), load, trace.size());
                final Path log = directory.resolve("fct-" + scheme + "-" + load + ".csv");
                final String cost;
                if (onceRun.containsKey(scheme))
                {
                    withDeadlines(onceRun.get(scheme), trace, log);
                    cost = "the run of " + onceRun.get(scheme).getParent().getFileName() + ", deadlines of this mean";
                }
                else
                {
                    final SimRun.Outcome outcome = SimRun.run(fabric, config.settings(), scheme, trace, config.seed(),
                        log, progress);
                    cost = String.format(Locale.ROOT, "%.1f s CPU, %d flows incomplete", outcome.cpuNs() / 1e9,
                        outcome.incomplete());
                    if (isDeadlineAgnostic(scheme, config.settings()))
                    {
                        onceRun.put(scheme, log);
                    }
                }
                final DeadlineReport.Row row = DeadlineReport.of(scheme, load, meanNs / 1e3, FctLogReader.read(log),
                    analysis, rtts::hostIndex);
                progress.printf(Locale.ROOT, "sim deadlines: %s at %s us: %d of %d deadlines met (%.3f), other " +
                    "flows' mean normalized FCT %.3f; %s%n", scheme, microseconds(meanNs), row.met(), row.flows(),
                    row.fractionMet(), row.otherMeanNormalized(), cost);
                rows.add(row);
            }
        }
        DeadlineReport.writeCsv(out.resolve("deadlines.csv"), rows);
        DeadlineReport.writeOtherCsv(out.resolve("deadlines-other-fct.csv"), rows);
        DeadlineReport.plot(rows, String.format(Locale.ROOT, "deadlines: %s at load %s, flows < %,d B with " +
            "deadlines, %,d flows per run", config.workload().name(), load, config.belowBytes(), config.flows()),
            out.resolve("deadlines.png"));
        return rows;
    }

    private static void withDeadlines(final Path runLog, final List<WorkloadTrace.FlowSpec> trace, final Path log)
        throws IOException
    {
        final Map<Long, WorkloadTrace.FlowSpec> byIndex = new HashMap<>();
        boolean marked = false;
        for (final WorkloadTrace.FlowSpec flow : trace)
        {
            byIndex.put(flow.flowIndex(), flow);
            marked |= 0 != flow.dscp();
        }
        try (FctLogWriter writer = new FctLogWriter(log, marked, true))
        {
            for (final FctLogReader.Row row : FctLogReader.read(runLog))
            {
                writer.append(row.flowId(), row.source(), row.destination(), row.sizeBytes(), row.startNs(),
                    row.endNs(), row.timeouts(), row.retransmittedBytes(), row.scheme(), row.dscp(),
                    byIndex.get(row.flowId()).deadlineNs());
            }
        }
    }

    private static String microseconds(final long ns)
    {
        return 0 == ns % 1_000 ? Long.toString(ns / 1_000) : String.format(Locale.ROOT, "%.3f", ns / 1e3);
    }

    private static String loadLabel(final double load)
    {
        final String text = String.format(Locale.ROOT, "%.3f", load);
        return text.replaceAll("0+$", "").replaceAll("\\.$", "");
    }
}
