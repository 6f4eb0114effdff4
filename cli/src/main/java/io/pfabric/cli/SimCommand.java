package io.pfabric.cli;

import io.pfabric.common.config.Quantities;
import io.pfabric.experiment.ExperimentSettings;
import io.pfabric.analysis.FctPlot;
import io.pfabric.analysis.DeadlineReport;
import io.pfabric.analysis.FctAnalysis;
import io.pfabric.analysis.PathRtts;
import io.pfabric.analysis.ResultsTable;
import io.pfabric.sim.JobRunner;
import io.pfabric.sim.SimFabric;
import io.pfabric.sim.SimSettings;
import io.pfabric.sim.SimRun;
import io.pfabric.hostd.workload.DeadlineSpec;
import io.pfabric.hostd.workload.FctLogReader;
import io.pfabric.hostd.workload.TraceFile;
import io.pfabric.hostd.workload.WorkloadMix;
import io.pfabric.hostd.workload.WorkloadTrace;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code pfabric sim}: the packet-level simulator, one scheme at one load; {@code pfabric sim sweep}: many.
 */
@Command(
    name = "sim",
    mixinStandardHelpOptions = true,
    header = "Simulate a paper-scale fabric running pfabric's own transport and switch queues.",
    description = {
        "A discrete-event simulation on virtual nanoseconds (default: the pFabric paper's 144 hosts, 9 leaves of 16 " +
            "at 10 Gb/s, 4 spines at 40 Gb/s, 2.7 us host links, 0.2 us core links, 36 KB queues) in which every " +
            "host runs hostd's transport (probe mode after 5 timeouts, SRPT, NIC pacing) and every switch port and " +
            "host NIC switchd's pFabric queue, with per-packet spraying. Schemes: pfabric, linerate, tcp and dctcp " +
            "(modelled in the simulator: NewReno with SACK on 225 KB drop-tail queues, and DCTCP on 225 KB queues " +
            "marking ECN above K, g = 1/16; initial window 12), ideal (the flow-level Ideal scheduler). tcp and dctcp " +
            "run on connections as the paper's ns-2 scripts keep them: 8 persistent connections per source and " +
            "destination, a flow taking the one idle longest with the window state its earlier flows left " +
            "(slow-start restart after an idle RTO), and a new connection, with a SYN and SYN-ACK first, when all " +
            "are busy. tcp-per-flow and dctcp-per-flow give each flow a fresh, open connection instead. pfabric-edf " +
            "(with --deadlines): pFabric-EDF, hostd's transport with deadline priorities on pfabric-edf queues, a " +
            "deadline queue and another of --buffer bytes each. pias: PIAS, DCTCP on connections as dctcp's whose " +
            "data packets carry a DSCP by the bytes their flow has sent against --pias-thresholds, on 225 KB pias " +
            "queues (strict priority by DSCP, ECN marking above DCTCP's K per queue).",
        "Settings follow the fabric, as hostd derives its own on an emulated one; they are printed before the runs. " +
            "On the paper's fabric (its rates, delays and buffer, any leaf-spine shape) they are the paper's: " +
            "pFabric's window 12, cap 23, timeout 45 us; TCP's and DCTCP's minimum RTO 200 us; DCTCP's K 15 full " +
            "frames (22.5 KB). On any other fabric, with R its longest path's base RTT and B its bandwidth-delay " +
            "product at the host rate: pFabric's window B in full packets (rounded up), its cap the buffer in full " +
            "packets less one (or B if larger), its timeout 3 R; the minimum RTO 200 us x R / R(paper) and K 15 " +
            "frames x B / B(paper), keeping the paper's ratios. --window, --window-cap and --timeout override " +
            "pFabric's; a timeout not longer than R draws a warning.",
        "Writes DIR/trace-LOAD.csv, DIR/fct-SCHEME-LOAD.csv, DIR/base-rtt.csv and DIR/summary.csv, and with " +
            "--deadlines DIR/deadlines.csv (" + DeadlineReport.CSV_HEADER + ") and DIR/deadlines-other-fct.csv " +
            "(the other flows' mean normalized FCT), also printed to stderr; progress goes to stderr. 'pfabric sim " +
            "sweep' runs several loads and schemes and draws the plot; 'pfabric sim deadlines' the deadline " +
            "experiment." },
    subcommands = { SimCommand.Sweep.class, SimClassesCommand.class, SimDeadlinesCommand.class,
        SimPdqSanityCommand.class, SimLossByHopCommand.class, SimPriorityCommand.class,
        SimFlowSwitchingCommand.class, SimProbeModeCommand.class, SimIncastCommand.class,
        SimSensitivityCommand.class })
public final class SimCommand implements Callable<Integer>
{
    @Mixin
    SimOptions options;

    @Option(names = "--load", defaultValue = "0.6", paramLabel = "L",
        description = "Offered load on the host links (default: ${DEFAULT-VALUE}).")
    double load;

