package io.pfabric.sim.reproduce;

import io.pfabric.analysis.StrictQueueModel;
import io.pfabric.hostd.workload.FlowSizeDistribution;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One curve family of the paper's §6.1 model ({@link StrictQueueModel}), no simulation: the normalized FCT of two
 * strict-priority queues against the threshold (Fig 15), or the best thresholds of 1, 2, 4 and 8 queues against the
 * load (Fig 16).
 *
 * @param figure   15 or 16.
 * @param workload the workload, web search in the paper.
 * @param loads    the loads.
 */
public record ModelPoint(int figure, String workload, List<Double> loads) implements Point
{
    /**
     * The header of Fig 15's result.
     */
    public static final String THRESHOLD_HEADER = "load,threshold_bytes,overall,small,large";

    /**
     * The header of Fig 16's result.
     */
    public static final String OPTIMUM_HEADER = "load,queues,thresholds_bytes,overall,small,large";

    /**
     * The queue counts of Fig 16.
     */
    public static final int[] QUEUE_COUNTS = { 1, 2, 4, 8 };

    /**
     * Copies the loads.
     */
    public ModelPoint
    {
        loads = List.copyOf(loads);
    }

    /**
     * {@inheritDoc}
     */
    public String id()
    {
        return "model/" + workload + "/fig" + figure;
    }

    /**
     * {@inheritDoc}
     */
    public List<String> run(final Path work, final PrintStream progress) throws IOException
    {
        final StrictQueueModel model = new StrictQueueModel(FlowSizeDistribution.load(workload)
            .packetProbabilities());
        final List<String> lines = new ArrayList<>();
        if (15 == figure)
        {
            lines.add(THRESHOLD_HEADER);
            for (final double load : loads)
            {
                for (final long threshold : model.candidateGrid())
                {
                    final StrictQueueModel.Prediction p = model.predict(load, new long[]{ threshold });
                    lines.add(String.format(Locale.ROOT, "%s,%d,%.6f,%.6f,%.6f", Points.loadLabel(load),
                        p.thresholdsBytes()[0], p.overall(), p.small(), p.large()));
                }
                progress.printf(Locale.ROOT, "model: two queues at load %s%n", Points.loadLabel(load));
            }
            return lines;
        }
        lines.add(OPTIMUM_HEADER);
        for (final double load : loads)
        {
            for (final int queues : QUEUE_COUNTS)
            {
                final StrictQueueModel.Prediction best = model.optimal(load, queues);
                final StringBuilder thresholds = new StringBuilder();
                for (final long t : best.thresholdsBytes())
                {
                    thresholds.append(thresholds.isEmpty() ? "" : ";").append(t);
                }
                lines.add(String.format(Locale.ROOT, "%s,%d,%s,%.6f,%.6f,%.6f", Points.loadLabel(load), queues,
                    thresholds, best.overall(), best.small(), best.large()));
            }
            progress.printf(Locale.ROOT, "model: best thresholds at load %s%n", Points.loadLabel(load));
        }
        return lines;
    }
}
