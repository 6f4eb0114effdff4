package io.pfabric.experiment;

import io.pfabric.analysis.PathRtts;
import io.pfabric.common.os.SchedulerTick;
import io.pfabric.common.topology.HostSpec;
import io.pfabric.common.topology.Topology;
import io.pfabric.common.topology.TrafficClasses;
import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.hostd.HostDaemon;
import io.pfabric.hostd.io.PacketIos;
import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.hostd.transport.PriorityPolicy;
import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.transport.TransportListener;
import io.pfabric.hostd.workload.FctLogWriter;
import io.pfabric.hostd.workload.WorkloadRunner;
import io.pfabric.hostd.workload.WorkloadTrace;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * hostd's side of an experiment on an emulated fabric: the hosts' transport settings, the base RTTs measured once
 * with a warm-up, and a trace replayed by in-process hosts, one {@link WorkloadRunner} each, into an FCT log. Shared
 * by {@link Experiment} and {@link ClassExperiment}; what it starts is closed by their {@link Teardown}.
 */
final class HostdReplay
{
    private static final int RTT_SAMPLES = 20;
    /**
     * How far ahead of the hosts' start a run's time zero is set.
     */
    static final long ORIGIN_LEAD_NS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long RTT_PATIENCE_NS = TimeUnit.SECONDS.toNanos(2);
    private static final int WARM_UP_ROUNDS = 3;
    private static final long WARM_UP_FLOW_BYTES = 4_000_000;
    private static final int WARM_UP_SHORT_FLOWS = 100;
    private static final long WARM_UP_SHORT_FLOW_BYTES = 8_760;
    private static final long WARM_UP_PATIENCE_SEC = 120;

    /**
     * Told when the hosts' workload starts, on the thread that starts it, before any flow.
     */
    @FunctionalInterface
    interface OriginListener
    {
        /**
         * The run's time zero.
         *
         * @param originNs {@link System#nanoTime()} at which the trace's time 0 falls.
         */
        void onOrigin(long originNs);
    }

    private final Topology topology;
    private final List<String> hostNames = new ArrayList<>();
    private final long rateBitsPerSec;
    private final PrintStream out;
    private final ProgressBar progress;
    private final Teardown teardown;
    private final BooleanSupplier stopped;
    private volatile List<HostDaemon> currentHosts = List.of();
    private volatile Experiment.Observer observer = new Experiment.Observer()
    {
    };

    /**
     * Replays on a fabric.
     *
     * @param topology       the fabric.
     * @param rateBitsPerSec every link's rate.
     * @param out            where notes go.
     * @param progress       told of phases and flows finished.
     * @param teardown       takes charge of what is started.
     * @param stopped        whether the run was stopped.
     */
    HostdReplay(final Topology topology, final long rateBitsPerSec, final PrintStream out, final ProgressBar progress,
        final Teardown teardown, final BooleanSupplier stopped)
    {
        this.topology = topology;
        this.rateBitsPerSec = rateBitsPerSec;
        this.out = out;
        this.progress = progress;
        this.teardown = teardown;
        this.stopped = stopped;
        for (final HostSpec host : topology.hosts())
        {
            hostNames.add(host.name());
        }
    }

    /**
     * The hosts' names by index.
     *
     * @return the names.
     */
    List<String> hostNames()
    {
        return hostNames;
    }

    /**
     * The paper's settings for the measured base RTT, except that the timeout also covers a full pFabric buffer
     * draining at the link rate ({@link TransportConfiguration#forEmulatedFabric}).
     *
     * @param scheme    pfabric, linerate, droptail (windowed, as pfabric) or pfabric-edf (windowed, with deadline
     *                  priorities).
     * @param baseRttNs the largest base RTT of the fabric.
     * @return the hosts' settings.
     */
    TransportConfiguration configuration(final String scheme, final long baseRttNs)
    {
        final long bufferLength = DisciplineKind.PFABRIC.defaultCapacityLength();
        final TransportConfiguration windowed =
            TransportConfiguration.forEmulatedFabric(rateBitsPerSec, baseRttNs, bufferLength, SchedulerTick.periodNs());
        return "linerate".equals(scheme) ? windowed.withLineRate() :
            "pfabric-edf".equals(scheme) ? windowed.withPriorityPolicy(PriorityPolicy.DEADLINE) : windowed;
    }

    /**
     * The hosts started last, since {@link #forgetHosts()}: a run's hosts once it has started them.
     *
     * @return the hosts, or none.
     */
    List<HostDaemon> currentHosts()
    {
        return currentHosts;
    }

    /**
     * Forget the hosts started so far, before a run starts its own.
     */
    void forgetHosts()
    {
        currentHosts = List.of();
    }

