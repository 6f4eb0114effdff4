package io.pfabric.sim.reproduce;

import io.pfabric.hostd.transport.PriorityPolicy;
import io.pfabric.hostd.workload.FlowSizeDistribution;
import io.pfabric.sim.FlowSwitchingExperiment;
import io.pfabric.sim.IncastExperiment;
import io.pfabric.sim.LossByHopExperiment;
import io.pfabric.sim.PortRole;
import io.pfabric.sim.PriorityExperiment;
import io.pfabric.sim.ProbeModeExperiment;
import io.pfabric.sim.SensitivityExperiment;
import io.pfabric.sim.SimFabric;
import io.pfabric.sim.SimSettings;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The points of the micro-experiments (Figs 5a, 5b, 6, 12, 13 and 14), each a slice of the experiment's own run on
 * the paper's fabric with the paper's settings, as {@code pfabric sim flow-switching}, {@code probe-mode},
 * {@code incast}, {@code sensitivity}, {@code loss-by-hop} and {@code priority} run it.
 */
public final class MicroPoints
{
    private MicroPoints()
    {
    }

    /**
     * Fig 5a: five flows of one size start together towards one host.
     *
     * @param sizeBytes each flow.
     * @param seed      of the spraying.
     */
    public record FlowSwitching(long sizeBytes, long seed) implements Point
    {
        /**
         * The result's header: one line per flow and interval.
         */
        public static final String HEADER = "flow,time_ms,throughput_gbps,end_ms,ideal_ms";

        /**
         * {@inheritDoc}
         */
        public String id()
        {
            return "micro/flow-switching";
        }

        /**
         * {@inheritDoc}
         */
        public List<String> run(final Path work, final PrintStream progress) throws IOException
        {
            final SimFabric fabric = SimFabric.paper();
            final FlowSwitchingExperiment.Config config = new FlowSwitchingExperiment.Config(fabric,
                SimSettings.forFabric(fabric), 5, sizeBytes, 500_000, seed, "pfabric");
            final FlowSwitchingExperiment.Result result = FlowSwitchingExperiment.run(config, work, progress);
            final List<String> lines = new ArrayList<>(List.of(HEADER));
            for (int flow = 0; flow < result.endNs().length; flow++)
            {
                for (int slot = 0; slot < result.gbps()[flow].length; slot++)
                {
                    lines.add(String.format(Locale.ROOT, "%d,%.3f,%.6f,%.6f,%.6f", flow,
                        (slot + 1) * result.intervalNs() / 1e6, result.gbps()[flow][slot],
                        result.endNs()[flow] / 1e6, result.idealWireNs() / 1e6));
                }
            }
            return lines;
        }
    }

    /**
     * Fig 5b: long-lived flows into one port, with probe mode after some timeouts or without.
     *
     * @param probeAfter  consecutive timeouts before probe mode, or {@link ProbeModeExperiment#OFF}.
     * @param flowCounts  the numbers of flows.
     * @param durationNs  each run's virtual time.
     * @param seed        of the spraying.
     */
    public record ProbeMode(int probeAfter, List<Integer> flowCounts, long durationNs, long seed) implements Point
    {
        /**
         * The result's header.
         */
        public static final String HEADER = "flows,loss_rate,throughput_gbps";

        /**
         * Copies the counts.
         */
        public ProbeMode
        {
            flowCounts = List.copyOf(flowCounts);
        }

        /**
         * {@inheritDoc}
         */
        public String id()
        {
            return "micro/probe-mode/" + (ProbeModeExperiment.OFF == probeAfter ? "off" : "after-" + probeAfter);
        }

        /**
         * {@inheritDoc}
         */
        public List<String> run(final Path work, final PrintStream progress) throws IOException
        {
            final SimFabric fabric = SimFabric.paper();
            final List<String> lines = new ArrayList<>(List.of(HEADER));
            for (final ProbeModeExperiment.Point point : ProbeModeExperiment.run(new ProbeModeExperiment.Config(
                fabric, SimSettings.forFabric(fabric), flowCounts, List.of(probeAfter), durationNs, seed), work,
                progress))
            {
                lines.add(String.format(Locale.ROOT, "%d,%.6f,%.6f", point.flows(), point.lossRate(),
                    point.throughputGbps()));
            }
            return lines;
        }
    }

    /**
     * Fig 6: a request striped over N senders, one scheme.
     *
     * @param scheme   pfabric, pdq, dctcp or tcp.
     * @param senders  the sender counts.
     * @param bytes    the request.
     * @param requests requests per count.
     * @param seed     of the spraying.
     */
    public record Incast(String scheme, List<Integer> senders, long bytes, int requests, long seed) implements Point
    {
        /**
         * The result's header.
         */
        public static final String HEADER = "senders,request_mean_ms,flow_mean_ms,ideal_request_ms,timeouts," +
            "incomplete";

        /**
         * Copies the counts.
         */
        public Incast
        {
            senders = List.copyOf(senders);
        }

        /**
         * {@inheritDoc}
         */
        public String id()
        {
            return "micro/incast/" + scheme;
        }

