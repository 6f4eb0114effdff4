package io.pfabric.cli;

import io.pfabric.experiment.Calibration;
import io.pfabric.experiment.Experiment;
import io.pfabric.experiment.ExperimentSettings;
import io.pfabric.analysis.ResultsTable;
import io.pfabric.common.config.Quantities;
import io.pfabric.hostd.workload.DeadlineSpec;
import io.pfabric.hostd.workload.FlowSizeDistribution;
import io.pfabric.common.topology.Topology;
import io.pfabric.common.topology.Rates;
import io.pfabric.common.topology.TopologyArgument;
import io.pfabric.common.topology.TopologySpec;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code pfabric experiment}: normalized FCT against load for pFabric, its line-rate variant and kernel TCP on an
 * emulated fabric, with Ideal for the same traces.
 */
@Command(
    name = "experiment",
    mixinStandardHelpOptions = true,
    header = "Normalized FCT against load: pfabric, linerate and kernel TCP on an emulated fabric, and Ideal.",
    description = {
        "For each scheme, brings the fabric up in network namespaces (switchd on every switch: pFabric queues of " +
            "36,000 B for pfabric and linerate, drop-tail queues of 225,000 B for tcp), measures the base RTT of " +
            "each class of path once, replays every load's trace (the same trace for every scheme: Poisson " +
            "arrivals, sizes from the workload, uniformly random other hosts) with hostd's transport or kernel TCP " +
            "(pooled connections, minimum RTO lowered to a few base RTTs), and tears the fabric down; then " +
            "computes Ideal for every trace. Writes to --out: fct-SCHEME-LOAD.csv per run, trace-LOAD.csv, " +
            "base-rtt.csv, summary.csv (" + ResultsTable.FIDELITY_CSV_HEADER + "), fct-vs-load.png and README.md " +
            "with the table and this command. Needs root, except on the loopback testbed.",
        "Progress goes to stderr, the table to stdout. Ctrl-C stops the run and tears the fabric down.",
        "pfabric experiment classes runs applications in traffic classes instead (see its --help)." },
    customSynopsis = {
        "pfabric experiment --out=DIR [-hV] [--live] [--topo=SPEC|FILE]",
        "       [--testbed=netns|mininet|loopback] [--rate=RATE] [--workload=NAME|FILE]",
        "       [--loads=L[,L...]] [--schemes=S[,S...]] [--flows=N] [--seed=N]",
        "       [--deadlines=exp:MEAN[,below=SIZE]] [--cc=NAME]",
        "       [--tcp-rto-min=DURATION|auto] [--grace=DURATION]",
        "   or: pfabric experiment classes --out=DIR [OPTIONS] (see its --help)" },
    subcommands = { ExperimentClassesCommand.class })
