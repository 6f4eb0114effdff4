package io.pfabric.sim;

import io.pfabric.controllerd.syn.Metric;
import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.workload.FctLogWriter;
import io.pfabric.hostd.workload.WorkloadTrace;
import io.pfabric.dataplane.pacer.EgressPacer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * One scheme of the sync-versus-async comparison over one trace: {@code syn-ocf}, {@code syn-srjf}, {@code syn-mmf}
 * ({@link SynControl}), {@code asy} ({@link AsyControl}) or {@code pfabric} (hostd's windowed transport alone), every
 * switch port and host NIC a pFabric queue of the fabric's buffer, every data packet accounted at its
 * {@link PacketSizeMix} length. Under SYN and ASY the transport runs without a window (hostd's linerate mode): the
 * controller, not the window, decides when a packet leaves, and the window would only hide backlog from the reports.
 * Every scheme keeps the fixed timeout, at {@value #TIMEOUT_RTTS} base RTTs of a full packet across the spine.
 */
public final class SyncRun
{
    /**
     * Schemes of the comparison.
     */
    public static final List<String> SCHEMES = List.of("syn-ocf", "syn-srjf", "syn-mmf", "asy", "pfabric");

    /**
     * Retransmission timeout in base RTTs.
     */
    public static final int TIMEOUT_RTTS = 3;

    private static final long LIMIT_NS = 600_000_000_000L;
    private static final long TIER_SAMPLE_NS = 10_000;
    private static final int WINDOW_START_DIVISOR = 10;

    /**
     * The comparison's metrics of one run.
     *
     * @param scheme           the scheme.
     * @param flows            flows in the trace.
     * @param incomplete       flows that did not complete.
     * @param throughput       in the steady window (from the arrival of the flow a tenth of the way through the
     *                         trace to the last arrival), wire bytes of the flows that completed in it over wire
     *                         bytes of the flows that arrived in it: flows running across either end of the window
     *                         balance out, so it is about 1 when the scheme keeps up with the load and less when
     *                         its backlog grows; retransmissions do not count.
     * @param goodputShare     the same completed wire bytes as a share of all host links' capacity over the window
     *                         (compare with the load).
     * @param meanNormalizedFct mean of FCT over the idle-fabric FCT of the flow's packets.
     * @param cvNormalizedFct  its standard deviation over its mean.
     * @param jain             Jain's index over the completed flows' throughputs (bytes / FCT).
     * @param nicQueueBytes    mean bytes queued per host NIC.
     * @param leafQueueBytes   mean bytes queued per leaf port.
     * @param spineQueueBytes  mean bytes queued per spine port.
     * @param dropped          packets dropped.
     * @param slotUse          SYN: grants a packet left on over grants made; NaN otherwise.
     * @param wallNs           wall time.
     * @param events           events processed.
     */
    public record Metrics(String scheme, int flows, int incomplete, double throughput, double goodputShare,
        double meanNormalizedFct, double cvNormalizedFct, double jain, double nicQueueBytes, double leafQueueBytes,
        double spineQueueBytes, long dropped, double slotUse, long wallNs, long events)
    {
    }

    private SyncRun()
    {
    }

    /**
     * The transport configuration of the scenario: 1460-byte segments, the window of one BDP at this fabric's rate,
     * a timeout of {@value #TIMEOUT_RTTS} base RTTs; linerate for the controlled schemes.
     *
     * @param fabric     the fabric.
     * @param controlled whether a controller admits the packets.
     * @return the configuration.
     */
    public static TransportConfiguration configuration(final SimFabric fabric, final boolean controlled)
    {
        final long rttNs = fabric.baseRttNs(0, fabric.hosts() - 1);
        final double packetNs = SimFabric.segmentWireLength() * 8e9 / fabric.edgeRateBitsPerSec();
        final int bdp = (int)Math.max(1, Math.ceil(rttNs / packetNs));
        final int cap = (int)Math.max(bdp, fabric.bufferLength() / SimFabric.segmentWireLength() - 1);
        final TransportConfiguration base = new TransportConfiguration(TransportConfiguration.DEFAULT_SEGMENT_LENGTH,
            bdp, cap, TIMEOUT_RTTS * rttNs, TransportConfiguration.PAPER.probeAfterTimeouts(), false,
            TransportConfiguration.PAPER.priorityPolicy());
        return controlled ? base.withLineRate() : base;
    }

    /**
     * Run a scheme over a trace.
     *
     * @param fabric  the fabric (pFabric queues of its buffer everywhere).
     * @param scheme  one of {@link #SCHEMES}.
     * @param trace   the flows, from {@link SyncWorkload}.
     * @param mix     the packet sizes.
     * @param seed    of the spraying.
     * @param delayNs one-way control delay.
     * @param asyIntervalNs ASY's update interval.
     * @param log     where to write the FCT log, or null.
     * @return the metrics.
     * @throws IOException if the log cannot be written.
     */
    public static Metrics run(final SimFabric fabric, final String scheme, final List<WorkloadTrace.FlowSpec> trace,
        final PacketSizeMix mix, final long seed, final long delayNs, final long asyIntervalNs, final Path log)
        throws IOException
    {
        final SimFabric queues = fabric.withQueues("pfabric", fabric.bufferLength());
        final long startNs = System.nanoTime();
        SynControl syn = null;
        AsyControl asy = null;
        final Simulator simulator;
        switch (scheme)
        {
            case "syn-ocf", "syn-srjf", "syn-mmf" ->
            {
                syn = new SynControl(queues, Metric.valueOf(scheme.substring(4).toUpperCase()), delayNs);
                simulator = new Simulator(queues, Simulator.Scheme.CONTROLLED, configuration(fabric, true), seed, syn,
                    mix);
                syn.attach(simulator);
            }
            case "asy" ->
            {
                asy = new AsyControl(queues, asyIntervalNs, delayNs);
                simulator = new Simulator(queues, Simulator.Scheme.CONTROLLED, configuration(fabric, true), seed, asy,
                    mix);
                asy.attach(simulator);
            }
            case "pfabric" -> simulator = new Simulator(queues, Simulator.Scheme.PFABRIC, configuration(fabric, false),
                seed, null, mix);
            default -> throw new IllegalArgumentException("the comparison runs " + SCHEMES + ", not '" + scheme + "'");
        }
        simulator.sampleTiers(TIER_SAMPLE_NS);
        final Simulator.Result result = simulator.run(trace, LIMIT_NS);
        final Metrics metrics = metrics(fabric, scheme, trace, mix, result, simulator,
            null == syn ? Double.NaN : (double)syn.grantsUsed() / Math.max(1, syn.grants()),
            System.nanoTime() - startNs);
        if (null != log)
        {
            final List<String> names = SimRun.hostNames(fabric);
            try (FctLogWriter writer = new FctLogWriter(log))
            {
                for (int i = 0; i < trace.size(); i++)
                {
                    final WorkloadTrace.FlowSpec flow = trace.get(i);
                    final FlowRecord record = result.records()[i];
                    writer.append(flow.flowIndex(), names.get(flow.sourceHost()), names.get(flow.destinationHost()),
                        null == record ? flow.sizeBytes() : flowBytes(mix, record.flowId(), flow.sizeBytes()),
                        flow.startNs(), null == record ? -1 : record.endNs(), null == record ? 0 : record.timeouts(),
                        null == record ? 0 : record.retransmittedBytes(), scheme);
                }
            }
        }
        return metrics;
    }

    /**
     * Bytes of a flow on the wire under a mix, without FCS, preamble and gap.
     *
     * @param mix          the packet sizes.
     * @param flowId       the transport's flow id.
     * @param segmentBytes the flow's size in transport segments' bytes.
     * @return bytes.
     */
    public static long flowBytes(final PacketSizeMix mix, final long flowId, final long segmentBytes)
    {
        final long segments = segmentBytes / TransportConfiguration.DEFAULT_SEGMENT_LENGTH;
        long bytes = 0;
        for (long s = 0; s < segments; s++)
        {
            bytes += mix.frameLengthOfSegment(flowId, s);
        }
        return bytes;
    }

    /**
     * The idle-fabric FCT of a flow whose packets have the given lengths: the base RTT of a full segment with the
     * first packet's serialization in place of a full one's, plus every later packet's serialization at the host rate.
     */
    static long idealFctNs(final SimFabric fabric, final PacketSizeMix mix, final FlowRecord record,
        final long segmentBytes)
    {
        final EgressPacer edge = new EgressPacer(fabric.edgeRateBitsPerSec(), 1);
        final int full = SimFabric.segmentWireLength() - EgressPacer.WIRE_OVERHEAD_LENGTH;
        final int first = mix.frameLengthOfSegment(record.flowId(), 0);
        long ideal = fabric.baseRttNs(record.sourceHost(), record.destinationHost()) -
            2 * (edge.wireTimeNs(full) - edge.wireTimeNs(first));
        final int coreLinks = fabric.coreLinksBetween(record.sourceHost(), record.destinationHost());
        if (coreLinks > 0)
        {
            final EgressPacer core = new EgressPacer(fabric.coreRateBitsPerSec(), 1);
            ideal -= coreLinks * (core.wireTimeNs(full) - core.wireTimeNs(first));
        }
        final long segments = segmentBytes / TransportConfiguration.DEFAULT_SEGMENT_LENGTH;
        for (long s = 1; s < segments; s++)
        {
            ideal += edge.wireTimeNs(mix.frameLengthOfSegment(record.flowId(), s));
        }
        return ideal;
    }

    private static Metrics metrics(final SimFabric fabric, final String scheme,
        final List<WorkloadTrace.FlowSpec> trace, final PacketSizeMix mix, final Simulator.Result result,
        final Simulator simulator, final double slotUse, final long wallNs)
    {
        final long windowStartNs = trace.get(trace.size() / WINDOW_START_DIVISOR).startNs();
        final long windowEndNs = trace.get(trace.size() - 1).startNs();
        double offeredBytes = 0;
        double completedBytes = 0;
        double sum = 0;
        double sumSquares = 0;
        double rateSum = 0;
        double rateSquares = 0;
        int completed = 0;
        for (int i = 0; i < trace.size(); i++)
        {
            final WorkloadTrace.FlowSpec flow = trace.get(i);
            final FlowRecord record = result.records()[i];
            final long segments = flow.sizeBytes() / TransportConfiguration.DEFAULT_SEGMENT_LENGTH;
            final double wireBytes = segments * EgressPacer.WIRE_OVERHEAD_LENGTH + (null == record ?
                segments * mix.meanFrameLength() : flowBytes(mix, record.flowId(), flow.sizeBytes()));
            if (flow.startNs() >= windowStartNs && flow.startNs() < windowEndNs)
            {
                offeredBytes += wireBytes;
            }
            if (null == record)
            {
                continue;
            }
            if (record.endNs() >= windowStartNs && record.endNs() < windowEndNs)
            {
                completedBytes += wireBytes;
            }
            final long bytes = flowBytes(mix, record.flowId(), flow.sizeBytes());
            final long fctNs = record.endNs() - flow.startNs();
            final double normalized = (double)fctNs / idealFctNs(fabric, mix, record, flow.sizeBytes());
            sum += normalized;
            sumSquares += normalized * normalized;
            final double throughput = bytes / (double)fctNs;
            rateSum += throughput;
            rateSquares += throughput * throughput;
            completed++;
        }
        final double goodput = completedBytes * 8e9 /
            ((double)(windowEndNs - windowStartNs) * fabric.edgeRateBitsPerSec() * fabric.hosts());
        final double mean = sum / Math.max(1, completed);
        final double variance = Math.max(0, sumSquares / Math.max(1, completed) - mean * mean);
        return new Metrics(scheme, trace.size(), trace.size() - completed,
            completedBytes / Math.max(1, offeredBytes), goodput, mean, Math.sqrt(variance) / mean,
            rateSum * rateSum / (completed * rateSquares), simulator.meanTierQueueBytes(0),
            simulator.meanTierQueueBytes(1), simulator.meanTierQueueBytes(2), result.droppedPackets(), slotUse,
            wallNs, result.events());
    }
}