        /**
         * {@inheritDoc}
         */
        public List<String> run(final Path work, final PrintStream progress) throws IOException
        {
            final SimFabric fabric = SimFabric.paper();
            final IncastExperiment.Config config = new IncastExperiment.Config(fabric, SimSettings.forFabric(fabric),
                senders, bytes, requests, List.of(scheme), seed);
            final List<String> lines = new ArrayList<>(List.of(HEADER));
            for (final IncastExperiment.Point point : IncastExperiment.run(config, work, progress))
            {
                lines.add(String.format(Locale.ROOT, "%d,%.6f,%.6f,%.6f,%d,%d", point.senders(),
                    point.requestMeanNs() / 1e6, point.flowMeanNs() / 1e6, config.idealRequestNs() / 1e6,
                    point.timeouts(), point.incomplete()));
            }
            return lines;
        }
    }

    /**
     * Fig 12: web search at 0.8 with one buffer size and every timeout.
     *
     * @param bufferBdps the buffer, in BDPs.
     * @param timeoutRtts the timeouts, in RTTs.
     * @param flows      flows per run.
     * @param seed       of the trace and the spraying.
     */
    public record Sensitivity(double bufferBdps, List<Double> timeoutRtts, long flows, long seed) implements Point
    {
        /**
         * The result's header.
         */
        public static final String HEADER = "timeout_rtt,incomplete,mean,small_mean,small_p99";

        /**
         * Copies the timeouts.
         */
        public Sensitivity
        {
            timeoutRtts = List.copyOf(timeoutRtts);
        }

        /**
         * {@inheritDoc}
         */
        public String id()
        {
            return "micro/sensitivity/buffer-" + Points.loadLabel(bufferBdps) + "bdp";
        }

        /**
         * {@inheritDoc}
         */
        public List<String> run(final Path work, final PrintStream progress) throws IOException
        {
            final SimFabric fabric = SimFabric.paper();
            final List<String> lines = new ArrayList<>(List.of(HEADER));
            for (final SensitivityExperiment.Point point : SensitivityExperiment.run(new SensitivityExperiment.Config(
                fabric, SimSettings.forFabric(fabric), FlowSizeDistribution.load("websearch"), 0.8, flows, seed,
                List.of(bufferBdps), timeoutRtts), work, progress))
            {
                lines.add(String.format(Locale.ROOT, "%s,%d,%.6f,%.6f,%.6f", Points.loadLabel(point.timeoutRtts()),
                    point.incomplete(), point.mean(), point.smallMean(), point.smallP99()));
            }
            return lines;
        }
    }

    /**
     * Fig 13: web search at 0.8, drops by flow size and by where the port sits.
     *
     * @param flows flows in the run.
     * @param seed  of the trace and the spraying.
     */
    public record LossByHop(long flows, long seed) implements Point
    {
        /**
         * The result's header.
         */
        public static final String HEADER = "bin,flows,sent_packets,nic_loss,core_loss,last_hop_loss,nic_dropped," +
            "core_dropped,last_hop_dropped";

        /**
         * {@inheritDoc}
         */
        public String id()
        {
            return "micro/loss-by-hop";
        }

        /**
         * {@inheritDoc}
         */
        public List<String> run(final Path work, final PrintStream progress) throws IOException
        {
            final SimFabric fabric = SimFabric.paper();
            final List<String> lines = new ArrayList<>(List.of(HEADER));
            for (final LossByHopExperiment.Row row : LossByHopExperiment.run(new LossByHopExperiment.Config(fabric,
                SimSettings.forFabric(fabric), FlowSizeDistribution.load("websearch"), 0.8, flows, seed, "pfabric",
                LossByHopExperiment.DEFAULT_EDGES_BYTES), work, progress))
            {
                lines.add(String.format(Locale.ROOT, "%s,%d,%d,%.6f,%.6f,%.6f,%d,%d,%d", row.label(), row.flows(),
                    row.sentPackets(), row.loss(PortRole.NIC), row.loss(PortRole.CORE), row.loss(PortRole.LAST_HOP),
                    row.nicDropped(), row.coreDropped(), row.lastHopDropped()));
            }
            return lines;
        }
    }

    /**
     * Fig 14: pfabric with one priority policy at one load (remaining size, pdq and Ideal are Fig 7's points).
     *
     * @param workload websearch or datamining.
     * @param policy   bytes-sent or size.
     * @param load     the load.
     * @param flows    flows in the trace.
     * @param seed     of the trace and the spraying.
     */
    public record Priority(String workload, PriorityPolicy policy, double load, long flows, long seed)
        implements Point
    {
        /**
         * The result's header.
         */
        public static final String HEADER = "incomplete,mean,small_mean,small_p99";

        /**
         * {@inheritDoc}
         */
        public String id()
        {
            return "micro/priority/" + workload + "/" + PriorityExperiment.schemeName(policy) + "/" +
                Points.loadLabel(load);
        }

        /**
         * {@inheritDoc}
         */
        public List<String> run(final Path work, final PrintStream progress) throws IOException
        {
            final SimFabric fabric = SimFabric.paper();
            final List<String> lines = new ArrayList<>(List.of(HEADER));
            for (final PriorityExperiment.Point point : PriorityExperiment.run(new PriorityExperiment.Config(fabric,
                SimSettings.forFabric(fabric), FlowSizeDistribution.load(workload), List.of(load), flows, seed,
                List.of(policy), List.of()), work, progress))
            {
                lines.add(String.format(Locale.ROOT, "%d,%.6f,%.6f,%.6f", point.incomplete(), point.mean(),
                    point.smallMean(), point.smallP99()));
            }
            return lines;
        }
    }
}
