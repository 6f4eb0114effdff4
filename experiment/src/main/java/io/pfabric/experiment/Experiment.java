package io.pfabric.experiment;

import io.pfabric.analysis.DeadlineReport;
import io.pfabric.analysis.FctPlot;
import io.pfabric.analysis.FctAnalysis;
import io.pfabric.analysis.IdealScheduler;
import io.pfabric.analysis.PathRtts;
import io.pfabric.analysis.ResultsTable;
import io.pfabric.experiment.TcpReplay;
import io.pfabric.common.os.Commands;
import io.pfabric.common.topology.HostSpec;
import io.pfabric.common.topology.Rates;
import io.pfabric.common.topology.Topologies;
import io.pfabric.common.topology.Topology;
import io.pfabric.common.topology.TopologySpec;
import io.pfabric.hostd.HostDaemon;
import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.workload.FctLogWriter;
import io.pfabric.hostd.workload.FctLogReader;
import io.pfabric.hostd.workload.FlowSizeDistribution;
import io.pfabric.hostd.workload.TraceFile;
import io.pfabric.hostd.workload.WorkloadTrace;
import io.pfabric.analysis.StrictThresholds;
import io.pfabric.common.topology.DisciplineSpec;
import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.dataplane.queue.PiasQueue;
import io.pfabric.hostd.transport.PiasThresholds;
import io.pfabric.sim.SimFabric;
import io.pfabric.sim.SimRun;
import io.pfabric.sim.SimSettings;
import io.pfabric.testbed.CongestionControlAllowance;
import io.pfabric.testbed.FabricRunner;
import io.pfabric.testbed.NetnsFabric;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * An FCT experiment on an emulated fabric (network namespaces, or Mininet): for each scheme the fabric comes up (switchd with pFabric's
 * 36 KB queues for {@code pfabric} and {@code linerate}, drop-tail 225 KB queues for kernel {@code tcp}), every load
 * replays its trace (the same trace for every scheme), the fabric comes down; Ideal is computed for every trace; the
 * FCT logs, the traces, base RTTs, summary, plot ({@code fct-vs-load.png}) and a README land in the results
 * directory.
 */
public final class Experiment
{
    /**
     * Prefix of the experiment's namespaces; leftovers of a crashed run are removed at the next start.
     */
    public static final String PREFIX = "pfexp";

    /**
     * The scheme under which the simulator's pFabric on the same trace and fabric appears beside the emulated one.
     */
    public static final String SIMULATED_SCHEME = "pfabric-sim";

    /**
     * The scheme under which the simulator's PIAS on the same trace and fabric appears beside the emulated one.
     */
    public static final String SIMULATED_PIAS_SCHEME = "pias-sim";

    /**
     * Pooled kernel-TCP connections per destination.
     */
    public static final int TCP_POOL = 4;

    /**
     * The first of the loopback testbed's UDP ports (two per host).
     */
    public static final int LOOPBACK_FIRST_UDP_PORT = 47_900;

    private static final long SETTLE_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long RUN_END_PATIENCE_SEC = 60;
    private static final long MIN_TCP_RTO_MIN_NS = TimeUnit.MILLISECONDS.toNanos(1);

    /**
     * What an experiment produced.
     *
     * @param lines       the summary table.
     * @param rtts        the measured base RTT of every path.
     * @param transportSettings hostd's transport settings.
     * @param tcpSettings the kernel TCP settings of the baseline, or null if it did not run.
     * @param fidelity    each emulated run's invariants, by {@code scheme,load}, in the order they ran.
     */
    public record Outcome(List<ResultsTable.Line> lines, PathRtts rtts, String transportSettings, String tcpSettings,
        Map<String, Fidelity> fidelity)
    {
        /**
         * The verdict of the run a line of the table comes from.
         *
         * @param line a line of the table.
         * @return {@link Fidelity#label()}, or {@code -} for a scheme that was not emulated (Ideal, the simulator).
         */
        public String fidelityOf(final ResultsTable.Line line)
        {
            return Fidelity.labelOf(fidelity, line);
        }

        /**
         * The runs whose invariants broke.
         *
         * @return their keys, {@code scheme,load}.
         */
        public Set<String> brokenRuns()
        {
            return Fidelity.brokenRuns(fidelity);
        }
    }

