package io.pfabric.experiment;

import io.pfabric.analysis.ClassPlot;
import io.pfabric.analysis.ClassReport;
import io.pfabric.analysis.FctAnalysis;
import io.pfabric.analysis.IdealScheduler;
import io.pfabric.analysis.PathRtts;
import io.pfabric.analysis.ResultsTable;
import io.pfabric.common.topology.HostSpec;
import io.pfabric.common.topology.Rates;
import io.pfabric.common.topology.SwitchSpec;
import io.pfabric.common.topology.Topology;
import io.pfabric.common.topology.TrafficClasses;
import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.dataplane.queue.PfabricClassQueue;
import io.pfabric.hostd.workload.FlowSizeDistribution;
import io.pfabric.hostd.workload.TraceFile;
import io.pfabric.hostd.workload.WorkloadMix;
import io.pfabric.hostd.workload.WorkloadTrace;
import io.pfabric.switchd.SwitchDaemon;
import io.pfabric.switchd.SwitchPort;
import io.pfabric.testbed.FabricRunner;
import io.pfabric.testbed.NetnsFabric;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Applications in traffic classes on a fabric of network namespaces ({@code pfabric experiment classes}), the
 * emulated counterpart of {@code pfabric sim classes}: the mix of applications (each its workload, load and DSCP) is
 * replayed by hostd on switches with {@code pfabric-classes} queues on every port and hosts that share their links
 * between the same classes, then the same trace on plain pFabric queues with hosts that send by SRPT. Reported per
 * scheme and DSCP: the pFabric payload bytes that left the switch ports down to hosts in the window from a tenth of
 * the duration to the duration (sampled from the ports' per-DSCP counters), their share, the small flows' normalized
 * FCT, and Ideal within each class; and, under classes, the bytes each class sent at every switch port while every
 * class was backlogged there (the queues' own counters, over the same window).
 */
public final class ClassExperiment
{
    /**
     * Prefix of the experiment's namespaces; leftovers of a crashed run are removed at the next start.
     */
    public static final String PREFIX = "pfcls";

    /**
     * The header of {@code ports.csv}.
     */
    public static final String PORTS_HEADER = "switch,port,down,class,weight_share,departed_bytes," +
        "backlogged_bytes,backlogged_share,stretches";

    private static final String[] SCHEMES = { ClassReport.CLASSES_SCHEME, ClassReport.PLAIN_SCHEME };
    private static final int BINS_PER_DURATION = 40;
    private static final int WINDOW_START_BIN = BINS_PER_DURATION / 10;
    private static final int MAX_DURATIONS = 20;
    private static final int PLOT_DURATIONS = 2;
    private static final long SETTLE_NS = TimeUnit.SECONDS.toNanos(1);

    /**
     * What the experiment runs.
     *
     * @param topologySpec   as given, e.g. {@code star:4}.
     * @param topology       the fabric.
     * @param rateBitsPerSec every link's rate.
     * @param apps           the applications, each with its own DSCP.
     * @param classes        the traffic classes of every port and host.
     * @param durationNs     flows start within this time from the run's start.
     * @param seed           of the trace.
     * @param out            the results directory.
     * @param graceNs        how long to wait for flows after the last one started.
     * @param commandLine    the command, for the README.
     */
    public record Settings(String topologySpec, Topology topology, long rateBitsPerSec, List<WorkloadMix.App> apps,
        TrafficClasses classes, long durationNs, long seed, Path out, long graceNs, String commandLine)
    {
        /**
         * Checks every field.
         */
        public Settings
        {
            apps = List.copyOf(apps);
            if (apps.isEmpty())
            {
                throw new IllegalArgumentException("give the applications: --app WORKLOAD:LOAD:dscp=D, one per class");
            }
            final Set<Integer> dscps = new HashSet<>();
            for (final WorkloadMix.App app : apps)
            {
                if (!dscps.add(app.dscp()))
                {
                    throw new IllegalArgumentException("two applications have DSCP " + app.dscp() + ": give each " +
                        "its own (:dscp=D), so that its bytes can be told apart");
                }
            }
            if (durationNs <= 0 || graceNs <= 0)
            {
                throw new IllegalArgumentException("the duration and the grace must be positive");
            }
            if (rateBitsPerSec <= 0)
            {
                throw new IllegalArgumentException("the rate must be positive");
            }
            if (topology.hosts().size() < 2)
            {
                throw new IllegalArgumentException("an experiment needs at least 2 hosts");
            }
        }

        /**
         * The mix's total load, as it appears in file names: {@code 1.6}.
         *
         * @return the label.
         */
        public String loadLabel()
        {
            return ExperimentSettings.loadLabel(WorkloadMix.totalLoad(apps));
        }
    }

    /**
     * What came out.
     *
     * @param rows          the lines of {@code classes.csv}.
     * @param lines         the summary.
     * @param backlogged    one line on the bytes sent while every class was backlogged, under classes.
     * @param flowsByDscp   flows of the trace per DSCP.
     * @param incomplete    flows that did not complete, per scheme.
     * @param wallSec       time the experiment took.
     * @param cpuSec        CPU time of this process (switches and hosts included) meanwhile.
     * @param lateSamplesNs the latest a counter sample was taken after its time, over both schemes.
     * @param fidelity      each scheme's run's invariants, by {@code scheme,load}.
     */
    public record Outcome(List<ClassReport.Row> rows, List<ResultsTable.Line> lines, String backlogged,
        Map<Integer, Long> flowsByDscp, Map<String, Long> incomplete, long wallSec, double cpuSec,
        long lateSamplesNs, Map<String, Fidelity> fidelity)
    {
    }

    private final Settings settings;
    private final Topology topology;
    private final PrintStream out;
    private final NetnsTestbed testbed;
    private final String prefix;
    private final Teardown teardown = new Teardown();
    private ProgressBar progress;
    private HostdReplay hosts;
    private volatile boolean stopped;
    private final PublishingObserver observers = new PublishingObserver();
    private Path publishDirectory;
    private String publishName;

    /**
     * An experiment.
     *
     * @param settings what to run.
     * @param out      where progress and notes go (standard error).
     */
    public ClassExperiment(final Settings settings, final PrintStream out)
    {
        this(settings, out, PREFIX);
    }

    /**
     * An experiment whose namespaces are named from a prefix of its own.
     *
     * @param settings what to run.
     * @param out      where progress and notes go (standard error).
     * @param prefix   of its namespaces' names, {@value #PREFIX} by default.
     */
    public ClassExperiment(final Settings settings, final PrintStream out, final String prefix)
    {
        this.settings = settings;
        this.topology = settings.topology();
        this.out = out;
        this.prefix = prefix;
        this.testbed = new NetnsTestbed(topology, prefix);
    }

    /**
     * Publish the fabric while the run goes on, for {@code pfabric top} and {@code pfabric monitor} in another
     * terminal ({@link FabricMetrics}), as {@link Experiment#publish} does; removed when the run ends, fails or is
     * stopped.
     *
     * @param pfabricDirectory the project's {@code .pfabric} directory.
     * @param name             the run's name there, e.g. {@code experiment-classes}.
     * @return this.
     */
    public ClassExperiment publish(final Path pfabricDirectory, final String name)
    {
        publishDirectory = pfabricDirectory;
        publishName = name;
        return this;
    }

    /**
     * Tell an observer what runs from now on: each fabric brought up and each set of hosts started.
     *
     * @param newObserver the observer.
     * @return this.
     */
    public ClassExperiment observe(final Experiment.Observer newObserver)
    {
        observers.observe(newObserver);
        return this;
    }

    private void publish() throws IOException
    {
        if (null == publishDirectory)
        {
            return;
        }
        try
        {
            observers.publish(teardown.add(FabricMetrics.publish(publishDirectory, publishName, topology)));
        }
        catch (final IllegalStateException ex)
        {
            out.println("pfabric experiment classes: " + ex.getMessage() + "; 'pfabric top' will not show this run");
        }
    }

    /**
     * Stop at once and tear the fabric down (from a shutdown hook on Ctrl-C).
     */
    public void stop()
    {
        stopped = true;
        final ProgressBar current = progress;
        if (null != current)
        {
            current.interrupt();
        }
        teardown.closeAll();
    }

    /**
     * {@link #run()} with a shutdown hook that stops the run and tears the fabric down on Ctrl-C or SIGTERM.
     *
     * @param command named in the message the hook prints.
     * @return what came out.
     * @throws IOException if the fabric, a host or a file fails.
     */
    public Outcome runStoppingOnSignal(final String command) throws IOException
    {
        return Experiment.stoppingOnSignal(command, out, this::stop, () ->
            (null == progress ? "before the first run" : progress.whereInterrupted()) + "; results of the finished " +
            "runs are in " + settings.out(), this::run);
    }

    /**
     * Run both schemes on the same trace, then Ideal, then the report.
     *
     * @return what came out.
     * @throws IOException if the fabric, a host or a file fails.
     */
    public Outcome run() throws IOException
    {
        final long startNs = System.nanoTime();
        final long startCpuNs = processCpuNs();
        final Path dir = settings.out();
        Files.createDirectories(dir);
        final List<String> leftovers = NetnsFabric.removeLeftovers(prefix);
        if (!leftovers.isEmpty())
        {
            out.println("pfabric experiment classes: removed leftovers of an earlier run " + leftovers);
        }
        final String label = settings.loadLabel();
        final List<WorkloadTrace.FlowSpec> trace = WorkloadMix.generate(topology.hosts().size(),
            settings.rateBitsPerSec(), settings.apps(), settings.seed(), 0, settings.durationNs());
        final List<String> names = topology.hosts().stream().map(HostSpec::name).toList();
        TraceFile.write(dir.resolve("trace-" + label + ".csv"), trace, names);
        final Map<Integer, Long> flowsByDscp = new LinkedHashMap<>();
        for (final WorkloadMix.App app : settings.apps())
        {
            final long count = trace.stream().filter(flow -> flow.dscp() == app.dscp()).count();
            flowsByDscp.put(app.dscp(), count);
            final int trafficClass = settings.classes().classOf(app.dscp());
            out.printf(Locale.ROOT, "pfabric experiment classes: %s at load %s, DSCP %d (class %d of weight %d): " +
                "%,d flows%n", app.workload(), app.load(), app.dscp(), trafficClass,
                settings.classes().weight(trafficClass), count);
        }
        progress = new ProgressBar(out, (long)SCHEMES.length * trace.size());
        hosts = new HostdReplay(topology, settings.rateBitsPerSec(), out, progress, teardown, () -> stopped);
        hosts.observe(observers);
        final long binNs = Math.max(1, settings.durationNs() / BINS_PER_DURATION);
        final Map<String, Samples> samples = new LinkedHashMap<>();
        final Map<String, Long> incomplete = new LinkedHashMap<>();
        PathRtts rtts = null;
        final Map<String, Fidelity> fidelity = new LinkedHashMap<>();
        progress.start();
        try
        {
            publish();
            for (final String scheme : SCHEMES)
            {
                final boolean withClasses = ClassReport.CLASSES_SCHEME.equals(scheme);
                final DisciplineKind discipline = withClasses ? DisciplineKind.PFABRIC_CLASSES :
                    DisciplineKind.PFABRIC;
                progress.phase(scheme + ": fabric up (" + settings.topologySpec() + ", " + discipline.cliName() +
                    " " + discipline.defaultCapacityLength() + " B" + (withClasses ? ", classes " +
                    settings.classes() : "") + ")");
                final EmulatedFabric fabric =
                    teardown.add(testbed.up(discipline, withClasses ? settings.classes() : null));
                observers.onFabric(topology, fabric.switches());
                try
                {
                    if (null == rtts)
                    {
                        rtts = hosts.measureBaseRtts(fabric);
                    }
                    LockSupport.parkNanos(SETTLE_NS);
                    progress.phase(scheme + ": replaying " + trace.size() + " flows");
                    final Path log = dir.resolve("fct-" + scheme + "-" + label + ".csv");
                    final RunCounters before = RunCounters.snapshot(topology, fabric);
                    final Sampler sampler = teardown.add(new Sampler(fabric.switches(), binNs,
                        BINS_PER_DURATION * MAX_DURATIONS));
                    hosts.forgetHosts();
                    final FidelityMonitor monitor = FidelityMonitor.start(topology, fabric.switches(),
                        hosts::currentHosts, text -> progress.warn(scheme + ": " + text));
                    try
                    {
                        hosts.replay(fabric, scheme, hosts.configuration("pfabric", rtts.maxNs()),
                            withClasses ? settings.classes() : null, trace, log, settings.graceNs(), sampler::start);
                    }
                    finally
                    {
                        monitor.close();
                    }
                    final Fidelity figures = monitor.finish();
                    fidelity.put(scheme + "," + label, figures);
                    fabric.switches().stopForwarding();
                    samples.put(scheme, sampler.finish());
                    teardown.closeDownTo(sampler);
                    if (stopped)
                    {
                        throw new IOException("stopped");
                    }
                    final RunCounters counters = RunCounters.snapshot(topology, fabric).since(before);
                    counters.write(dir.resolve("counters-" + scheme + "-" + label + ".csv"));
                    progress.phase(scheme + " done: " + counters.summary() + "; fidelity " + figures.label() + " (" +
                        figures.figures() + ")");
                }
                finally
                {
                    teardown.closeDownTo(fabric);
                }
            }
        }
        finally
        {
            progress.close();
            teardown.closeAll();
        }
        rtts.write(dir.resolve("base-rtt.csv"));
        new IdealScheduler(settings.rateBitsPerSec(), rtts).writeFctLog(trace, names,
            dir.resolve("fct-ideal-" + label + ".csv"));
        ClassReport.writeIdealWithinClasses(settings.classes(), trace, names, settings.rateBitsPerSec(), rtts,
            FlowSizeDistribution.SEGMENT_WIRE_BYTES, dir.resolve("fct-" + ClassReport.IDEAL_CLASS_SCHEME + "-" + label +
            ".csv"));
        final FctAnalysis analysis = new FctAnalysis(settings.rateBitsPerSec(), rtts);
        final List<ResultsTable.Line> lines = ResultsTable.summarize(dir, analysis, rtts::hostIndex);
        ResultsTable.writeCsv(dir.resolve("summary.csv"), lines, line -> Fidelity.labelOf(fidelity, line));
        for (final String scheme : SCHEMES)
        {
            incomplete.put(scheme, lines.stream().filter(line -> line.scheme().equals(scheme) &&
                FctAnalysis.Bin.ALL == line.summary().bin()).mapToLong(line -> line.summary().incomplete()).sum());
        }

        final Samples classesSamples = samples.get(ClassReport.CLASSES_SCHEME);
        final long[] backloggedByClass = classesSamples.backloggedInWindow(WINDOW_START_BIN, BINS_PER_DURATION);
        long backloggedTotal = 0;
        for (final long bytes : backloggedByClass)
        {
            backloggedTotal += bytes;
        }
        final List<ClassReport.Row> rows = new ArrayList<>();
        final List<ClassPlot.Throughput> throughputs = new ArrayList<>();
        final int lastBin = samples.values().stream().mapToInt(Samples::bins).max().orElse(0);
        final int plotBins = Math.min(lastBin, BINS_PER_DURATION * PLOT_DURATIONS);
        try (BufferedWriter writer = Files.newBufferedWriter(dir.resolve("throughput.csv"), StandardCharsets.UTF_8))
        {
            writer.write(ClassReport.THROUGHPUT_HEADER);
            writer.newLine();
            for (final Map.Entry<String, Samples> entry : samples.entrySet())
            {
                final ClassReport.Bins bins = entry.getValue()::payloadBytes;
                long windowTotal = 0;
                for (final WorkloadMix.App app : settings.apps())
                {
                    windowTotal += ClassReport.bytes(bins, app.dscp(), WINDOW_START_BIN, BINS_PER_DURATION);
                }
                final boolean withClasses = ClassReport.CLASSES_SCHEME.equals(entry.getKey());
                for (final WorkloadMix.App app : settings.apps())
                {
                    final int trafficClass = settings.classes().classOf(app.dscp());
                    rows.add(ClassReport.row(entry.getKey(), settings.classes(), app, WINDOW_START_BIN * binNs / 1e6,
                        BINS_PER_DURATION * binNs / 1e6,
                        ClassReport.bytes(bins, app.dscp(), WINDOW_START_BIN, BINS_PER_DURATION), windowTotal, lines,
                        withClasses ? backloggedByClass[trafficClass] : -1, backloggedTotal));
                }
                throughputs.addAll(ClassReport.writeThroughput(writer, entry.getKey(), settings.apps(), bins, binNs,
                    lastBin, plotBins));
            }
        }
        ClassReport.writeCsv(dir.resolve("classes.csv"), rows);
        final Map<String, Double> weightShares = new LinkedHashMap<>();
        for (final WorkloadMix.App app : settings.apps())
        {
            weightShares.put(ClassReport.label(app), ClassReport.weightShare(settings.classes(), app.dscp()));
        }
        ClassPlot.write(throughputs, binNs / 1e6, weightShares, ClassReport.smallFlows(dir, label, settings.apps(),
            List.of(ClassReport.CLASSES_SCHEME, ClassReport.PLAIN_SCHEME, ClassReport.IDEAL_CLASS_SCHEME), analysis,
            rtts), String.format(Locale.ROOT, "%s on %s at %s, classes %s, flows starting within %.0f ms",
            settings.apps().stream().map(app -> app.workload() + " " + app.load() + " dscp" + app.dscp()).toList(),
            settings.topologySpec(), Rates.format(settings.rateBitsPerSec()), settings.classes(),
            settings.durationNs() / 1e6) + (Fidelity.brokenRuns(fidelity).isEmpty() ? "" :
            "; WARNING invariants broken in " + Fidelity.brokenRuns(fidelity)), dir.resolve("classes.png"));
        final String backlogged = classesSamples.writePorts(settings.classes(), WINDOW_START_BIN, BINS_PER_DURATION,
            dir.resolve("ports.csv"));
        final long lateNs = samples.values().stream().mapToLong(Samples::latestNs).max().orElse(0);
        final Outcome outcome = new Outcome(List.copyOf(rows), lines, backlogged, flowsByDscp, incomplete,
            TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNs), (processCpuNs() - startCpuNs) / 1e9, lateNs,
            Collections.unmodifiableMap(new LinkedHashMap<>(fidelity)));
        ClassExperimentReport.write(settings, outcome, hosts.configuration("pfabric", rtts.maxNs()), rtts,
            dir.resolve("README.md"));
        return outcome;
    }

    private static long processCpuNs()
    {
        return ManagementFactory.getOperatingSystemMXBean() instanceof
            final com.sun.management.OperatingSystemMXBean os ? os.getProcessCpuTime() : 0;
    }

    /**
     * One switch port the sampler reads.
     *
     * @param switchName its switch.
     * @param port       the port.
     * @param down       whether it leads to a host.
     */
    private record Port(String switchName, SwitchPort port, boolean down)
    {
    }

    /**
     * Reads the switches' counters at every bin's edge from the run's origin, on a thread of its own: per DSCP, the
     * payload bytes sent on the ports down to hosts; per class, each port's bytes sent and sent while every class was
     * backlogged. The counters are the data path's own, written by the forwarder and read here without locking.
     */
    private final class Sampler implements AutoCloseable
    {
        private final List<Port> ports = new ArrayList<>();
        private final long binNs;
        private final int maxBins;
        private final List<long[]> payloadByDscp = new ArrayList<>();
        private final List<long[][]> classBytes = new ArrayList<>();
        private volatile boolean done;
        private long latestNs;
        private Thread thread;

        Sampler(final FabricRunner switches, final long binNs, final int maxBins)
        {
            this.binNs = binNs;
            this.maxBins = maxBins;
            final Set<String> downPorts = new HashSet<>();
            for (final HostSpec host : topology.hosts())
            {
                downPorts.add(host.switchName() + "/" + host.portName());
            }
            for (final SwitchSpec spec : topology.switches())
            {
                final SwitchDaemon daemon = switches.daemon(spec.name());
                for (int i = 0; i < daemon.portCount(); i++)
                {
                    final SwitchPort port = daemon.port(i);
                    ports.add(new Port(spec.name(), port, downPorts.contains(spec.name() + "/" + port.name())));
                }
            }
        }

        /**
         * Start sampling: the first sample at the origin, one per bin after it.
         */
        void start(final long originNs)
        {
            thread = new Thread(() -> sample(originNs), "experiment-sampler");
            thread.setDaemon(true);
            thread.start();
        }

        private void sample(final long originNs)
        {
            for (int bin = 0; bin <= maxBins && !done; bin++)
            {
                final long atNs = originNs + bin * binNs;
                long nowNs;
                while ((nowNs = System.nanoTime()) < atNs && !done)
                {
                    LockSupport.parkNanos(atNs - nowNs);
                }
                if (done)
                {
                    return;
                }
                take(nowNs - atNs);
            }
        }

        private synchronized void take(final long lateNs)
        {
            latestNs = Math.max(latestNs, lateNs);
            final long[] payload = new long[TrafficClasses.DSCP_COUNT];
            final long[][] perPort = new long[ports.size()][];
            for (int p = 0; p < ports.size(); p++)
            {
                final Port port = ports.get(p);
                if (port.down())
                {
                    for (int dscp = 0; dscp < TrafficClasses.DSCP_COUNT; dscp++)
                    {
                        payload[dscp] += port.port().transmittedPayloadBytes(dscp);
                    }
                }
                if (port.port().queue() instanceof final PfabricClassQueue queue)
                {
                    final int classCount = queue.classes().classCount();
                    final long[] values = new long[2 * classCount + 1];
                    for (int k = 0; k < classCount; k++)
                    {
                        values[2 * k] = queue.departedBytes(k);
                        values[2 * k + 1] = queue.backloggedBytes(k);
                    }
                    values[2 * classCount] = queue.backloggedStretches();
                    perPort[p] = values;
                }
            }
            payloadByDscp.add(payload);
            classBytes.add(perPort);
        }

        /**
         * Stop sampling, take a last sample (the run's end), and hand over what was taken.
         */
        Samples finish()
        {
            close();
            take(0);
            synchronized (this)
            {
                return new Samples(ports, List.copyOf(payloadByDscp), List.copyOf(classBytes), latestNs);
            }
        }

        /**
         * Stop sampling.
         */
        public void close()
        {
            done = true;
            if (null != thread)
            {
                LockSupport.unpark(thread);
                try
                {
                    thread.join();
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /**
     * A scheme's samples: cumulative counters at the edge of every bin, the last at the run's end.
     */
    private record Samples(List<Port> ports, List<long[]> payloadByDscp, List<long[][]> classBytes, long latestNs)
    {
        int bins()
        {
            return payloadByDscp.size() - 1;
        }

        long payloadBytes(final int dscp, final int bin)
        {
            if (bin + 1 >= payloadByDscp.size())
            {
                return 0;
            }
            return payloadByDscp.get(bin + 1)[dscp] - payloadByDscp.get(bin)[dscp];
        }

        private long[][] at(final int bin)
        {
            return classBytes.get(Math.min(bin, classBytes.size() - 1));
        }

        /**
         * Each class's bytes sent while every class was backlogged, over every port with classes, in the window.
         */
        long[] backloggedInWindow(final int fromBin, final int toBin)
        {
            final long[][] start = at(fromBin);
            final long[][] end = at(toBin);
            long[] sums = new long[0];
            for (int p = 0; p < ports.size(); p++)
            {
                if (null == end[p])
                {
                    continue;
                }
                final int classCount = (end[p].length - 1) / 2;
                if (sums.length < classCount)
                {
                    sums = Arrays.copyOf(sums, classCount);
                }
                for (int k = 0; k < classCount; k++)
                {
                    sums[k] += end[p][2 * k + 1] - start[p][2 * k + 1];
                }
            }
            return sums;
        }

        /**
         * Every port with classes: each class's bytes sent, and sent while every class was backlogged, in the
         * window, busiest first; and the line that sums it up.
         */
        String writePorts(final TrafficClasses classes, final int fromBin, final int toBin, final Path file)
            throws IOException
        {
            final long[][] start = at(fromBin);
            final long[][] end = at(toBin);
            final List<Integer> order = new ArrayList<>();
            final long[] totals = new long[ports.size()];
            for (int p = 0; p < ports.size(); p++)
            {
                if (null != end[p])
                {
                    for (int k = 0; k < classes.classCount(); k++)
                    {
                        totals[p] += end[p][2 * k + 1] - start[p][2 * k + 1];
                    }
                    order.add(p);
                }
            }
            order.sort((a, b) -> Long.compare(totals[b], totals[a]));
            final long[] byClass = new long[classes.classCount()];
            final long[] downByClass = new long[classes.classCount()];
            long stretches = 0;
            try (BufferedWriter writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8))
            {
                writer.write(PORTS_HEADER);
                writer.newLine();
                for (final int p : order)
                {
                    final Port port = ports.get(p);
                    final long portStretches = end[p][2 * classes.classCount()] - start[p][2 * classes.classCount()];
                    stretches += portStretches;
                    for (int k = 0; k < classes.classCount(); k++)
                    {
                        final long departed = end[p][2 * k] - start[p][2 * k];
                        final long backlogged = end[p][2 * k + 1] - start[p][2 * k + 1];
                        byClass[k] += backlogged;
                        if (port.down())
                        {
                            downByClass[k] += backlogged;
                        }
                        writer.write(String.format(Locale.ROOT, "%s,%s,%b,%d,%.4f,%d,%d,%.4f,%d", port.switchName(),
                            port.port().name(), port.down(), k, (double)classes.weight(k) / classes.totalWeight(),
                            departed, backlogged, (double)backlogged / Math.max(1, totals[p]), portStretches));
                        writer.newLine();
                    }
                }
            }
            long sum = 0;
            long downSum = 0;
            for (int k = 0; k < byClass.length; k++)
            {
                sum += byClass[k];
                downSum += downByClass[k];
            }
            final StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "both-backlogged share under " +
                "%s in the window: switch ports sent %,d B while every class was backlogged there, in %,d " +
                "stretches (%,.0f B each on average);", ClassReport.CLASSES_SCHEME, sum, stretches,
                (double)sum / Math.max(1, stretches)));
            for (int k = 0; k < byClass.length; k++)
            {
                line.append(String.format(Locale.ROOT, " class %d %.4f (weight %.4f)", k,
                    (double)byClass[k] / Math.max(1, sum), (double)classes.weight(k) / classes.totalWeight()));
            }
            line.append(String.format(Locale.ROOT, "; on the ports down to hosts %,d B, class 0 %.4f", downSum,
                (double)downByClass[0] / Math.max(1, downSum)));
            return line.toString();
        }
    }
}
