package io.pfabric.sim.reproduce;

import java.util.List;
import java.util.Locale;

/**
 * How much of the paper's evaluation a reproduction runs: flows per point, loads, deadline means and the model's
 * loads. Every point of every figure follows from the scale and the seed, so a job on another machine rebuilds the
 * same point from its name.
 *
 * @param name              as {@code --scale} takes it.
 * @param description       one line for the report.
 * @param websearchFlows    flows per point of web search.
 * @param dataminingFlows   flows per point of data mining.
 * @param loads             the loads of the FCT sweeps (Figs 7-9) and of the commodity queues (Fig 17).
 * @param deadlineFlows     flows per run of the deadline experiment (Figs 10-11), at load 0.6.
 * @param deadlineMeansNs   the mean deadlines.
 * @param thresholdLoads    the loads of the model's threshold curves (Fig 15).
 * @param optimumLoads      the loads of the model's best thresholds (Fig 16).
 * @param micro             the micro-experiments' sizes (Figs 5, 6, 12 and 13).
 */
public record Scale(String name, String description, long websearchFlows, long dataminingFlows, List<Double> loads,
    long deadlineFlows, List<Long> deadlineMeansNs, List<Double> thresholdLoads, List<Double> optimumLoads,
    Micro micro)
{
    /**
     * The micro-experiments' sizes.
     *
     * @param switchingBytes     each of the 5 flows of Fig 5a.
     * @param probeFlowCounts    the long-lived flows of Fig 5b.
     * @param probeDurationNs    how long each of its runs lasts, virtual.
     * @param incastSenders      the sender counts of Fig 6.
     * @param incastBytes        its request size.
     * @param incastRequests     requests per sender count.
     * @param sensitivityFlows   flows per run of Fig 12.
     * @param sensitivityBuffers its buffers, in BDPs.
     * @param sensitivityRtts    its timeouts, in RTTs.
     * @param lossFlows          flows of Fig 13's run.
     */
    public record Micro(long switchingBytes, List<Integer> probeFlowCounts, long probeDurationNs,
        List<Integer> incastSenders, long incastBytes, int incastRequests, long sensitivityFlows,
        List<Double> sensitivityBuffers, List<Double> sensitivityRtts, long lossFlows)
    {
        /**
         * Copies the lists.
         */
        public Micro
        {
            probeFlowCounts = List.copyOf(probeFlowCounts);
            incastSenders = List.copyOf(incastSenders);
            sensitivityBuffers = List.copyOf(sensitivityBuffers);
            sensitivityRtts = List.copyOf(sensitivityRtts);
        }
    }

    /**
     * The scales {@link #named} knows, in the order help lists them.
     */
    public static final List<String> NAMES = List.of("quick", "paper", "tiny");

    /**
     * Copies the lists.
     */
    public Scale
    {
        loads = List.copyOf(loads);
        deadlineMeansNs = List.copyOf(deadlineMeansNs);
        thresholdLoads = List.copyOf(thresholdLoads);
        optimumLoads = List.copyOf(optimumLoads);
    }

    /**
     * A scale by name.
     *
     * @param name quick (every figure in under half an hour on two cores: fewer flows and loads, the same shapes),
     *             paper (the paper's 100,000 flows per point and its loads; hours of CPU per workload) or tiny (a
     *             smoke test of the machinery in seconds; its numbers mean nothing).
     * @return the scale.
     * @throws IllegalArgumentException naming {@code --scale} for any other name.
     */
    public static Scale named(final String name)
    {
        final List<Double> eight = List.of(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8);
        return switch (name)
        {
            case "quick" -> new Scale("quick", "3,000 web-search and 1,000 data-mining flows per point, loads " +
                "0.2-0.8 in steps of 0.2, 3,000 flows per deadline run", 3_000, 1_000, List.of(0.2, 0.4, 0.6, 0.8),
                3_000, List.of(100_000L, 1_000_000L, 10_000_000L), List.of(0.2, 0.4, 0.6, 0.8),
                List.of(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9),
                new Micro(20_000_000, List.of(1, 5, 10, 20, 50), 10_000_000, List.of(1, 5, 10, 20, 40), 10_000_000, 5,
                    2_000, List.of(0.5, 1.0, 2.0, 5.0), List.of(2.0, 3.0, 10.0, 20.0), 3_000));
            case "paper" -> new Scale("paper", "100,000 flows per point as the paper, loads 0.1-0.8, deadline means " +
                "100 us to 100 ms", 100_000, 100_000, eight, 100_000,
                List.of(100_000L, 300_000L, 1_000_000L, 3_000_000L, 10_000_000L, 30_000_000L, 100_000_000L),
                List.of(0.2, 0.4, 0.6, 0.8), steps(0.1, 0.9, 17),
                new Micro(20_000_000, List.of(1, 2, 5, 10, 15, 20, 30, 40, 50), 20_000_000,
                    List.of(1, 5, 10, 20, 30, 40, 50), 100_000_000, 10_000, 100_000, List.of(0.5, 1.0, 2.0, 3.0, 5.0),
                    List.of(2.0, 3.0, 5.0, 10.0, 20.0), 100_000));
            case "tiny" -> new Scale("tiny", "a smoke test of the machinery: 60 flows per point, one load; its " +
                "numbers mean nothing", 60, 30, List.of(0.5), 60, List.of(1_000_000L), List.of(0.6),
                List.of(0.4, 0.8), new Micro(1_000_000, List.of(1, 5), 2_000_000, List.of(1, 5), 1_000_000, 2, 60,
                    List.of(1.0, 3.0), List.of(3.0, 10.0), 60));
            default -> throw new IllegalArgumentException("--scale must be one of " + String.join(", ", NAMES) +
                ", not '" + name + "'");
        };
    }

    /**
     * Flows per point of a workload.
     *
     * @param workload websearch or datamining.
     * @return the flows.
     */
    public long flows(final String workload)
    {
        return "datamining".equals(workload) ? dataminingFlows : websearchFlows;
    }

    private static List<Double> steps(final double from, final double to, final int count)
    {
        final Double[] values = new Double[count];
        for (int i = 0; i < count; i++)
        {
            values[i] = Double.parseDouble(String.format(Locale.ROOT, "%.2f", from + (to - from) * i / (count - 1)));
        }
        return List.of(values);
    }
}
