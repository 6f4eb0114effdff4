package io.pfabric.cli;

import io.pfabric.analysis.ClassReport;
import io.pfabric.common.config.Quantities;
import io.pfabric.common.topology.TopologyArgument;
import io.pfabric.common.topology.TrafficClasses;
import io.pfabric.experiment.ClassExperiment;
import io.pfabric.hostd.workload.WorkloadMix;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code pfabric experiment classes}: applications in traffic classes on a fabric of network namespaces, run on
 * pFabric within the classes and on plain pFabric, with each class's share of the bytes delivered and its small
 * flows' FCT against Ideal within the class; {@code pfabric sim classes} on an emulated fabric.
 */
@Command(
    name = "classes",
    mixinStandardHelpOptions = true,
    header = "Applications in traffic classes on a namespace fabric: each class's throughput share and its small " +
        "flows' FCT.",
    description = {
        "Generates the mix of --app applications (each its workload, load and DSCP; flows starting within " +
            "--duration), brings the fabric up in network namespaces with pfabric-classes queues of --classes on " +
            "every switch port, measures the base RTTs, and replays the mix with hostd, the hosts sharing their " +
            "links between the same classes (scheme pfabric-classes); then the same trace on plain pFabric queues, " +
            "hosts sending by SRPT (scheme pfabric). Ideal over every flow (ideal) and within each class " +
            "(ideal-class: every host link at the class's share of the weights) come from the same trace.",
        "Reports per scheme and DSCP the pFabric payload bytes the switch ports down to hosts sent within the " +
            "window from a tenth of --duration to --duration (their per-DSCP counters, sampled every fortieth of " +
            "--duration), their share, and the small flows' (<= 100 KB) mean and 99th percentile normalized FCT " +
            "beside ideal-class's; and, under pfabric-classes, each class's bytes sent at every switch port while " +
            "every class was backlogged there (the queues' own counters, in the window): backlogged_bytes and " +
            "backlogged_share of classes.csv, per port in ports.csv, summed up in the last line printed.",
        "Writes DIR/classes.csv, throughput.csv, ports.csv, summary.csv, classes.png, README.md, the FCT logs, " +
            "the trace and each run's switch counters. Needs root. Progress goes to stderr, classes.csv to " +
            "stdout; Ctrl-C stops the run and tears the fabric down." })
public final class ExperimentClassesCommand implements Callable<Integer>
{
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--app", required = true, paramLabel = "WORKLOAD:LOAD[:dscp=D]",
        description = "An application, repeatable: its workload (websearch, datamining or a CDF file), load per " +
            "access link and DSCP, e.g. --app websearch:0.8:dscp=0 --app websearch:0.8:dscp=8; the loads add, so " +
            "the total may exceed 1.")
    List<String> apps;

    @Option(names = "--classes", defaultValue = "3:0-7;1:8-15", paramLabel = "SPEC",
        description = "Traffic classes of every switch port and host: weight:DSCPs separated by ';' " +
            "(default: ${DEFAULT-VALUE}).")
    String classes;

    @Option(names = "--duration", defaultValue = "5s", paramLabel = "DURATION",
        description = "Flows start within this time from the run's start (default: ${DEFAULT-VALUE}).")
    String duration;

    @Mixin
    EmulatedFabricOptions fabric;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "N", description = "Seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--grace", defaultValue = "60s", paramLabel = "DURATION",
        description = "How long a run waits for flows after its last start (default: ${DEFAULT-VALUE}).")
    String grace;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Results directory.")
    Path out;

    /**
     * {@inheritDoc}
     */
    public Integer call() throws IOException
    {
        final TopologyArgument topology = fabric.topology("netns");
        final List<WorkloadMix.App> parsed = new ArrayList<>();
        for (final String app : apps)
        {
            parsed.add(WorkloadMix.App.parse(app));
        }
        final ClassExperiment.Settings settings = new ClassExperiment.Settings(fabric.topo,
            topology.topology(), topology.rateBitsPerSec(), parsed,
            TrafficClasses.parse(classes), Quantities.parseNanos(duration), seed, out, Quantities.parseNanos(grace),
            commandLine());
        if (!"root".equals(System.getProperty("user.name")))
        {
            throw new IllegalStateException("needs root, to make network namespaces and open raw sockets");
        }
        final ClassExperiment.Outcome outcome =
            new ClassExperiment(settings, System.err, System.getProperty("pfabric.experiment.prefix",
                ClassExperiment.PREFIX)).publish(TestbedCommand.pfabricDirectory(), "experiment-classes")
                .runStoppingOnSignal("pfabric experiment classes");
        System.out.println(ClassReport.CLASSES_HEADER);
        for (final ClassReport.Row row : outcome.rows())
        {
            System.out.println(row.csv());
        }
        System.err.println(outcome.backlogged());
        outcome.fidelity().forEach((run, figures) -> System.err.printf(Locale.ROOT,
            "pfabric experiment classes: %s%s: fidelity %s (%s)%n", figures.isBroken() ? "WARNING " : "",
            run.substring(0, run.indexOf(',')), figures.label(), figures.figures()));
        System.err.printf(Locale.ROOT, "pfabric experiment classes: done in %d min %02d s (%.0f s CPU); results in " +
            "%s (README.md, classes.csv, classes.png)%n", outcome.wallSec() / 60, outcome.wallSec() % 60,
            outcome.cpuSec(), out);
        return 0;
    }

    private String commandLine()
    {
        final StringBuilder line = new StringBuilder("./pfabric experiment classes");
        for (final String arg : spec.commandLine().getParseResult().originalArgs())
        {
            line.append(' ').append(arg.matches("[A-Za-z0-9_./:,=@%+-]+") ? arg : "'" + arg + "'");
        }
        return line.toString();
    }
}