    /**
     * Start every host, each in its namespace.
     *
     * @param fabric        the fabric.
     * @param configuration the transport's settings.
     * @param classes       traffic classes the hosts share their links between, or null to send by SRPT.
     * @return the hosts, by index.
     * @throws IOException if a host cannot start.
     */
    List<HostDaemon> startHosts(final EmulatedFabric fabric, final TransportConfiguration configuration,
        final TrafficClasses classes) throws IOException
    {
        final TransportListener quiet = new TransportListener()
        {
        };
        final Function<String, HostDaemon.Options> options = name -> new HostDaemon.Options(configuration,
            rateBitsPerSec, PacketIos.wireOverheadLength(fabric.hostIo()), fabric.namespace(name), false)
            .withClasses(classes);
        final List<HostDaemon> hosts = new ArrayList<>();
        for (final HostDaemon host : HostDaemon.startAll(topology, hostNames, options, fabric.hostIo(), name -> quiet,
            PacketIos.groups(fabric.hostIo())))
        {
            hosts.add(teardown.add(host));
        }
        observer.onHosts(List.copyOf(hosts));
        currentHosts = List.copyOf(hosts);
        return hosts;
    }

    /**
     * The base RTT of each class of path (same switch, or across the fabric), measured once on a representative
     * pair with one-segment flows of hostd's transport on the idle fabric, the best of 20; then a warm-up.
     *
     * @param fabric the idle fabric.
     * @return the base RTTs.
     * @throws IOException if the hosts fail.
     */
    PathRtts measureBaseRtts(final EmulatedFabric fabric) throws IOException
    {
        progress.phase("measuring base RTTs");
        final List<HostDaemon> hosts =
            startHosts(fabric, configuration("pfabric", TimeUnit.MILLISECONDS.toNanos(1)), null);
        try
        {
            final long[] byClass = { -1, -1 };
            for (int source = 0; source < hostNames.size(); source++)
            {
                for (int destination = 0; destination < hostNames.size(); destination++)
                {
                    final int pathClass = pathClass(source, destination);
                    if (source != destination && byClass[pathClass] < 0)
                    {
                        final long[] samplesNs = hosts.get(source).oneSegmentRttsNs(hostNames.get(destination),
                            RTT_SAMPLES, RTT_PATIENCE_NS);
                        Arrays.sort(samplesNs);
                        byClass[pathClass] = samplesNs[0];
                        out.printf(Locale.ROOT, "pfabric experiment: base RTT %s -> %s (%s): %.1f us " +
                            "(median %.1f us, largest %.1f us of %d)%n",
                            hostNames.get(source), hostNames.get(destination),
                            0 == pathClass ? "same switch" : "across the fabric", byClass[pathClass] / 1e3,
                            samplesNs[samplesNs.length / 2] / 1e3, samplesNs[samplesNs.length - 1] / 1e3,
                            samplesNs.length);
                    }
                }
            }
            warmUp(hosts);
            return PathRtts.byClass(hostNames, (source, destination) -> byClass[pathClass(source, destination)]);
        }
        finally
        {
            teardown.closeDownTo(hosts.get(0));
        }
    }

    /**
     * Tell an observer of every set of hosts started from now on.
     *
     * @param newObserver the observer.
     */
    void observe(final Experiment.Observer newObserver)
    {
        observer = newObserver;
    }

    /**
     * Every host sends a long flow and many short ones to the next host at once, a few times over, so that the JIT
     * has compiled the transport's and the switch's paths, per packet and per flow, before the first measured run:
     * otherwise the scheme that runs first pays for the warm-up.
     */
    private void warmUp(final List<HostDaemon> hosts) throws IOException
    {
        progress.phase("warming up (" + WARM_UP_ROUNDS + " rounds of a " + WARM_UP_FLOW_BYTES / 1_000_000 +
            " MB flow and " + WARM_UP_SHORT_FLOWS + " short ones from every host to the next)");
        for (int round = 0; round < WARM_UP_ROUNDS && !stopped.getAsBoolean(); round++)
        {
            final List<CompletableFuture<FlowRecord>> flows = new ArrayList<>();
            for (int i = 0; i < hosts.size(); i++)
            {
                final String next = hostNames.get((i + 1) % hosts.size());
                flows.add(hosts.get(i).send(next, WARM_UP_FLOW_BYTES));
                for (int k = 0; k < WARM_UP_SHORT_FLOWS; k++)
                {
                    flows.add(hosts.get(i).send(next, WARM_UP_SHORT_FLOW_BYTES));
                }
            }
            try
            {
                CompletableFuture.allOf(flows.toArray(CompletableFuture[]::new)).get(WARM_UP_PATIENCE_SEC,
                    TimeUnit.SECONDS);
            }
            catch (final ExecutionException | TimeoutException ex)
            {
                throw new IOException("the warm-up flows did not complete in " + WARM_UP_PATIENCE_SEC + " s", ex);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", ex);
            }
        }
    }