    private final ExperimentSettings settings;
    private final Topology topology;
    private final List<String> hostNames = new ArrayList<>();
    private final PrintStream out;
    private final EmulatedFabric.Testbed testbed;
    private final ProgressBar progress;
    private final Teardown teardown = new Teardown();
    private final HostdReplay hosts;
    private volatile boolean stopped;
    private final String prefix;
    private final PublishingObserver observers = new PublishingObserver();
    private Path publishDirectory;
    private String publishName;
    private PathRtts rtts;
    private String tcpSettings;
    private final Map<String, Fidelity> fidelity = new LinkedHashMap<>();
    private boolean calibrating;
    private String piasSettings;

    /**
     * Told what runs, as it starts, for a view of the experiment while it runs; on the experiment's thread.
     */
    public interface Observer
    {
        /**
         * A fabric is up.
         *
         * @param topology the fabric's topology.
         * @param switches its switches, when they run in this process, else null.
         */
        default void onFabric(Topology topology, FabricRunner switches)
        {
        }

        /**
         * Hosts of hostd's transport have started, in place of any before them.
         *
         * @param hosts the hosts.
         */
        default void onHosts(List<HostDaemon> hosts)
        {
        }

        /**
         * Hosts replaying with kernel TCP have started, in place of any hosts before them.
         *
         * @param hosts   the hosts' names.
         * @param replays their replays, in the same order.
         */
        default void onTcpHosts(List<String> hosts, List<TcpReplay> replays)
        {
        }
    }

    /**
     * Tell an observer what runs from now on.
     *
     * @param newObserver the observer.
     * @return this.
     */
    public Experiment observe(final Observer newObserver)
    {
        observers.observe(newObserver);
        return this;
    }

    /**
     * Publish the fabric while the run goes on, for {@code pfabric top} and {@code pfabric monitor} in another
     * terminal ({@link FabricMetrics}); removed when the run ends, fails or is stopped.
     *
     * @param pfabricDirectory the project's {@code .pfabric} directory.
     * @param name             the run's name there, e.g. {@code demo}.
     * @return this.
     */
    public Experiment publish(final Path pfabricDirectory, final String name)
    {
        publishDirectory = pfabricDirectory;
        publishName = name;
        return this;
    }

    /**
     * An experiment.
     *
     * @param settings what to run.
     * @param out      where progress and notes go (standard error).
     */
    public Experiment(final ExperimentSettings settings, final PrintStream out)
    {
        this(settings, out, PREFIX);
    }

    /**
     * An experiment whose namespaces have a prefix of their own.
     *
     * @param settings what to run.
     * @param out      where progress and notes go (standard error).
     * @param prefix   of its namespace names ({@value #PREFIX} by default).
     */
    public Experiment(final ExperimentSettings settings, final PrintStream out, final String prefix)
    {
        this.settings = settings;
        this.prefix = prefix;
        this.topology = settings.topology();
        this.out = out;
        for (final HostSpec host : topology.hosts())
        {
            hostNames.add(host.name());
        }
        this.testbed = switch (settings.testbed())
        {
            case "mininet" ->
                new MininetTestbed(settings.topologySpec(), settings.rateBitsPerSec(), prefix, settings.out());
            case "loopback" -> new LoopbackTestbed(topology);
            default -> new NetnsTestbed(topology, prefix);
        };
        this.progress = new ProgressBar(out,
            (long)settings.schemes().size() * settings.loads().size() * settings.flows());
        this.hosts = new HostdReplay(topology, settings.rateBitsPerSec(), out, progress, teardown, () -> stopped);
        hosts.observe(observers);
    }

    /**
     * Mark the experiment as a probe of {@link Calibration}, which does not warn against the rate on record.
     *
     * @return this.
     */
    Experiment calibrating()
    {
        calibrating = true;
        return this;
    }

