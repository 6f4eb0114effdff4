package io.pfabric.sim;

import io.pfabric.analysis.IdealScheduler;
import io.pfabric.dataplane.queue.PfabricEdfQueue;
import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.hostd.transport.PriorityPolicy;
import io.pfabric.hostd.workload.FctLogWriter;
import io.pfabric.hostd.workload.WorkloadTrace;
import io.pfabric.sim.pdq.PdqSettings;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * One scheme over one trace in the simulator (or, for {@code ideal}, the flow-level Ideal scheduler on the same
 * fabric's base RTTs), written as the FCT log the emulated experiments write; with the {@code dscp} column when the
 * trace's flows are marked, so that results split per traffic class, and the deadline columns when flows have
 * deadlines.
 */
public final class SimRun
{
    /**
     * Schemes the simulator runs.
     */
    public static final List<String> SCHEMES = List.of("pfabric", "linerate", "tcp", "dctcp", "ideal",
        "tcp-per-flow", "dctcp-per-flow", "pfabric-edf", "pdq", "pdq-basic", "pdq-es", "pdq-es-et", "pdq-full");

    /**
     * Bytes per switch port and host NIC for the TCP and DCTCP baselines, as in the paper.
     */
    public static final long BASELINE_BUFFER_LENGTH = 225_000;

    /**
     * The virtual time a run gives up at: an hour.
     */
    public static final long LIMIT_NS = 3_600_000_000_000L;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /**
     * What a run did.
     *
     * @param flows      flows in the trace.
     * @param incomplete flows that did not complete.
     * @param events     simulator events processed (0 for ideal).
     * @param virtualNs  virtual time at the end.
     * @param wallNs     wall time the run took.
     * @param cpuNs      CPU time the running thread took, which a busy machine inflates less than wall time.
     * @param dropped    packets dropped by switch queues.
     * @param rankInversions packets switch queues sent while a more urgent packet waited in the same queue.
     * @param connectionsOpened TCP or DCTCP connections opened with a handshake because a pair's were all busy.
     */
    public record Outcome(int flows, int incomplete, long events, long virtualNs, long wallNs, long cpuNs,
        long dropped, long rankInversions, long connectionsOpened)
    {
        /**
         * Events per second of wall time.
         *
         * @return the rate.
         */
        public double eventsPerSecond()
        {
            return events * 1e9 / Math.max(1, wallNs);
        }
    }

    private SimRun()
    {
    }

    /**
     * Check that the simulator runs a scheme.
     *
     * @param scheme the name.
     * @throws IllegalArgumentException naming the schemes, or {@code --scheme} and the PDQ variants for an unknown
     *                                  one starting with {@code pdq}.
     */
    public static void requireScheme(final String scheme)
    {
        if (PdqSettings.isPdq(scheme))
        {
            PdqSettings.forScheme(scheme, 1, false);
        }
        if (!SCHEMES.contains(scheme))
        {
            throw new IllegalArgumentException("the simulator runs " + SCHEMES + ", not '" + scheme + "'");
        }
    }

    /**
     * Host names of a fabric, h1 to hN.
     *
     * @param fabric the fabric.
     * @return the names by index.
     */
    public static List<String> hostNames(final SimFabric fabric)
    {
        final List<String> names = new ArrayList<>(fabric.hosts());
        for (int h = 1; h <= fabric.hosts(); h++)
        {
            names.add("h" + h);
        }
        return names;
    }

    /**
     * Whether any flow of a trace is marked with a DSCP other than 0: then its FCT log has the {@code dscp} column.
     *
     * @param trace the flows.
     * @return true if one is.
     */
    public static boolean isMarked(final List<WorkloadTrace.FlowSpec> trace)
    {
        for (final WorkloadTrace.FlowSpec flow : trace)
        {
            if (0 != flow.dscp())
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether any flow of a trace has a deadline: then its FCT log has the deadline columns.
     *
     * @param trace the flows.
     * @return true if one has.
     */
    public static boolean hasDeadlines(final List<WorkloadTrace.FlowSpec> trace)
    {
        for (final WorkloadTrace.FlowSpec flow : trace)
        {
            if (flow.hasDeadline())
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Run a scheme over a trace and write its FCT log.
     *
     * @param fabric   the fabric (its queue discipline is set from the scheme; pfabric and linerate keep
     *                 pfabric-classes and its classes, else run on pfabric queues).
     * @param scheme   one of {@link #SCHEMES}.
     * @param trace    the flows.
     * @param seed     of the spraying.
     * @param log      where to write the FCT log.
     * @param progress where to report progress.
     * @return what the run did.
     * @throws IOException if the log cannot be written.
     */
    public static Outcome run(final SimFabric fabric, final String scheme, final List<WorkloadTrace.FlowSpec> trace,
        final long seed, final Path log, final PrintStream progress) throws IOException
    {
        return run(fabric, SimSettings.forFabric(fabric), scheme, trace, seed, log, progress);
    }

    /**
     * Run a scheme over a trace with given settings and write its FCT log.
     *
     * @param fabric   the fabric (its queue discipline is set from the scheme; pfabric and linerate keep
     *                 pfabric-classes and its classes, else run on pfabric queues).
     * @param settings the schemes' settings, such as {@link SimSettings#forFabric}.
     * @param scheme   one of {@link #SCHEMES}.
     * @param trace    the flows.
     * @param seed     of the spraying.
     * @param log      where to write the FCT log.
     * @param progress where to report progress.
     * @return what the run did.
     * @throws IOException if the log cannot be written.
     */
    public static Outcome run(final SimFabric fabric, final SimSettings settings, final String scheme,
        final List<WorkloadTrace.FlowSpec> trace, final long seed, final Path log, final PrintStream progress)
        throws IOException
    {
        return run(fabric, settings, scheme, scheme, trace, seed, log, progress);
    }

    /**
     * Run a scheme over a trace with given settings and write its FCT log under another scheme name, such as
     * {@code pfabric-sim} beside an emulated {@code pfabric}.
     *
     * @param fabric   the fabric (its queue discipline is set from the scheme; pfabric and linerate keep
     *                 pfabric-classes and its classes, else run on pfabric queues).
     * @param settings the schemes' settings.
     * @param scheme   one of {@link #SCHEMES}.
     * @param label    the scheme the log names.
     * @param trace    the flows.
     * @param seed     of the spraying.
     * @param log      where to write the FCT log.
     * @param progress where to report progress.
     * @return what the run did.
     * @throws IOException if the log cannot be written.
     */
    public static Outcome run(final SimFabric fabric, final SimSettings settings, final String scheme,
        final String label, final List<WorkloadTrace.FlowSpec> trace, final long seed, final Path log,
        final PrintStream progress) throws IOException
    {
        return run(fabric, settings, scheme, label, trace, seed, log, progress, null);
    }

    /**
     * Run a scheme over a trace under a label, telling an observer of every frame a port starts to transmit.
     *
     * @param fabric   the fabric (its queue discipline is set from the scheme; pfabric and linerate keep
     *                 pfabric-classes and its classes, else run on pfabric queues).
     * @param settings the schemes' settings.
     * @param scheme   one of {@link #SCHEMES}.
     * @param label    the scheme the log names.
     * @param trace    the flows.
     * @param seed     of the spraying.
     * @param log      where to write the FCT log.
     * @param progress where to report progress.
     * @param observer told of every transmission, or null; ideal, which has no packets, tells it nothing.
     * @return what the run did.
     * @throws IOException if the log cannot be written.
     */
    public static Outcome run(final SimFabric fabric, final SimSettings settings, final String scheme,
        final String label, final List<WorkloadTrace.FlowSpec> trace, final long seed, final Path log,
        final PrintStream progress, final TransmitObserver observer) throws IOException
    {
        return run(fabric, settings, scheme, label, trace, seed, log, progress, observer, false);
    }

    /**
     * Run a scheme over a trace under a label, PDQ with its flows on one path each (per-flow ECMP) or sprayed.
     *
     * @param fabric   the fabric (its queue discipline is set from the scheme; pfabric and linerate keep
     *                 pfabric-classes and its classes, else run on pfabric queues).
     * @param settings the schemes' settings.
     * @param scheme   one of {@link #SCHEMES}.
     * @param label    the scheme the log names.
     * @param trace    the flows.
     * @param seed     of the spraying.
     * @param log      where to write the FCT log.
     * @param progress where to report progress.
     * @param observer told of every transmission, or null; ideal, which has no packets, tells it nothing.
     * @param pdqSpray PDQ sprays each packet over the paths rather than keep each flow on one.
     * @return what the run did.
     * @throws IOException if the log cannot be written.
     */
    public static Outcome run(final SimFabric fabric, final SimSettings settings, final String scheme,
        final String label, final List<WorkloadTrace.FlowSpec> trace, final long seed, final Path log,
        final PrintStream progress, final TransmitObserver observer, final boolean pdqSpray) throws IOException
    {
        return run(fabric, settings, scheme, label, trace, seed, log, progress, observer, pdqSpray, null, LIMIT_NS);
    }

    /**
     * Run a scheme over a trace under a label, letting the caller set the simulator up (meters) before it runs and
     * stopping at a virtual time: flows not complete by then are logged as incomplete.
     *
     * @param fabric   the fabric (its queue discipline is set from the scheme; pfabric and linerate keep
     *                 pfabric-classes and its classes, else run on pfabric queues).
     * @param settings the schemes' settings.
     * @param scheme   one of {@link #SCHEMES}.
     * @param label    the scheme the log names.
     * @param trace    the flows.
     * @param seed     of the spraying.
     * @param log      where to write the FCT log.
     * @param progress where to report progress.
     * @param observer told of every transmission, or null; ideal, which has no packets, tells it nothing.
     * @param pdqSpray PDQ sprays each packet over the paths rather than keep each flow on one.
     * @param setUp    given the simulator before it runs, or null; ideal has none to give.
     * @param limitNs  virtual time at which the run stops.
     * @return what the run did.
     * @throws IOException if the log cannot be written.
     */
    public static Outcome run(final SimFabric fabric, final SimSettings settings, final String scheme,
        final String label, final List<WorkloadTrace.FlowSpec> trace, final long seed, final Path log,
        final PrintStream progress, final TransmitObserver observer, final boolean pdqSpray,
        final Consumer<Simulator> setUp, final long limitNs) throws IOException
    {
        requireScheme(scheme);
        final List<String> names = hostNames(fabric);
        final long startNs = System.nanoTime();
        final long startCpuNs = THREADS.getCurrentThreadCpuTime();
        if ("ideal".equals(scheme))
        {
            new IdealScheduler(fabric.edgeRateBitsPerSec(), fabric::baseRttNs, SimFabric.segmentWireLength())
                .writeFctLog(trace, names, log);
            return new Outcome(trace.size(), 0, 0, 0, System.nanoTime() - startNs,
                THREADS.getCurrentThreadCpuTime() - startCpuNs, 0, 0, 0);
        }
        final SimFabric pfabricFabric = fabric.hasClasses() || fabric.hasCommodityQueues() ? fabric :
            fabric.withQueues("pfabric", fabric.bufferLength());
        final Simulator simulator = switch (scheme)
        {
            case "pfabric" -> new Simulator(pfabricFabric, Simulator.Scheme.PFABRIC, settings, seed);
            case "linerate" -> new Simulator(pfabricFabric, Simulator.Scheme.LINERATE, settings, seed);
            case "pfabric-edf" -> new Simulator(fabric.withQueues(PfabricEdfQueue.NAME, 2 * fabric.bufferLength()),
                Simulator.Scheme.PFABRIC, settings.withPriority(PriorityPolicy.DEADLINE), seed);
            case "tcp" -> new Simulator(fabric.withQueues("droptail", BASELINE_BUFFER_LENGTH), Simulator.Scheme.TCP,
                settings, seed);
            case "dctcp" -> new Simulator(fabric.withQueues("ecn", BASELINE_BUFFER_LENGTH), Simulator.Scheme.DCTCP,
                settings, seed);
            case "tcp-per-flow" -> new Simulator(fabric.withQueues("droptail", BASELINE_BUFFER_LENGTH),
                Simulator.Scheme.TCP_PER_FLOW, settings, seed);
            case "dctcp-per-flow" -> new Simulator(fabric.withQueues("ecn", BASELINE_BUFFER_LENGTH),
                Simulator.Scheme.DCTCP_PER_FLOW, settings, seed);
            case "pdq", "pdq-basic", "pdq-es", "pdq-es-et", "pdq-full" -> new Simulator(
                fabric.withQueues("droptail", BASELINE_BUFFER_LENGTH),
                PdqSettings.forScheme(scheme, settings.baseRttNs(), settings.tcpMinRtoNs(), pdqSpray), settings, seed);
            default -> throw new IllegalArgumentException("the simulator runs " + SCHEMES + ", not '" + scheme + "'");
        };
        simulator.transmitObserver(observer);
        if (null != setUp)
        {
            setUp.accept(simulator);
        }
        final Simulator.Result result = simulator.run(trace, limitNs,
            (completed, total, virtualNs, events, deliveredBytes, totalBytes) ->
            {
                final double elapsedSec = (System.nanoTime() - startNs) / 1e9;
                final double done = Math.min(1.0, (double)deliveredBytes / Math.max(1, totalBytes));
                progress.printf(Locale.ROOT, "sim %s: %,d of %,d flows, %.1f%% of bytes delivered, %.3f s virtual, " +
                    "%,d events, %.0f s elapsed, ~%.0f s left%n", label, completed, total, 100 * done,
                    virtualNs / 1e9, events, elapsedSec, done > 0 ? elapsedSec * (1 - done) / done : Double.NaN);
            });
        int incomplete = 0;
        try (FctLogWriter writer = new FctLogWriter(log, isMarked(trace), hasDeadlines(trace)))
        {
            for (int i = 0; i < trace.size(); i++)
            {
                final WorkloadTrace.FlowSpec flow = trace.get(i);
                final FlowRecord record = result.records()[i];
                incomplete += null == record ? 1 : 0;
                writer.append(flow.flowIndex(), names.get(flow.sourceHost()), names.get(flow.destinationHost()),
                    flow.sizeBytes(), flow.startNs(), null == record ? -1 : record.endNs(),
                    null == record ? 0 : record.timeouts(), null == record ? 0 : record.retransmittedBytes(), label,
                    flow.dscp(), flow.deadlineNs());
            }
        }
        return new Outcome(trace.size(), incomplete, result.events(), result.endNs(), System.nanoTime() - startNs,
            THREADS.getCurrentThreadCpuTime() - startCpuNs, result.droppedPackets(), result.rankInversions(),
            result.connectionsOpened());
    }
}