    private int pathClass(final int source, final int destination)
    {
        final List<HostSpec> hosts = topology.hosts();
        return hosts.get(source).switchName().equals(hosts.get(destination).switchName()) ? 0 : 1;
    }

    /**
     * Replay a trace: every host starts its flows at their times from a common origin, waits for them, and the
     * flows still open when the hosts stop are logged as incomplete.
     *
     * @param fabric        the fabric.
     * @param scheme        the scheme logged.
     * @param configuration the transport's settings.
     * @param classes       traffic classes the hosts share their links between, or null to send by SRPT.
     * @param trace         the flows.
     * @param logPath       the FCT log.
     * @param graceNs       how long to wait for flows after the last start.
     * @param origin        told of the origin before the first flow.
     * @throws IOException if a host or the log fails.
     */
    void replay(final EmulatedFabric fabric, final String scheme, final TransportConfiguration configuration,
        final TrafficClasses classes, final List<WorkloadTrace.FlowSpec> trace, final Path logPath,
        final long graceNs, final OriginListener origin) throws IOException
    {
        final List<WorkloadRunner> runners = new ArrayList<>();
        for (int i = 0; i < hostNames.size(); i++)
        {
            runners.add(new WorkloadRunner(scheme, new PrintStream(OutputStream.nullOutputStream())));
        }
        final List<HostDaemon> hosts = startHosts(fabric, configuration, classes);
        final AutoCloseable stopRunners = teardown.add(() -> runners.forEach(WorkloadRunner::stop));
        final FctLogWriter log = new FctLogWriter(logPath, trace.stream().anyMatch(flow -> 0 != flow.dscp()),
            trace.stream().anyMatch(WorkloadTrace.FlowSpec::hasDeadline));
        try
        {
            final long originNs = System.nanoTime() + ORIGIN_LEAD_NS;
            origin.onOrigin(originNs);
            final List<Callable<Long>> work = new ArrayList<>();
            for (int i = 0; i < hosts.size(); i++)
            {
                final HostDaemon host = hosts.get(i);
                final WorkloadRunner runner = runners.get(i);
                work.add(() -> runner.run(host, trace, log, graceNs, originNs));
            }
            runAll(work, () -> runners.stream().mapToLong(WorkloadRunner::finishedFlows).sum(), trace.size());
            teardown.closeDownTo(hosts.get(0));
            for (int i = 0; i < hosts.size(); i++)
            {
                runners.get(i).drain(hosts.get(i), log);
            }
        }
        finally
        {
            if (stopped.getAsBoolean())
            {
                log.closeIncomplete();
            }
            else
            {
                log.close();
            }
            teardown.closeDownTo(hosts.get(0));
            teardown.closeDownTo(stopRunners);
        }
    }

    /**
     * Run one task per host at once and wait for all, reporting flows finished so far to the progress bar.
     *
     * @param work     a task per host.
     * @param finished flows finished so far.
     * @param flows    flows of the run.
     * @throws IOException if a task fails.
     */
    void runAll(final List<Callable<Long>> work, final LongSupplier finished, final long flows) throws IOException
    {
        final ExecutorService threads = Executors.newFixedThreadPool(work.size(), runnable ->
        {
            final Thread thread = new Thread(runnable, "experiment-host");
            thread.setDaemon(true);
            return thread;
        });
        final long before = progress.done();
        progress.tracking(() -> before + finished.getAsLong());
        try
        {
            final List<Future<Long>> futures = new ArrayList<>();
            for (final Callable<Long> task : work)
            {
                futures.add(threads.submit(task));
            }
            for (final Future<Long> future : futures)
            {
                get(future);
            }
        }
        finally
        {
            progress.tracking(() -> before + flows);
            threads.shutdownNow();
        }
    }

    /**
     * A task's result, its failure as an IOException.
     *
     * @param future the task.
     * @param <T>    its result's type.
     * @return the result.
     * @throws IOException if it failed or the wait was interrupted.
     */
    static <T> T get(final Future<T> future) throws IOException
    {
        try
        {
            return future.get();
        }
        catch (final ExecutionException ex)
        {
            final Throwable cause = ex.getCause();
            if (cause instanceof IOException io)
            {
                throw io;
            }
            throw new IOException(String.valueOf(cause.getMessage()), cause);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", ex);
        }
    }
}