    @Option(names = "--scheme", defaultValue = "pfabric", paramLabel = "S",
        description = "pfabric, linerate, tcp, dctcp, tcp-per-flow, dctcp-per-flow, pfabric-edf (with --deadlines), " +
            "pias, ideal, or PDQ: pdq (the pFabric paper's baseline: Early Start and Early Termination, probing " +
            "every " +
            "15 us), pdq-basic, pdq-es, pdq-es-et or pdq-full (the PDQ paper's variants); or, in the " +
            "sync-versus-async scenario, syn-ocf, " +
            "syn-srjf, syn-mmf, asy or pfabric (default: ${DEFAULT-VALUE}).")
    String scheme;

    @Option(names = "--format", defaultValue = "table", paramLabel = "table|csv",
        description = "table (default) or csv: " + ResultsTable.CSV_HEADER + ".")
    String format;

    /**
     * {@inheritDoc}
     */
    public Integer call() throws IOException
    {
        if (SyncSweep.applies(options, List.of(scheme)))
        {
            return SyncSweep.run(options, List.of(load), List.of(scheme), format, System.out, System.err);
        }
        final boolean csv = OutputFormats.isCsv(format);
        final List<ResultsTable.Line> lines = runAll(options, List.of(load), List.of(scheme), 1, System.err);
        if (csv)
        {
            ResultsTable.printCsv(System.out, lines, true);
        }
        else
        {
            ResultsTable.print(System.out, lines);
        }
        return 0;
    }

    /**
     * {@code pfabric sim sweep}.
     */
    @Command(
        name = "sweep",
        mixinStandardHelpOptions = true,
        header = "Simulate several loads and schemes on the same traces; summary table and plot.",
        description = "Runs every scheme at every load, the same trace per load for every scheme, then writes " +
            "DIR/summary.csv and DIR/fct-vs-load.png (normalized FCT against load: small-flow mean and p99, " +
            "medium mean, large mean, all). --format csv prints " + ResultsTable.CSV_HEADER + ".")
    public static final class Sweep implements Callable<Integer>
    {
        @Mixin
        SimOptions options;

        @Option(names = "--loads", defaultValue = "0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8", split = ",",
            paramLabel = "L[,L...]", hideParamSyntax = true, description = "Loads (default: ${DEFAULT-VALUE}).")
        List<Double> loads;

        @Option(names = "--schemes", defaultValue = "pfabric,tcp,dctcp,ideal", split = ",", paramLabel = "S[,S...]",
            hideParamSyntax = true,
            description = "Of pfabric, linerate, tcp, dctcp, tcp-per-flow, dctcp-per-flow, pfabric-edf, pias, ideal, " +
                "pdq, " +
                "pdq-basic, pdq-es, pdq-es-et, pdq-full (default: " +
                "${DEFAULT-VALUE}).")
        List<String> schemes;

        @Option(names = "--format", defaultValue = "table", paramLabel = "table|csv",
            description = "table (default) or csv: " + ResultsTable.CSV_HEADER + ".")
        String format;

        @Option(names = "--jobs", defaultValue = "1", paramLabel = "N",
            description = "Runs (one scheme at one load) simulated at once, each on a thread of its own; the files " +
                "are the same whatever N (default: ${DEFAULT-VALUE}).")
        int jobs;

        /**
         * {@inheritDoc}
         */
        public Integer call() throws IOException
        {
            if (jobs < 1)
            {
                throw new IllegalArgumentException("--jobs must be at least 1, not " + jobs);
            }
            if (SyncSweep.applies(options, schemes))
            {
                return SyncSweep.run(options, loads, schemes, format, System.out, System.err);
            }
            final boolean csv = OutputFormats.isCsv(format);
            final List<ResultsTable.Line> lines = runAll(options, loads, schemes, jobs, System.err);
            FctPlot.write(lines, String.format(Locale.ROOT, "simulated normalized FCT: %s on %s, %,d flows per " +
                "point", options.workloadLabel(), options.topo(), options.flows),
                options.out.resolve("fct-vs-load.png"));
            if (csv)
            {
                ResultsTable.printCsv(System.out, lines, true);
            }
            else
            {
                ResultsTable.print(System.out, lines);
            }
            return 0;
        }
    }