    /**
     * The fabric of the loopback testbed: a star whose ports are VXLAN tunnels on loopback.
     *
     * @param hosts          number of hosts.
     * @param rateBitsPerSec every link's rate.
     * @return the topology.
     */
    public static Topology loopbackStar(final int hosts, final long rateBitsPerSec)
    {
        return Topologies.starOverUdp(hosts, LOOPBACK_FIRST_UDP_PORT, rateBitsPerSec, "pfabric");
    }

    /**
     * Stop at once and tear the fabric down (from a shutdown hook on Ctrl-C).
     */
    public void stop()
    {
        stopped = true;
        progress.interrupt();
        teardown.closeAll();
    }

    /**
     * How far the run got, for the last line of an interrupted run.
     *
     * @return e.g. {@code during pfabric at load 0.5, 0:12 into the run; ...}.
     */
    String progressWhenInterrupted()
    {
        return progress.whereInterrupted() + "; the FCT logs of the runs that finished are in " + settings.out() +
            " (a run cut short leaves its rows only in a hidden .partial file)";
    }

    /**
     * {@link #run()} with a shutdown hook that stops the run and tears the fabric down on Ctrl-C or SIGTERM.
     *
     * @param command named in the message the hook prints, e.g. {@code pfabric demo}.
     * @return the summary.
     * @throws IOException if the fabric, a host or a file fails.
     */
    public Outcome runStoppingOnSignal(final String command) throws IOException
    {
        return stoppingOnSignal(command, out, this::stop, this::progressWhenInterrupted, this::run);
    }

    /**
     * A run that may fail.
     *
     * @param <T> what it gives.
     */
    @FunctionalInterface
    interface Run<T>
    {
        /**
         * Run.
         *
         * @return what came out.
         * @throws IOException if it fails.
         */
        T run() throws IOException;
    }