public final class ExperimentCommand implements Callable<Integer>
{
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--testbed", defaultValue = "netns", paramLabel = "netns|mininet|loopback",
        description = "Where the fabric runs: netns (network namespaces made here, every switch in this process; " +
            "the default), mininet (Mininet builds the fabric with testbed/mininet's PfabricSwitch, one switchd " +
            "process per switch; needs the mininet package) or loopback (no privilege: star:N only, switch ports " +
            "are VXLAN tunnels on 127.0.0.1 from UDP port " + Experiment.LOOPBACK_FIRST_UDP_PORT + ", no kernel " +
            "TCP).")
    String testbed;

    @Mixin
    EmulatedFabricOptions fabric;

    @Option(names = "--workload", defaultValue = "websearch", paramLabel = "NAME|FILE",
        description = "websearch, datamining or a CDF file (default: ${DEFAULT-VALUE}).")
    String workload;

    @Option(names = "--loads", defaultValue = "0.2,0.4,0.6,0.8", split = ",", paramLabel = "L[,L...]",
        hideParamSyntax = true,
        description = "Offered loads on the access links (default: ${DEFAULT-VALUE}).")
    List<Double> loads;

    @Option(names = "--schemes", defaultValue = "pfabric,linerate,tcp", split = ",", paramLabel = "S[,S...]",
        hideParamSyntax = true,
        description = "Of pfabric, linerate, tcp, droptail (hostd's transport over drop-tail queues), " +
            "pfabric-edf (hostd's deadline priorities over pfabric-edf queues; needs --deadlines) and pias (kernel " +
            "TCP with ECN whose sockets' DSCP follows the bytes each flow has written against PIAS's thresholds, on " +
            "pias queues) (default: ${DEFAULT-VALUE}); Ideal is always computed, and pfabric-sim and pias-sim, the " +
            "simulator on the same traces, beside pfabric and pias.")
    List<String> schemes;

    @Option(names = "--discipline", paramLabel = "NAME[:PARAMS]",
        description = "The switch queues of pfabric and linerate (default: pfabric): strict:N[:model|equal|T1,...] " +
            "(model and equal thresholds computed for each load), sp-pifo[:N[:shared]] or aifo[:k=K,w=W,s=S], each " +
            "with its default buffer; on the netns and loopback testbeds.")
    String discipline;

    @Option(names = "--flows", defaultValue = "500", paramLabel = "N",
        description = "Flows per load (default: ${DEFAULT-VALUE}).")
    long flows;

    @Option(names = "--deadlines", paramLabel = "exp:MEAN[,below=SIZE]",
        description = "Give every flow smaller than SIZE (default 200KB) a deadline drawn from an exponential " +
            "distribution of mean MEAN, at least 1.25 x its minimum FCT (the measured base RTT of its path, then " +
            "its further segments at --rate), as the paper's deadline runs do; the FCT logs then record each " +
            "deadline and whether it was met, and DIR/deadlines.csv the fraction met per scheme and load.")
    String deadlines;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "N", description = "Seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", paramLabel = "DIR",
        description = "Results directory (required).")
    Path out;

    @Option(names = "--cc", defaultValue = "cubic", paramLabel = "NAME",
        description = "Congestion control of the TCP baseline: cubic (default), bbr or reno.")
    String congestionControl;

    @Option(names = "--tcp-rto-min", defaultValue = "auto", paramLabel = "DURATION|auto",
        description = "Minimum RTO of the TCP baseline; auto (the default) = 3 x the largest base RTT, at least 1ms.")
    String tcpRtoMin;

    @Option(names = "--grace", defaultValue = "30s", paramLabel = "DURATION",
        description = "How long a run waits for flows after its last start (default: ${DEFAULT-VALUE}).")
    String grace;

    @Option(names = "--calibrate",
        description = "Find the fastest link rate this machine can emulate --topo at: a binary search over " +
            "100m, 200m, 300m, 500m and 1g (three probes at most) for the highest rate at which a pfabric and a tcp " +
            "run (droptail on loopback) of --workload at the largest of --loads, --flows flows, both keep their " +
            "invariants; each probe's results go to --out/rate-RATE. The rate is recorded in " +
            ".pfabric/calibration.csv, and experiment and demo then warn when asked for more. --rate and --schemes " +
            "are not used.")
    boolean calibrate;

    @Option(names = "--live",
        description = "Show the fabric's switch ports and hosts as 'pfabric top' shows a testbed's, redrawn every " +
            "second on standard output while the experiment runs.")
    boolean live;

    /**
     * {@inheritDoc}
     */
    public Integer call() throws IOException
    {
        if (null == out)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "Missing required option: '--out=DIR'");
        }
        if (!List.of("cubic", "bbr", "reno").contains(congestionControl))
        {
            throw new IllegalArgumentException("--cc must be cubic, bbr or reno, not '" + congestionControl + "'");
        }
        final TopologyArgument fabricTopology = fabric.topology(testbed);
        final long rateBitsPerSec = fabricTopology.rateBitsPerSec();
        final Topology topology;
        if ("loopback".equals(testbed))
        {
            if (!fabricTopology.shape().isStar())
            {
                throw new IllegalArgumentException(
                    "--testbed loopback takes --topo star:N only, not '" + fabric.topo + "'");
            }
            topology = Experiment.loopbackStar(fabricTopology.shape().hostsPerLeaf(), rateBitsPerSec);
        }
        else
        {
            topology = fabricTopology.topology();
        }
        try
        {
            FlowSizeDistribution.load(workload);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("--workload: " + ex.getMessage(), ex);
        }
        final ExperimentSettings settings = new ExperimentSettings(testbed, fabric.topo, topology, rateBitsPerSec,
            workload, loads, schemes, flows, seed, out, congestionControl,
            "auto".equalsIgnoreCase(tcpRtoMin) ? 0 : Quantities.parseNanos(tcpRtoMin), Quantities.parseNanos(grace),
            commandLine(), null == deadlines ? null :
            DeadlineSpec.parse(deadlines).requireSelectsFrom(FlowSizeDistribution.load(workload)),
            null == discipline ? null : DisciplineOption.check("--discipline", discipline).toString());
        if (!"loopback".equals(testbed) && !"root".equals(System.getProperty("user.name")))
        {
            throw new IllegalStateException("needs root, to make network namespaces and open raw sockets");
        }
        final long startNs = System.nanoTime();
        if (calibrate)
        {
            if ("mininet".equals(testbed))
            {
                throw new IllegalArgumentException("--calibrate needs --testbed netns or loopback: Mininet's " +
                    "switches run in processes of their own, whose departures are not watched");
            }
            final Calibration.Result result = Calibration.run(settings, rate -> "loopback".equals(testbed) ?
                Experiment.loopbackStar(TopologySpec.parse(fabric.topo).hostsPerLeaf(), rate) :
                TestbedCommand.topology(fabric.topo, rate, "pfabric"), TestbedCommand.experimentPrefix(), System.err);
            Calibration.record(Calibration.file(), settings, result);
            System.out.println(0 == result.rateBitsPerSec() ?
                "calibration: no rate tried kept the invariants of " + fabric.topo + " on this machine" :
                "calibration: " + Rates.format(result.rateBitsPerSec()) + " is the fastest rate of " +
                    Calibration.RATES_BITS_PER_SEC.stream().map(Rates::format).toList() + " at which " + fabric.topo +
                    " kept its invariants on this machine");
            System.err.println("pfabric experiment --calibrate: recorded in " + Calibration.file());
            return 0;
        }
        final Experiment experiment = new Experiment(settings, System.err, TestbedCommand.experimentPrefix())
            .publish(TestbedCommand.pfabricDirectory(), "experiment");
        final Experiment.Outcome outcome;
        try (LiveView view = live ? new LiveView(System.out, "experiment") : null)
        {
            if (null != view)
            {
                experiment.observe(view);
            }
            outcome = experiment.runStoppingOnSignal("pfabric experiment");
        }
        final long wallSec = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNs);
        ResultsTable.print(System.out, outcome.lines(), outcome::fidelityOf);
        System.err.printf(Locale.ROOT, "pfabric experiment: done in %d min %02d s; results in %s (README.md, " +
            "summary.csv, fct-vs-load.png)%n", wallSec / 60, wallSec % 60, out);
        return 0;
    }

    private String commandLine()
    {
        final StringBuilder line = new StringBuilder("./pfabric experiment");
        final List<String> args = spec.commandLine().getParseResult().originalArgs();
        final int first = !args.isEmpty() && spec.name().equals(args.get(0)) ? 1 : 0;
        for (final String arg : args.subList(first, args.size()))
        {
            line.append(' ').append(arg.matches("[A-Za-z0-9_./:,=@%+-]+") ? arg : "'" + arg + "'");
        }
        return line.toString();
    }
}
