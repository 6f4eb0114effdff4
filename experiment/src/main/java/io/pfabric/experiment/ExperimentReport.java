package io.pfabric.experiment;

import io.pfabric.analysis.FctAnalysis;
import io.pfabric.analysis.ResultsTable;
import io.pfabric.common.topology.Rates;
import io.pfabric.dataplane.queue.DisciplineKind;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The results directory's {@code README.md}: the command, the settings, the table and the plot.
 */
public final class ExperimentReport
{
    private ExperimentReport()
    {
    }

    /**
     * Write the README.
     *
     * @param settings what ran.
     * @param outcome  what came out.
     * @param wallSec  how long it took.
     * @param file     where to write.
     * @throws IOException if it cannot be written.
     */
    public static void write(final ExperimentSettings settings, final Experiment.Outcome outcome, final long wallSec,
        final Path file) throws IOException
    {
        final StringBuilder md = new StringBuilder();
        md.append("# pfabric experiment: ").append(settings.workload()).append(" on ")
            .append(settings.topologySpec()).append(" at ").append(Rates.format(settings.rateBitsPerSec()))
            .append("\n\n");
        md.append("Run ").append(Instant.now().truncatedTo(ChronoUnit.SECONDS)).append(String.format(Locale.ROOT,
            " in %d min %02d s with:\n\n", wallSec / 60, wallSec % 60));
        md.append("```sh\n").append(settings.commandLine()).append("\n```\n\n");
        md.append("## Settings\n\n");
        md.append("- Fabric: `").append(settings.topologySpec()).append("` ")
            .append(switch (settings.testbed())
            {
                case "mininet" -> "built by Mininet (a switchd process per switch)";
                case "loopback" -> "on loopback, no privilege: VXLAN-over-UDP switch ports, hosts' frames in the " +
                    "tunnels, switchd in the experiment's process";
                default -> "in network namespaces (every switchd in the experiment's process)";
            })
            .append(", every link ").append(Rates.format(settings.rateBitsPerSec()))
            .append("; hosts run hostd's transport (pfabric, linerate, droptail) or kernel TCP (tcp).\n");
        md.append(String.format(Locale.ROOT, "- Queues: pfabric and linerate on pFabric queues of %,d B per port; " +
            "tcp and droptail (hostd's transport, priorities ignored by the switch) on drop-tail queues of %,d B.%n", DisciplineKind.PFABRIC.defaultCapacityLength(),
            DisciplineKind.DROPTAIL.defaultCapacityLength()));
        if (null != settings.discipline())
        {
            md.append("- pfabric and linerate ran on `").append(settings.discipline()).append("` queues of its " +
                "default buffer instead (strict:N's model or equal thresholds computed for each load's workload and " +
                "load, and the fabric brought up again for each load); pfabric-sim on the same.\n");
        }
        if (settings.schemes().contains("pias"))
        {
            md.append("- pias: kernel TCP on `pias` queues of 225,000 B per port (8 strict-priority queues by DSCP, " +
                "ECN marking above 22,500 B per queue); pias-sim: the simulator's PIAS (DCTCP hosts tagging by the " +
                "same thresholds) on the same queues, base RTTs and minimum RTO.\n");
        }
        md.append(String.format(Locale.ROOT, "- Workload: %s, loads %s, %,d flows per load, seed %d; the same " +
            "trace (`trace-LOAD.csv`) for every scheme and for Ideal.%n", settings.workload(),
            settings.loads().stream().map(ExperimentSettings::loadLabel).toList(), settings.flows(),
            settings.seed()));
        md.append(String.format(Locale.ROOT, "- Base RTT (best of 20 one-segment flows on the idle fabric, per " +
            "class of path, `base-rtt.csv`): largest %.1f us. Normalized FCT = FCT / (base RTT + (segments - 1) x " +
            "packet time at the access rate).%n", outcome.rtts().maxNs() / 1e3));
        md.append("- hostd (pfabric, linerate): ").append(outcome.transportSettings()).append(".\n");
        if (null != settings.deadlines())
        {
            md.append(String.format(Locale.ROOT, "- Deadlines: every flow under %,d B has one, drawn from an " +
                "exponential distribution of mean %.0f us, at least 1.25 x its minimum FCT (the measured base RTT " +
                "of its path, then its further segments at the link rate). pfabric-edf: hostd's deadline " +
                "priorities (demoted to the least urgent once a flow cannot finish in time at line rate) on " +
                "pfabric-edf queues of %,d B per port (a deadline queue served first, and another, half each). " +
                "`deadlines.csv`: the fraction of deadline flows that met their deadline; " +
                "`deadlines-other-fct.csv`: the other flows' mean normalized FCT.%n", settings.deadlines().belowBytes(),
                settings.deadlines().meanNs() / 1e3, DisciplineKind.PFABRIC_EDF.defaultCapacityLength()));
        }
        if (null != outcome.tcpSettings())
        {
            md.append("- TCP baseline: ").append(outcome.tcpSettings()).append(".\n");
        }
        if (settings.schemes().contains("pfabric") && !settings.simulates())
        {
            md.append("- pfabric-sim: not run: the simulator builds stars, leaf-spines and fat-trees, not the fabric " +
                "of a topology file.\n");
        }
        if (settings.simulates())
        {
            md.append("- pfabric-sim: pFabric in the simulator on the same traces: hostd's transport and switchd's " +
                "queues on virtual time, the same topology, rates, pFabric buffers and transport settings, every link " +
                "given the one-way delay that makes the simulated base RTTs equal the measured ones. What the " +
                "simulator leaves out is what an emulated fabric adds to that idle round trip: the time a packet " +
                "waits for a thread to wake (a host's or a switch's), batching in the kernel and in switchd, the " +
                "scheduler sharing two cores among every switch and host, and the jitter of all of these. The gap " +
                "between pfabric and pfabric-sim is their cost.\n");
        }
        appendFidelity(md, outcome.fidelity());
        md.append("\n## Normalized FCT\n\n");
        md.append("| scheme | load | bin | count | incomplete | mean | p50 | p99 | fidelity |\n");
        md.append("|---|---|---|---:|---:|---:|---:|---:|---|\n");
        for (final ResultsTable.Line line : outcome.lines())
        {
            final FctAnalysis.Summary s = line.summary();
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %d | %d | %.3f | %.3f | %.3f | %s |%n",
                line.scheme(), line.load(), line.bin(), s.count(), s.incomplete(), s.mean(), s.p50(), s.p99(),
                outcome.fidelityOf(line)));
        }
        md.append("\n![normalized FCT against load](fct-vs-load.png)\n\n");
        md.append("## Files\n\n");
        md.append("- `fct-SCHEME-LOAD.csv`: every flow (`flow_id,src,dst,size_bytes,start_ns,end_ns,fct_ns,timeouts," +
            "retransmitted_bytes,scheme`); an empty `end_ns` is a flow that never completed.\n");
        md.append("- `summary.csv`: the table above (`").append(ResultsTable.FIDELITY_CSV_HEADER).append("`).\n");
        md.append("- Recompute it: `./pfabric analyze ").append(settings.out()).append(" --rate ")
            .append(Rates.format(settings.rateBitsPerSec())).append("`.\n");
        Files.writeString(file, md.toString(), StandardCharsets.UTF_8);
    }

    /**
     * Whether each run's invariants held, with the figures; a warning above the table when some broke.
     */
    static void appendFidelity(final StringBuilder md, final Map<String, Fidelity> runs)
    {
        if (runs.isEmpty())
        {
            return;
        }
        md.append("\n## Fidelity\n\n");
        final Set<String> broken = Fidelity.brokenRuns(runs);
        if (!broken.isEmpty())
        {
            md.append("**Warning:** the invariants of an emulated fabric broke in ").append(broken)
                .append(": their figures describe this machine more than the network (marked x in the plot).\n\n");
        }
        md.append(String.format(Locale.ROOT, "Each run is watched (`Fidelity`): `port-rate` breaks when more than " +
            "%.0f%% of the switch ports' backlogged time is in periods (of at most 10 ms of wire time) that departed " +
            "below 95%% of the configured rate; `host-lag` when more than %.0f%% of hostd's sends that waited for " +
            "the host's pacer left after the host's link had gone idle. Idle CPU (from `/proc/stat`, per second), " +
            "the one-minute load average at the end of the run and the forwarders' longest stall while a port held " +
            "frames are reported, not judged.%n%n", 100 * Fidelity.MAX_SLOW_SHARE,
            100 * Fidelity.MAX_LATE_SEND_SHARE));
        md.append("| run | fidelity | backlogged below rate | backlogged time | rate achieved | worst port | " +
            "late sends | worst lag | forwarder stall | idle CPU min / mean | load average |\n");
        md.append("|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|\n");
        runs.forEach((run, f) -> md.append(String.format(Locale.ROOT,
            "| %s | %s | %s | %.2f s | %.1f%% | %s | %s | %s | %.2f ms | %s / %s | %.2f |%n", run.replace(',', ' '),
            f.label(), f.switchesWatched() ? String.format(Locale.ROOT, "%.1f%%", 100 * f.slowShare()) : "-",
            f.backloggedNs() / 1e9, 100 * f.achievedRate(), null == f.worstPort() ? "-" :
                String.format(Locale.ROOT, "%s %.1f%%", f.worstPort(), 100 * f.worstPortSlowShare()),
            f.hostsWatched() ? String.format(Locale.ROOT, "%.1f%% of %,d", 100 * f.lateSendShare(), f.pacerWaits()) :
                "- (kernel TCP)",
            f.hostsWatched() ? String.format(Locale.ROOT, "%.2f ms", f.longestSendLagNs() / 1e6) : "-",
            f.longestBackloggedGapNs() / 1e6, percent(f.idleCpuMin()), percent(f.idleCpuMean()), f.loadAverage())));
    }

    private static String percent(final double share)
    {
        return Double.isNaN(share) ? "?" : String.format(Locale.ROOT, "%.0f%%", 100 * share);
    }
}
