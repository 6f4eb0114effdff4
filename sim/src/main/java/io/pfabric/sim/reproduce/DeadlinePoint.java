package io.pfabric.sim.reproduce;

import io.pfabric.analysis.DeadlineReport;
import io.pfabric.hostd.workload.FlowSizeDistribution;
import io.pfabric.sim.DeadlineExperiment;
import io.pfabric.sim.SimFabric;
import io.pfabric.sim.SimSettings;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One scheme of the deadline experiment (§5.4.2) on the paper's fabric: {@code pfabric sim deadlines} for one scheme,
 * at every mean deadline if the scheme never reads deadlines (one run judged against each mean's), else at one.
 *
 * @param workload websearch or datamining.
 * @param scheme   the scheme.
 * @param load     offered load.
 * @param flows    flows per run.
 * @param meansNs  the mean deadlines this point covers.
 * @param seed     of the trace, the deadlines and the spraying.
 */
public record DeadlinePoint(String workload, String scheme, double load, long flows, List<Long> meansNs, long seed)
    implements Point
{
    /**
     * Flows below this size get deadlines, as in the paper.
     */
    public static final long BELOW_BYTES = 200_000;

    /**
     * The result's header.
     */
    public static final String HEADER = "deadline_mean_us,flows,met,other_flows,other_incomplete,other_mean_normalized";

    /**
     * Copies the means.
     */
    public DeadlinePoint
    {
        meansNs = List.copyOf(meansNs);
    }

    /**
     * Whether a scheme's run is the same whatever the deadlines, so that one point covers every mean.
     *
     * @param scheme the scheme.
     * @return true for tcp, dctcp, ideal and pfabric.
     */
    public static boolean coversEveryMean(final String scheme)
    {
        return DeadlineExperiment.isDeadlineAgnostic(scheme, SimSettings.forFabric(SimFabric.paper()));
    }

    /**
     * {@inheritDoc}
     */
    public String id()
    {
        return "deadlines/" + workload + "/" + scheme + "/" + (meansNs.size() > 1 || coversEveryMean(scheme) ?
            "all" : meansNs.get(0) / 1_000 + "us");
    }

    /**
     * {@inheritDoc}
     */
    public List<String> run(final Path work, final PrintStream progress) throws IOException
    {
        final SimFabric fabric = SimFabric.paper();
        final DeadlineExperiment.Config config = new DeadlineExperiment.Config(fabric, SimSettings.forFabric(fabric),
            FlowSizeDistribution.load(workload), load, flows, seed, BELOW_BYTES, meansNs, List.of(scheme));
        final List<String> lines = new ArrayList<>();
        lines.add(HEADER);
        for (final DeadlineReport.Row row : DeadlineExperiment.run(config, work, progress))
        {
            lines.add(String.format(Locale.ROOT, "%.0f,%d,%d,%d,%d,%.6f", row.deadlineMeanUs(), row.flows(),
                row.met(), row.otherFlows(), row.otherIncomplete(), row.otherMeanNormalized()));
        }
        return lines;
    }
}
