package io.pfabric.sim.reproduce;

import io.pfabric.analysis.FctAnalysis;
import io.pfabric.analysis.PathRtts;
import io.pfabric.common.topology.DisciplineSpec;
import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.dataplane.queue.PfabricQueue;
import io.pfabric.hostd.workload.FctLogReader;
import io.pfabric.hostd.workload.FlowSizeDistribution;
import io.pfabric.hostd.workload.WorkloadTrace;
import io.pfabric.sim.SimFabric;
import io.pfabric.sim.SimRun;
import io.pfabric.sim.SimSettings;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One scheme at one load on the paper's fabric: the run {@code pfabric sim --workload W --load L --scheme S --flows N
 * --seed SEED [--discipline D]} makes, summarized by size bin (count, incomplete, mean, median and 99th percentile of
 * the normalized FCT).
 *
 * @param workload   websearch or datamining.
 * @param scheme     one of {@link SimRun#SCHEMES}.
 * @param discipline the queues of pfabric: pfabric, or a commodity approximation such as {@code strict:4}.
 * @param load       offered load.
 * @param flows      flows in the trace.
 * @param seed       of the trace and the spraying.
 */
public record FctPoint(String workload, String scheme, String discipline, double load, long flows, long seed)
    implements Point
{
    /**
     * The result's header.
     */
    public static final String HEADER = "bin,count,incomplete,mean,p50,p99";

    /**
     * The label of the scheme on its queues, as a point's name and the report use it.
     *
     * @return the scheme, or for commodity queues the discipline without colons, such as {@code strict4} or
     *         {@code strict4-equal}.
     */
    public String label()
    {
        return PfabricQueue.NAME.equals(discipline) ? scheme : discipline.replaceFirst(":", "").replace(':', '-');
    }

    /**
     * {@inheritDoc}
     */
    public String id()
    {
        return id(workload, label(), load);
    }

    /**
     * The name of the point of a workload, label and load.
     *
     * @param workload the workload.
     * @param label    {@link #label()}.
     * @param load     the load.
     * @return such as {@code fct/websearch/pfabric/0.6}.
     */
    public static String id(final String workload, final String label, final double load)
    {
        return "fct/" + workload + "/" + label + "/" + Points.loadLabel(load);
    }

    /**
     * {@inheritDoc}
     */
    public List<String> run(final Path work, final PrintStream progress) throws IOException
    {
        final FlowSizeDistribution sizes = FlowSizeDistribution.load(workload);
        final SimFabric fabric = fabric(sizes);
        final SimSettings settings = SimSettings.forFabric(fabric);
        final List<WorkloadTrace.FlowSpec> trace = WorkloadTrace.generate(fabric.hosts(), load,
            fabric.edgeRateBitsPerSec(), sizes, seed, flows, 0);
        final Path log = work.resolve("fct-" + label() + "-" + Points.loadLabel(load) + ".csv");
        SimRun.run(fabric.withThresholdsFor(sizes, load), settings, scheme, label(), trace, seed, log, progress);
        final PathRtts rtts = PathRtts.byClass(SimRun.hostNames(fabric), fabric::baseRttNs);
        final FctAnalysis analysis = new FctAnalysis(fabric.edgeRateBitsPerSec(), rtts,
            SimFabric.segmentWireLength());
        final List<String> lines = new ArrayList<>();
        lines.add(HEADER);
        for (final FctAnalysis.Summary summary : analysis.summarize(FctLogReader.read(log), rtts::hostIndex))
        {
            lines.add(String.format(Locale.ROOT, "%s,%d,%d,%.6f,%.6f,%.6f",
                summary.bin().name().toLowerCase(Locale.ROOT), summary.count(), summary.incomplete(),
                summary.mean(), summary.p50(), summary.p99()));
        }
        return lines;
    }

    private SimFabric fabric(final FlowSizeDistribution sizes)
    {
        final DisciplineSpec spec = DisciplineSpec.parse(discipline);
        if (PfabricQueue.NAME.equals(spec.name()))
        {
            return SimFabric.paper();
        }
        return SimFabric.paper().withQueues(spec.toString(), DisciplineKind.byName(spec.name())
            .defaultCapacityLength());
    }
}
