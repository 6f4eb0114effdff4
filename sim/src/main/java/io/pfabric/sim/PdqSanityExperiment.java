package io.pfabric.sim;

import io.pfabric.analysis.DeadlineReport;
import io.pfabric.analysis.FctAnalysis;
import io.pfabric.analysis.PathRtts;
import io.pfabric.hostd.workload.FctLogReader;
import io.pfabric.hostd.workload.TraceFile;
import io.pfabric.hostd.workload.WorkloadTrace;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A sanity run of PDQ in the PDQ paper's own deadline setting (PDQ §5.1): a single-rooted tree of 17 nodes at 1 Gb/s
 * ({@code leafspine:4x3x1}: one root, four top-of-rack switches, twelve hosts), each link 25.1 us one way (the
 * paper's 0.1 us propagation and 25 us processing per hop), deadline flows of U[2 KB, 198 KB] with Poisson arrivals
 * at each host to a uniformly random other host, deadlines Exp(20 ms) but at least 3 ms. The tree is oversubscribed
 * 3:1 at its top-of-rack uplinks, so the load is the load offered to them, the bottleneck: each host offers
 * load x 1 Gb/s x 11/27 (its rack's 3 hosts send 9/11 of their flows up). Each of the PDQ paper's
 * variants and TCP runs the same trace per load through {@link SimRun}, as {@code pfabric sim} runs them (225 KB
 * drop-tail queues; the RTOs scaled to the fabric's RTT); the figure is application throughput, the fraction of flows
 * that meet their deadline.
 */
public final class PdqSanityExperiment
{
    /**
     * The schemes compared: the PDQ paper's four variants and TCP.
     */
    public static final List<String> SCHEMES = List.of("pdq-basic", "pdq-es", "pdq-es-et", "pdq-full", "tcp");

    /**
     * One way per link: 0.1 us propagation and 25 us processing (PDQ §5.1).
     */
    public static final long LINK_DELAY_NS = 25_100;

    static final long RATE_BITS_PER_SEC = 1_000_000_000L;
    static final long MIN_SIZE_BYTES = 2_000;
    static final long MAX_SIZE_BYTES = 198_000;
    static final long MEAN_DEADLINE_NS = 20_000_000;
    static final long MIN_DEADLINE_NS = 3_000_000;

    /**
     * A point of the results.
     *
     * @param scheme      the scheme.
     * @param load        offered load on the top-of-rack uplinks.
     * @param flows       deadline flows.
     * @param met         flows that completed by their deadline.
     * @param fractionMet application throughput.
     * @param terminated  flows that did not complete (Early Termination ended them).
     * @param cpuNs       CPU time of the run.
     */
    public record Point(String scheme, double load, int flows, int met, double fractionMet, int terminated,
        long cpuNs)
    {
    }

    private PdqSanityExperiment()
    {
    }

    /**
     * The 17-node tree.
     *
     * @return the fabric.
     */
    public static SimFabric fabric()
    {
        return new SimFabric(4, 3, 1, RATE_BITS_PER_SEC, RATE_BITS_PER_SEC, LINK_DELAY_NS, LINK_DELAY_NS,
            SimRun.BASELINE_BUFFER_LENGTH, "droptail");
    }

    /**
     * Deadline flows at a load: sizes U[2 KB, 198 KB], Poisson arrivals per host, deadlines Exp(20 ms), at least 3 ms.
     *
     * @param hosts the hosts.
     * @param load  offered load on each top-of-rack uplink.
     * @param flows how many.
     * @param seed  makes it repeatable.
     * @return the flows by start time.
     */
    public static List<WorkloadTrace.FlowSpec> trace(final int hosts, final double load, final int flows,
        final long seed)
    {
        final double meanBytes = (MIN_SIZE_BYTES + MAX_SIZE_BYTES) / 2.0;
        final double hostShare = (hosts - 1.0) / (3 * (hosts - 3));
        final double meanGapNs = 8e9 * meanBytes / (load * hostShare * RATE_BITS_PER_SEC);
        final SplittableRandom random = new SplittableRandom(seed);
        final double[] nextNs = new double[hosts];
        for (int h = 0; h < hosts; h++)
        {
            nextNs[h] = -meanGapNs * Math.log(1 - random.nextDouble());
        }
        final List<WorkloadTrace.FlowSpec> trace = new ArrayList<>(flows);
        for (int i = 0; i < flows; i++)
        {
            int source = 0;
            for (int h = 1; h < hosts; h++)
            {
                source = nextNs[h] < nextNs[source] ? h : source;
            }
            final int other = random.nextInt(hosts - 1);
            final int destination = other >= source ? other + 1 : other;
            final long size = random.nextLong(MIN_SIZE_BYTES, MAX_SIZE_BYTES + 1);
            final long deadlineNs = Math.max(MIN_DEADLINE_NS,
                Math.round(-MEAN_DEADLINE_NS * Math.log(1 - random.nextDouble())));
            trace.add(new WorkloadTrace.FlowSpec(i, source, destination, size, (long)nextNs[source], 0)
                .withDeadline(deadlineNs));
            nextNs[source] += -meanGapNs * Math.log(1 - random.nextDouble());
        }
        return trace;
    }

    /**
     * Run every scheme at every load and write {@code DIR/pdq-sanity.csv}, the traces and the FCT logs.
     *
     * @param out      the results directory.
     * @param loads    the loads.
     * @param flows    flows per load.
     * @param seed     of the traces and the runs.
     * @param schemes  the schemes, of {@link SimRun#SCHEMES}.
     * @param progress where progress goes.
     * @return the points.
     * @throws IOException if a file cannot be written.
     */
    public static List<Point> run(final Path out, final List<Double> loads, final int flows, final long seed,
        final List<String> schemes, final PrintStream progress) throws IOException
    {
        for (final String scheme : schemes)
        {
            SimRun.requireScheme(scheme);
        }
        for (final double load : loads)
        {
            if (!(load > 0 && load < 1))
            {
                throw new IllegalArgumentException("--loads: every load must be between 0 and 1, not " + load);
            }
        }
        if (flows < 1)
        {
            throw new IllegalArgumentException("--flows must be at least 1");
        }
        final SimFabric fabric = fabric();
        final SimSettings settings = SimSettings.forFabric(fabric);
        Files.createDirectories(out);
        progress.printf(Locale.ROOT, "pdq sanity: leafspine:4x3x1 at 1 Gb/s, %.1f us per link; %s%n",
            LINK_DELAY_NS / 1e3, settings.describe());
        final List<String> names = SimRun.hostNames(fabric);
        final PathRtts rtts = PathRtts.byClass(names, fabric::baseRttNs);
        final FctAnalysis analysis = new FctAnalysis(fabric.edgeRateBitsPerSec(), rtts, SimFabric.segmentWireLength());
        final List<Point> points = new ArrayList<>();
        for (final double load : loads)
        {
            final String label = String.format(Locale.ROOT, "%.2f", load);
            final List<WorkloadTrace.FlowSpec> trace = trace(fabric.hosts(), load, flows, seed);
            TraceFile.write(out.resolve("trace-" + label + ".csv"), trace, names);
            for (final String scheme : schemes)
            {
                final Path log = out.resolve("fct-" + scheme + "-" + label + ".csv");
                final SimRun.Outcome outcome = SimRun.run(fabric, settings, scheme, trace, seed, log, progress);
                final DeadlineReport.Row row = DeadlineReport.of(scheme, label, MEAN_DEADLINE_NS / 1e3,
                    FctLogReader.read(log), analysis, rtts::hostIndex);
                final Point point = new Point(scheme, load, row.flows(), row.met(), row.fractionMet(),
                    outcome.incomplete(), outcome.cpuNs());
                progress.printf(Locale.ROOT, "pdq sanity: %s at load %s: %d of %d deadlines met (%.4f), %d " +
                    "terminated, %.1f s CPU%n", scheme, label, point.met(), point.flows(), point.fractionMet(),
                    point.terminated(), point.cpuNs() / 1e9);
                points.add(point);
            }
        }
        try (PrintWriter writer = new PrintWriter(Files.newBufferedWriter(out.resolve("pdq-sanity.csv"))))
        {
            writer.println("scheme,load,flows,met,fraction_met,terminated");
            for (final Point point : points)
            {
                writer.printf(Locale.ROOT, "%s,%.2f,%d,%d,%.4f,%d%n", point.scheme(), point.load(), point.flows(),
                    point.met(), point.fractionMet(), point.terminated());
            }
        }
        return points;
    }
}