    /**
     * Run with a shutdown hook that stops the run on Ctrl-C or SIGTERM, saying so: the hook stops the run, waits for
     * it to end and says how far it got, as the last line. Once stopped, the run's own failures (of hosts torn down
     * under it) are not reported: the process ends with the hook.
     *
     * @param command named in the messages the hook prints.
     * @param out     where the messages go.
     * @param stop    stops the run and tears its fabric down.
     * @param where   how far the run got, once stopped.
     * @param run     the run.
     * @param <T>     what it gives.
     * @return what came out.
     * @throws IOException if the run fails.
     */
    static <T> T stoppingOnSignal(final String command, final PrintStream out, final Runnable stop,
        final Supplier<String> where, final Run<T> run) throws IOException
    {
        final AtomicBoolean signalled = new AtomicBoolean();
        final CountDownLatch ended = new CountDownLatch(1);
        final Thread hook = new Thread(() ->
        {
            signalled.set(true);
            out.println();
            out.println(command + ": stopping; tearing the fabric down");
            stop.run();
            try
            {
                ended.await(RUN_END_PATIENCE_SEC, TimeUnit.SECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            out.println(command + ": interrupted " + where.get());
            out.flush();
        }, "experiment-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try
        {
            return run.run();
        }
        catch (final IOException | RuntimeException ex)
        {
            if (signalled.get())
            {
                ended.countDown();
                // The JVM is shutting down: it exits when the hook is done; nothing more to report from here.
                while (true)
                {
                    LockSupport.park();
                }
            }
            throw ex;
        }
        finally
        {
            ended.countDown();
            try
            {
                Runtime.getRuntime().removeShutdownHook(hook);
            }
            catch (final IllegalStateException ex)
            {
                // Already shutting down: the hook tears down.
            }
        }
    }

    /**
     * Run every scheme at every load, then Ideal, then the analysis.
     *
     * @return the summary.
     * @throws IOException if the fabric, a host or a file fails.
     */
    public Outcome run() throws IOException
    {
        final long startNs = System.nanoTime();
        Files.createDirectories(settings.out());
        final List<String> leftovers =
            "loopback".equals(settings.testbed()) ? List.of() : NetnsFabric.removeLeftovers(prefix);
        if (!leftovers.isEmpty())
        {
            out.println("pfabric experiment: removed leftovers of an earlier run " + leftovers);
        }
        if (!calibrating)
        {
            warnAboveCalibration();
        }
        final Map<Double, List<WorkloadTrace.FlowSpec>> traces = traces();
        publish();
        progress.start();
        try
        {
            for (final String scheme : settings.schemes())
            {
                runScheme(scheme, traces);
            }
        }
        finally
        {
            progress.close();
            teardown.closeAll();
        }
        rtts.write(settings.out().resolve("base-rtt.csv"));
        for (final Map.Entry<Double, List<WorkloadTrace.FlowSpec>> entry : traces.entrySet())
        {
            ideal(entry.getKey(), entry.getValue());
            if (settings.simulates() && !stopped)
            {
                simulate(entry.getKey(), entry.getValue());
            }
            if (settings.schemes().contains("pias") && !stopped)
            {
                simulatePias(entry.getKey(), entry.getValue());
            }
        }
        final List<ResultsTable.Line> lines = ResultsTable.summarize(settings.out(),
            new FctAnalysis(settings.rateBitsPerSec(), rtts), rtts::hostIndex);
        final Outcome outcome = new Outcome(lines, rtts, transportSettings(),
            null == piasSettings ? tcpSettings : tcpSettings + "; pias: " + piasSettings,
            Collections.unmodifiableMap(new LinkedHashMap<>(fidelity)));
        ResultsTable.writeCsv(settings.out().resolve("summary.csv"), lines, outcome::fidelityOf);
        if (null != settings.deadlines())
        {
            writeDeadlines();
        }
        FctPlot.write(lines, String.format(Locale.ROOT, "normalized FCT: %s on %s at %s, %,d flows per load%s",
            settings.workload(), settings.topologySpec(), Rates.format(settings.rateBitsPerSec()), settings.flows(),
            outcome.brokenRuns().isEmpty() ? "" : " (x: invariants broken, the machine's figures)"),
            settings.out().resolve("fct-vs-load.png"), outcome.brokenRuns());
        warnBroken(outcome);
        ExperimentReport.write(settings, outcome, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNs),
            settings.out().resolve("README.md"));
        return outcome;
    }

    /**
     * Warn when the rate asked for is above the one {@link Calibration} found this machine keeps its invariants at,
     * for this topology and workload, if one is on record.
     */
    private void warnAboveCalibration()
    {
        Calibration.recorded(Calibration.file(), settings.topologySpec(), settings.workload()).ifPresent(recorded ->
        {
            if (settings.rateBitsPerSec() > recorded.rateBitsPerSec())
            {
                out.printf(Locale.ROOT, "pfabric experiment: WARNING %s is above %s, the fastest rate at which " +
                    "this machine kept the invariants of %s with %s when calibrated (%s, %s): expect runs marked " +
                    "broken%n", Rates.format(settings.rateBitsPerSec()), 0 == recorded.rateBitsPerSec() ? "0 (none " +
                    "of the rates tried)" : Rates.format(recorded.rateBitsPerSec()), settings.topologySpec(),
                    settings.workload(), recorded.calibratedAt(), Calibration.file());
            }
        });
    }

    /**
     * Say, after the table, which runs' figures are the machine's rather than the network's.
     */
    private void warnBroken(final Outcome outcome)
    {
        outcome.fidelity().forEach((run, figures) ->
        {
            if (figures.isBroken())
            {
                out.printf(Locale.ROOT, "pfabric experiment: WARNING %s at load %s: %s; its figures describe this " +
                    "machine more than the network (%s)%n", run.substring(0, run.indexOf(',')),
                    run.substring(run.indexOf(',') + 1), figures.label(), figures.figures());
            }
        });
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
            out.println("pfabric experiment: " + ex.getMessage() + "; 'pfabric top' will not show this run");
        }
    }

    private void writeDeadlines() throws IOException
    {
        final FctAnalysis analysis = new FctAnalysis(settings.rateBitsPerSec(), rtts);
        final List<DeadlineReport.Row> rows = new ArrayList<>();
        final List<String> schemes = new ArrayList<>(settings.schemes());
        schemes.add("ideal");
        if (settings.simulates())
        {
            schemes.add(SIMULATED_SCHEME);
        }
        for (final double load : settings.loads())
        {
            final String label = ExperimentSettings.loadLabel(load);
            for (final String scheme : schemes)
            {
                final Path log = settings.out().resolve("fct-" + scheme + "-" + label + ".csv");
                if (Files.exists(log))
                {
                    rows.add(DeadlineReport.of(scheme, label, settings.deadlines().meanNs() / 1e3,
                        FctLogReader.read(log), analysis, rtts::hostIndex));
                }
            }
        }
        DeadlineReport.writeCsv(settings.out().resolve("deadlines.csv"), rows);
        DeadlineReport.writeOtherCsv(settings.out().resolve("deadlines-other-fct.csv"), rows);
        DeadlineReport.print(out, rows);
    }

    private Map<Double, List<WorkloadTrace.FlowSpec>> traces() throws IOException
    {
        final FlowSizeDistribution sizes = FlowSizeDistribution.load(settings.workload());
        final Map<Double, List<WorkloadTrace.FlowSpec>> traces = new LinkedHashMap<>();
        for (final double load : settings.loads())
        {
            final List<WorkloadTrace.FlowSpec> trace = WorkloadTrace.generate(hostNames.size(), load,
                settings.rateBitsPerSec(), sizes, settings.seed(), settings.flows(), 0);
            TraceFile.write(settings.out().resolve("trace-" + ExperimentSettings.loadLabel(load) + ".csv"), trace,
                hostNames);
            traces.put(load, trace);
        }
        return traces;
    }

    /**
     * Give every trace's flows their deadlines, from the base RTTs just measured, and write the traces again.
     */
    private void giveDeadlines(final Map<Double, List<WorkloadTrace.FlowSpec>> traces) throws IOException
    {
        if (null == settings.deadlines())
        {
            return;
        }
        for (final Map.Entry<Double, List<WorkloadTrace.FlowSpec>> entry : traces.entrySet())
        {
            entry.setValue(settings.deadlines().apply(entry.getValue(), rtts::nanos, settings.rateBitsPerSec(),
                FlowSizeDistribution.SEGMENT_WIRE_BYTES, settings.seed()));
            TraceFile.write(settings.out().resolve("trace-" + ExperimentSettings.loadLabel(entry.getKey()) + ".csv"),
                entry.getValue(), hostNames);
        }
    }

    /**
     * The switch queues a scheme runs on at a load, {@code NAME[:PARAMS]}: drop-tail for kernel TCP and droptail,
     * pfabric-edf's own, PIAS's for pias, and for pfabric and linerate {@code --discipline} (pfabric by default) with
     * strict:N's thresholds computed for the load.
     *
     * @param scheme the scheme.
     * @param load   the load.
     * @return the discipline.
     * @throws IOException if the workload's file cannot be read.
     */
    String discipline(final String scheme, final double load) throws IOException
    {
        return switch (scheme)
        {
            case "tcp", "droptail" -> DisciplineKind.DROPTAIL.cliName();
            case "pfabric-edf" -> DisciplineKind.PFABRIC_EDF.cliName();
            case "pias" -> PiasQueue.NAME + ":" + piasThresholds(load).priorities() + ":" +
                DisciplineSpec.DEFAULT_PIAS_MARKING_LENGTH;
            default -> null == settings.discipline() ? DisciplineKind.PFABRIC.cliName() : StrictThresholds.resolve(
                DisciplineSpec.parse(settings.discipline()), FlowSizeDistribution.load(settings.workload()), load)
                .toString();
        };
    }

    private static long bufferLength(final String discipline)
    {
        return DisciplineKind.byName(DisciplineSpec.parse(discipline).name()).defaultCapacityLength();
    }

    /**
     * The thresholds PIAS's hosts tag by at a load: those of PIAS's scripts for the experiment's workload.
     *
     * @param load the load.
     * @return the thresholds.
     */
    PiasThresholds piasThresholds(final double load)
    {
        return PiasThresholds.forWorkload(settings.workload(), load);
    }

    private void runScheme(final String scheme, final Map<Double, List<WorkloadTrace.FlowSpec>> traces)
        throws IOException
    {
        final boolean tcp = "tcp".equals(scheme) || "pias".equals(scheme);
        EmulatedFabric fabric = null;
        String discipline = null;
        try
        {
            for (final Map.Entry<Double, List<WorkloadTrace.FlowSpec>> entry : traces.entrySet())
            {
                final String wanted = discipline(scheme, entry.getKey());
                if (!wanted.equals(discipline))
                {
                    if (null != fabric)
                    {
                        teardown.closeDownTo(fabric);
                    }
                    discipline = wanted;
                    progress.phase(scheme + ": fabric up (" + settings.topologySpec() + ", " + discipline + " " +
                        bufferLength(discipline) + " B)");
                    fabric = teardown.add(testbed.up(discipline, bufferLength(discipline)));
                    observers.onFabric(topology, fabric.switches());
                }
                if (null == rtts)
                {
                    rtts = hosts.measureBaseRtts(fabric);
                    giveDeadlines(traces);
                }
                LockSupport.parkNanos(SETTLE_NS);
                final String load = ExperimentSettings.loadLabel(entry.getKey());
                progress.phase(scheme + " at load " + load);
                final Path log = settings.out().resolve("fct-" + scheme + "-" + load + ".csv");
                final RunCounters before = RunCounters.snapshot(topology, fabric);
                hosts.forgetHosts();
                final String run = scheme + " at load " + load;
                final FidelityMonitor monitor = FidelityMonitor.start(topology, fabric.switches(),
                    tcp ? List::of : hosts::currentHosts, text -> progress.warn(run + ": " + text));
                try
                {
                    if (tcp)
                    {
                        runTcp(fabric, entry.getValue(), log, "pias".equals(scheme) ?
                            piasThresholds(entry.getKey()) : null);
                    }
                    else
                    {
                        hosts.replay(fabric, scheme, configuration(scheme, rtts.maxNs()), null, entry.getValue(), log,
                            settings.graceNs(), originNs -> { });
                    }
                }
                finally
                {
                    monitor.close();
                }
                if (stopped)
                {
                    throw new IOException("stopped");
                }
                final Fidelity figures = monitor.finish();
                fidelity.put(scheme + "," + load, figures);
                final RunCounters counters = RunCounters.snapshot(topology, fabric).since(before);
                counters.write(settings.out().resolve("counters-" + scheme + "-" + load + ".csv"));
                progress.phase(run + " done: " + counters.summary() + "; fidelity " + figures.label() + " (" +
                    figures.figures() + ")");
            }
        }
        finally
        {
            if (null != fabric)
            {
                teardown.closeDownTo(fabric);
            }
        }
    }

    /**
     * The hosts' transport settings: {@link HostdReplay#configuration(String, long)}.
     *
     * @param scheme    pfabric, linerate or droptail (windowed, as pfabric).
     * @param baseRttNs the largest base RTT of the fabric.
     * @return the hosts' settings.
     */
    TransportConfiguration configuration(final String scheme, final long baseRttNs)
    {
        return hosts.configuration(scheme, baseRttNs);
    }

    /**
     * One line on the hosts' transport settings, for the results.
     *
     * @return the text, or null before the base RTT is measured.
     */
    public String transportSettings()
    {
        if (null == rtts)
        {
            return null;
        }
        final TransportConfiguration configuration = configuration("pfabric", rtts.maxNs());
        return String.format(Locale.ROOT, "initial window %d packets, cap %d, timeout %.0f us, probe mode after %d " +
            "timeouts, over %s", configuration.initialWindowPackets(),
            configuration.maxWindowPackets(), configuration.timeoutNs() / 1e3, configuration.probeAfterTimeouts(),
            "loopback".equals(settings.testbed()) ? "VXLAN on loopback" : "UDP");
    }

    private long tcpRtoMinUs()
    {
        return (settings.tcpRtoMinNs() > 0 ? settings.tcpRtoMinNs() :
            Math.max(MIN_TCP_RTO_MIN_NS, 3 * rtts.maxNs())) / 1_000;
    }

    private void runTcp(final EmulatedFabric fabric, final List<WorkloadTrace.FlowSpec> trace, final Path logPath,
        final PiasThresholds pias) throws IOException
    {
        final long rtoMinUs = tcpRtoMinUs();
        allowCongestionControl(settings.congestionControl());
        final List<InetAddress> addresses = new ArrayList<>();
        for (final HostSpec host : topology.hosts())
        {
            addresses.add(InetAddress.getByName(host.ipText()));
        }
        for (final String name : hostNames)
        {
            final String namespace = fabric.namespace(name);
            Commands.inNamespace(namespace, "sysctl", "-qw", "net.ipv4.tcp_rto_min_us=" + rtoMinUs);
            Commands.inNamespace(namespace, "sysctl", "-qw",
                "net.ipv4.tcp_congestion_control=" + settings.congestionControl());
            if (null != pias)
            {
                Commands.inNamespace(namespace, "sysctl", "-qw", "net.ipv4.tcp_ecn=1");
            }
        }
        tcpSettings = TcpReplay.settings(settings.congestionControl(), rtoMinUs, TCP_POOL);
        if (null != pias)
        {
            piasSettings = "kernel TCP " + settings.congestionControl() + " with ECN (net.ipv4.tcp_ecn=1), " +
                "the socket's DSCP set by the bytes a flow has written against " + pias + " (PIAS's scripts for " +
                settings.workload() + ")";
        }
        final List<ExecutorService> threads = new ArrayList<>();
        final List<TcpReplay> replays = new ArrayList<>();
        final AutoCloseable first = teardown.add(() -> threads.forEach(ExecutorService::shutdownNow));
        final FctLogWriter log = new FctLogWriter(logPath, false, null != settings.deadlines());
        try
        {
            for (int i = 0; i < hostNames.size(); i++)
            {
                final int self = i;
                final String namespace = fabric.namespace(hostNames.get(i));
                final ExecutorService thread = Executors.newSingleThreadExecutor(runnable ->
                {
                    final Thread t = new Thread(runnable, "experiment-tcp-" + hostNames.get(self));
                    t.setDaemon(true);
                    return t;
                });
                threads.add(thread);
                replays.add(teardown.add(HostdReplay.get(thread.submit(() -> TcpReplay.start(namespace, addresses, self,
                    pias)))));
            }
            observers.onTcpHosts(List.copyOf(hostNames), List.copyOf(replays));
            final List<Future<?>> connected = new ArrayList<>();
            for (int i = 0; i < replays.size(); i++)
            {
                final TcpReplay replay = replays.get(i);
                connected.add(threads.get(i).submit(() ->
                {
                    replay.connect(TCP_POOL);
                    return null;
                }));
            }
            for (final Future<?> future : connected)
            {
                HostdReplay.get(future);
            }
            final long originNs = System.nanoTime() + HostdReplay.ORIGIN_LEAD_NS;
            final List<Callable<Long>> work = new ArrayList<>();
            for (final TcpReplay replay : replays)
            {
                work.add(() -> (long)replay.replay(trace, hostNames, log, settings.graceNs(), originNs));
            }
            hosts.runAll(work, () -> replays.stream().mapToLong(TcpReplay::completedFlows).sum(), settings.flows());
        }
        finally
        {
            if (stopped)
            {
                log.closeIncomplete();
            }
            else
            {
                log.close();
            }
            teardown.closeDownTo(first);
        }
    }

    /**
     * Let a child namespace choose the baseline's congestion control: the host's list of allowed algorithms is
     * extended for the rest of the run if it lacks it, and put back at teardown.
     */
    private void allowCongestionControl(final String congestionControl) throws IOException
    {
        final CongestionControlAllowance allowance = teardown.add(CongestionControlAllowance.allow(congestionControl));
        if (allowance.changed())
        {
            out.printf(Locale.ROOT, "pfabric experiment: allowed %s in network namespaces for this run " +
                "(net.ipv4.tcp_allowed_congestion_control was '%s'; put back at the end)%n", congestionControl,
                allowance.previous());
        }
    }

    /**
     * The simulated fabric beside the emulated one: the same shape, rates and pFabric buffers, link delays that give
     * it the base RTTs measured on the emulated fabric, every host with the transport settings the emulated hosts
     * had.
     *
     * @return the fabric.
     */
    SimFabric simulatedFabric()
    {
        final TopologySpec shape = TopologySpec.parse(settings.topologySpec());
        final long rate = settings.rateBitsPerSec();
        return new SimFabric(shape.leaves(), shape.hostsPerLeaf(), shape.spines(), rate, rate, 0, 0,
            DisciplineKind.PFABRIC.defaultCapacityLength(), "pfabric", shape.pods())
            .withBaseRtts(shape.hostsPerLeaf() > 1 ? rtts.nanos(0, 1) : rtts.maxNs(), rtts.maxNs());
    }

    /**
     * The simulated fabric with the queues an emulated scheme ran on at a load.
     *
     * @param scheme the emulated scheme.
     * @param load   the load.
     * @return the fabric.
     * @throws IOException if the workload's file cannot be read.
     */
    SimFabric simulatedFabric(final String scheme, final double load) throws IOException
    {
        final String discipline = discipline(scheme, load);
        return simulatedFabric().withQueues(discipline, bufferLength(discipline));
    }

    /**
     * pFabric in the simulator on a load's trace, as {@code pfabric-sim}: hostd's transport and switchd's queues on
     * virtual time, on {@link #simulatedFabric()}.
     */
    private void simulate(final double load, final List<WorkloadTrace.FlowSpec> trace) throws IOException
    {
        final String label = ExperimentSettings.loadLabel(load);
        final SimSettings simSettings = new SimSettings(rtts.maxNs(), configuration("pfabric", rtts.maxNs()),
            SimSettings.PAPER_TCP_MIN_RTO_NS, SimSettings.PAPER_ECN_THRESHOLD_LENGTH, "the emulated hosts' settings");
        final SimRun.Outcome outcome = SimRun.run(simulatedFabric("pfabric", load), simSettings, "pfabric",
            SIMULATED_SCHEME, trace, settings.seed(),
            settings.out().resolve("fct-" + SIMULATED_SCHEME + "-" + label + ".csv"), out);
        out.printf(Locale.ROOT, "pfabric experiment: %s at load %s: simulated in %.1f s, %d flows incomplete%n",
            SIMULATED_SCHEME, label, outcome.wallNs() / 1e9, outcome.incomplete());
    }

    /**
     * PIAS in the simulator on a load's trace, as {@code pias-sim}: the simulator's DCTCP hosts tagging by the same
     * thresholds, on the same PIAS queues, with the kernel's minimum RTO of the emulated run.
     */
    private void simulatePias(final double load, final List<WorkloadTrace.FlowSpec> trace) throws IOException
    {
        final String label = ExperimentSettings.loadLabel(load);
        final SimSettings simSettings = new SimSettings(rtts.maxNs(), configuration("pfabric", rtts.maxNs()),
            tcpRtoMinUs() * 1_000, DisciplineSpec.DEFAULT_PIAS_MARKING_LENGTH, "the emulated hosts' settings")
            .withPias(piasThresholds(load));
        final SimRun.Outcome outcome = SimRun.run(simulatedFabric("pias", load), simSettings, "pias",
            SIMULATED_PIAS_SCHEME, trace, settings.seed(),
            settings.out().resolve("fct-" + SIMULATED_PIAS_SCHEME + "-" + label + ".csv"), out);
        out.printf(Locale.ROOT, "pfabric experiment: %s at load %s: simulated in %.1f s, %d flows incomplete%n",
            SIMULATED_PIAS_SCHEME, label, outcome.wallNs() / 1e9, outcome.incomplete());
    }

    private void ideal(final double load, final List<WorkloadTrace.FlowSpec> trace) throws IOException
    {
        new IdealScheduler(settings.rateBitsPerSec(), rtts).writeFctLog(trace, hostNames,
            settings.out().resolve("fct-ideal-" + ExperimentSettings.loadLabel(load) + ".csv"));
    }
}