    static List<ResultsTable.Line> runAll(final SimOptions options, final List<Double> loads,
        final List<String> schemes, final int jobs, final PrintStream progress) throws IOException
    {
        if (null == options.out)
        {
            throw new IllegalArgumentException("give --out DIR");
        }
        if (!options.isMix())
        {
            for (final double load : loads)
            {
                Quantities.requireLoad(1 == loads.size() ? "--load" : "--loads", load);
            }
        }
        final SimFabric fabric = options.fabric();
        for (final String scheme : schemes)
        {
            SimRun.requireScheme(scheme);
        }
        if (options.flows < 1)
        {
            throw new IllegalArgumentException("--flows must be at least 1");
        }
        final SimSettings settings = options.settings(fabric);
        final boolean pdqSpray = options.pdqSpray();
        options.requireDeadlinesFor(schemes);
        options.requirePiasThresholdsFor(schemes);
        Files.createDirectories(options.out);
        progress.printf(Locale.ROOT, "sim: %s%n", settings.describe());
        if (fabric.hasClasses())
        {
            progress.printf(Locale.ROOT, "sim: pfabric and linerate on pfabric-classes queues, classes %s%n",
                fabric.classes());
        }
        if (null != settings.warning())
        {
            progress.printf(Locale.ROOT, "sim: warning: %s%n", settings.warning());
        }
        final List<String> names = SimRun.hostNames(fabric);
        final PathRtts rtts = PathRtts.byClass(names, fabric::baseRttNs);
        rtts.write(options.out.resolve("base-rtt.csv"));
        final List<Double> runLoads = options.isMix() ? List.of(WorkloadMix.totalLoad(options.mix())) : loads;
        final int runs = runLoads.size() * schemes.size();
        final AtomicInteger started = new AtomicInteger();
        final List<JobRunner.Job<Void>> work = new ArrayList<>();
        for (final double load : runLoads)
        {
            final String label = ExperimentSettings.loadLabel(load);
            final List<WorkloadTrace.FlowSpec> trace = options.trace(fabric, load);
            TraceFile.write(options.out.resolve("trace-" + label + ".csv"), trace, names);
            final SimFabric runFabric = options.fabricAt(fabric, load);
            final SimSettings runSettings = options.settingsAt(settings, load);
            if (runFabric.hasCommodityQueues())
            {
                progress.printf(Locale.ROOT, "sim: pfabric and linerate at load %s on %s queues of %,d B%n", label,
                    runFabric.discipline(), runFabric.bufferLength());
            }
            if (schemes.contains("pias"))
            {
                progress.printf(Locale.ROOT, "sim: pias at load %s: DCTCP hosts tagging by bytes sent against %s " +
                    "on %s queues of %,d B%n", label, runSettings.pias(), SimRun.piasQueues(runFabric, runSettings),
                    SimRun.BASELINE_BUFFER_LENGTH);
            }
            for (final String scheme : schemes)
            {
                work.add(() ->
                {
                    progress.printf(Locale.ROOT, "sim: run %d of %d: %s at load %s, %,d flows on %s%n",
                        started.incrementAndGet(), runs, scheme, label, trace.size(), options.topo());
                    final SimRun.Outcome outcome = SimRun.run(runFabric, runSettings, scheme, scheme, trace,
                        options.seed, options.out.resolve("fct-" + scheme + "-" + label + ".csv"), progress, null,
                        pdqSpray);
                    progress.printf(Locale.ROOT, "sim: %s at load %s: %.1f s wall, %.1f s CPU, %.3f s virtual, %,d " +
                        "events (%,.0f per second), %,d packets dropped, %,d sent ahead of a more urgent one, %d " +
                        "flows incomplete%s%n", scheme, label,
                        outcome.wallNs() / 1e9, outcome.cpuNs() / 1e9, outcome.virtualNs() / 1e9, outcome.events(),
                        outcome.eventsPerSecond(), outcome.dropped(), outcome.rankInversions(), outcome.incomplete(),
                        scheme.startsWith("tcp") || scheme.startsWith("dctcp") || "pias".equals(scheme) ?
                        String.format(Locale.ROOT,
                        ", %,d connections opened with a handshake", outcome.connectionsOpened()) : "");
                    return null;
                });
            }
        }
        JobRunner.run(work, jobs, "sim-run");
        final List<ResultsTable.Line> lines = ResultsTable.summarize(options.out,
            new FctAnalysis(fabric.edgeRateBitsPerSec(), rtts, SimFabric.segmentWireLength()), rtts::hostIndex);
        ResultsTable.writeCsv(options.out.resolve("summary.csv"), lines);
        final DeadlineSpec deadlines = options.deadlineSpec();
        if (null != deadlines)
        {
            final FctAnalysis analysis =
                new FctAnalysis(fabric.edgeRateBitsPerSec(), rtts, SimFabric.segmentWireLength());
            final List<DeadlineReport.Row> rows = new ArrayList<>();
            for (final double load : runLoads)
            {
                final String label = ExperimentSettings.loadLabel(load);
                for (final String scheme : schemes)
                {
                    rows.add(DeadlineReport.of(scheme, label, deadlines.meanNs() / 1e3, FctLogReader.read(
                        options.out.resolve("fct-" + scheme + "-" + label + ".csv")), analysis, rtts::hostIndex));
                }
            }
            DeadlineReport.writeCsv(options.out.resolve("deadlines.csv"), rows);
            DeadlineReport.writeOtherCsv(options.out.resolve("deadlines-other-fct.csv"), rows);
            DeadlineReport.print(progress, rows);
        }
        return lines;
    }
}
