package io.pfabric.experiment;

import io.pfabric.analysis.ClassReport;
import io.pfabric.analysis.PathRtts;
import io.pfabric.common.topology.Rates;
import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.workload.WorkloadMix;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Map;

/**
 * The class experiment's {@code README.md}: the command, the settings, the table of {@code classes.csv}, the
 * both-backlogged line, the plot and what each file holds.
 */
final class ClassExperimentReport
{
    private ClassExperimentReport()
    {
    }

    /**
     * Write the README.
     *
     * @param settings      what ran.
     * @param outcome       what came out.
     * @param configuration the hosts' transport settings.
     * @param rtts          the measured base RTTs.
     * @param file          where to write.
     * @throws IOException if it cannot be written.
     */
    static void write(final ClassExperiment.Settings settings, final ClassExperiment.Outcome outcome,
        final TransportConfiguration configuration, final PathRtts rtts, final Path file) throws IOException
    {
        final StringBuilder md = new StringBuilder();
        md.append("# pfabric experiment classes on ").append(settings.topologySpec()).append(" at ")
            .append(Rates.format(settings.rateBitsPerSec())).append("\n\n");
        md.append("Run ").append(Instant.now().truncatedTo(ChronoUnit.SECONDS)).append(String.format(Locale.ROOT,
            " in %d min %02d s of wall time and %.0f s of CPU time (this process: every switch and host) with:%n%n",
            outcome.wallSec() / 60, outcome.wallSec() % 60, outcome.cpuSec()));
        md.append("```sh\n").append(settings.commandLine()).append("\n```\n\n");
        md.append("## Settings\n\n");
        md.append("- Fabric: `").append(settings.topologySpec()).append("` in network namespaces, every switchd in " +
            "the experiment's process, every link ").append(Rates.format(settings.rateBitsPerSec())).append(".\n");
        md.append(String.format(Locale.ROOT, "- `%s`: `pfabric-classes` queues of %,d B with classes `%s` on every " +
            "switch port, and hosts sharing their links between the same classes by deficit round robin. `%s`: " +
            "plain pFabric queues of %,d B, hosts sending by SRPT over all their flows. The same trace for both.%n",
            ClassReport.CLASSES_SCHEME, DisciplineKind.PFABRIC_CLASSES.defaultCapacityLength(), settings.classes(),
            ClassReport.PLAIN_SCHEME, DisciplineKind.PFABRIC.defaultCapacityLength()));
        md.append("- Applications (flows starting within ").append(String.format(Locale.ROOT, "%.0f ms",
            settings.durationNs() / 1e6)).append(", seed ").append(settings.seed()).append("):");
        for (final WorkloadMix.App app : settings.apps())
        {
            final int trafficClass = settings.classes().classOf(app.dscp());
            md.append(String.format(Locale.ROOT, " %s at load %s in DSCP %d (class %d, weight %d), %,d flows;",
                app.workload(), app.load(), app.dscp(), trafficClass, settings.classes().weight(trafficClass),
                outcome.flowsByDscp().getOrDefault(app.dscp(), 0L)));
        }
        md.setLength(md.length() - 1);
        md.append(".\n");
        md.append(String.format(Locale.ROOT, "- hostd: initial window %d packets, cap %d, timeout %.0f us; base RTT " +
            "(best of 20 one-segment flows on the idle fabric, `base-rtt.csv`) largest %.1f us.%n",
            configuration.initialWindowPackets(), configuration.maxWindowPackets(), configuration.timeoutNs() / 1e3,
            rtts.maxNs() / 1e3));
        for (final Map.Entry<String, Long> entry : outcome.incomplete().entrySet())
        {
            md.append("- ").append(entry.getKey()).append(": ").append(entry.getValue())
                .append(" flows incomplete.\n");
        }
        md.append(String.format(Locale.ROOT, "- The counters were sampled at most %.1f ms after their time.%n",
            outcome.lateSamplesNs() / 1e6));
        ExperimentReport.appendFidelity(md, outcome.fidelity());
        md.append("\n## Shares and small flows\n\n");
        md.append("`delivered` is the pFabric payload the ports down to hosts sent, per DSCP, in the window; " +
            "`backlogged` is the bytes (frame lengths) each class sent at any switch port while every class was " +
            "backlogged there, in the window; small flows are those of at most 100 KB, their FCT normalized.\n\n");
        md.append("| scheme | DSCP | app | weight share | delivered B | share | backlogged share | small n | " +
            "small mean | small p99 | ideal-class mean | ideal-class p99 |\n");
        md.append("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (final ClassReport.Row row : outcome.rows())
        {
            md.append(String.format(Locale.ROOT, "| %s | %d | %s | %.2f | %,d | %.3f | %s | %d | %.2f | %.2f | " +
                "%.2f | %.2f |%n", row.scheme(), row.app().dscp(), row.app().workload(), row.weightShare(),
                row.deliveredBytes(), row.throughputShare(), row.backloggedBytes() < 0 ? "" :
                String.format(Locale.ROOT, "%.3f", row.backloggedShare()), row.small().count(), row.small().mean(),
                row.small().p99(), row.idealClass().mean(), row.idealClass().p99()));
        }
        md.append("\n").append(outcome.backlogged()).append(".\n\n");
        md.append("![classes](classes.png)\n\n");
        md.append("## Files\n\n");
        md.append("- `classes.csv`: the table above (`").append(ClassReport.CLASSES_HEADER).append("`).\n");
        md.append("- `throughput.csv`: payload bytes per scheme, bin (a fortieth of the duration) and DSCP, on the " +
            "ports down to hosts, to the end of the run (the last bin ends with it).\n");
        md.append("- `ports.csv`: under ").append(ClassReport.CLASSES_SCHEME).append(", per switch port and class " +
            "in the window, bytes sent, bytes sent while every class was backlogged, that share and the port's " +
            "stretches of it (`").append(ClassExperiment.PORTS_HEADER).append("`).\n");
        md.append("- `counters-SCHEME-LOAD.csv`: every switch port's counters over the run, per DSCP and per class " +
            "included, and the hosts' kernel drops.\n");
        md.append("- `summary.csv`: normalized FCT per scheme and per `SCHEME:dscpN`; `fct-SCHEME-LOAD.csv` every " +
            "flow with its DSCP; `trace-LOAD.csv` the trace; `fct-ideal-*` Ideal over every flow, `fct-ideal-class-*` " +
            "Ideal over each class's flows on links at its share of the weights.\n");
        Files.writeString(file, md.toString(), StandardCharsets.UTF_8);
    }
}
