package io.pfabric.cli;

import io.pfabric.common.topology.HostSpec;
import io.pfabric.common.topology.LinkSpec;
import io.pfabric.common.topology.Rates;
import io.pfabric.common.topology.SwitchSpec;
import io.pfabric.common.topology.Topology;
import io.pfabric.common.topology.TopologyParser;
import io.pfabric.common.topology.TopologySpec;
import io.pfabric.hostd.workload.FctLogReader;
import io.pfabric.hostd.workload.FlowSizeDistribution;
import io.pfabric.hostd.workload.WorkloadTrace;
import io.pfabric.experiment.CountersFidelity;
import io.pfabric.experiment.Fidelity;
import io.pfabric.testbed.NetnsFabric;
import io.pfabric.testbed.monitor.MetricsEndpoint;
import io.pfabric.testbed.monitor.PrometheusText;
import io.pfabric.testbed.monitor.PublishedFabric;
import io.pfabric.testbed.monitor.Top;
import io.pfabric.testbed.monitor.TopView;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;

/**
 * A long run of a workload on a namespace fabric with every daemon in its own process, watched from outside: each
 * sample interval, counted from when every daemon has written its first counters, it reads every process's resident memory and open descriptors from {@code /proc} and its heap after
 * the last collection, threads and counters from its {@code --counters-file}; at the end it stops the hosts and then
 * the switches with SIGTERM, checks that every counters file holds a final snapshot, that every switch accounts for
 * every frame it received (transmitted, dropped by a named reason or still queued) and every link for every frame
 * sent over it, that every flow of the trace completed, and says whether any process grew.
 */
final class Soak
{
    static final String DONE_LINE = "workload done";
    private static final int SIGTERM_EXIT_CODE = 128 + 15;
    private static final String PORT_DROPS = "pfabric_port_dropped_frames_total";
    private static final long POLL_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long STOP_PATIENCE_SECONDS = 60;
    private static final long START_PATIENCE_NS = TimeUnit.SECONDS.toNanos(60);
    private static final long RESTART_DELAY_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long FINISH_PATIENCE_NS = TimeUnit.SECONDS.toNanos(60);

    /**
     * What to run and the bounds on growth.
     *
     * @param topologySpec     a shape such as {@code leafspine:LxHxS}, or a topology file whose ports share one rate.
     * @param rateBitsPerSec   every link's rate.
     * @param workload         flow-size distribution, name or file.
     * @param load             offered load per host link.
     * @param durationNs       time over which flows start.
     * @param sampleIntervalNs time between samples.
     * @param seed             of the trace.
     * @param maxHeap          every daemon's heap, e.g. {@code 128m}: {@code -Xms} and {@code -Xmx}, touched at start.
     * @param graceNs          how long hosts wait for their flows in flight after their last start.
     * @param heapBoundBytes   most growth of heap after GC that counts as flat.
     * @param rssBoundBytes    most growth of resident memory that counts as flat.
     * @param fdBound          most growth of open descriptors that counts as flat.
     * @param threadBound      most growth of live threads that counts as flat.
     * @param out              directory for logs, counters files, samples and summary.
     * @param prefix           of the fabric's namespaces.
     * @param killSwitchesAtNs when to kill the switches' process with SIGKILL and start a new one a second later,
     *                         from the start of the run; 0 for never.
     */
    record Settings(String topologySpec, long rateBitsPerSec, String workload, double load, long durationNs,
        long sampleIntervalNs, long seed, String maxHeap, long graceNs, long heapBoundBytes, long rssBoundBytes,
        long fdBound, long threadBound, Path out, String prefix, long killSwitchesAtNs)
    {
    }

    /**
     * What the hosts' final counters say, summed over the hosts.
     *
     * @param flowsStarted      flows started, the trace's and the base-RTT measurements'.
     * @param flowsCompleted    flows whose every byte was acknowledged.
     * @param messagesDelivered messages handed to a receiving application.
     * @param timeouts          flow timeouts.
     * @param duplicatePackets  data packets received twice (and not delivered twice).
     */
    record HostTotals(long flowsStarted, long flowsCompleted, long messagesDelivered, long timeouts,
        long duplicatePackets)
    {
        /**
         * Whether every flow started was completed and delivered exactly once.
         *
         * @return true if so.
         */
        boolean exactlyOnce()
        {
            return flowsStarted == flowsCompleted && flowsCompleted == messagesDelivered;
        }
    }

    /**
     * One process at one time.
     *
     * @param elapsedNs        since the start of the run.
     * @param process          {@code switches} or the host's name.
     * @param rssBytes         resident memory.
     * @param fds              open file descriptors.
     * @param heapAfterGcBytes heap in use after the last collection.
     * @param heapUsedBytes    heap in use now.
     * @param gcCount          collections so far.
     * @param threads          live threads.
     * @param work             frames received by every switch, or flows completed by the host.
     */
    record Sample(long elapsedNs, String process, long rssBytes, long fds, long heapAfterGcBytes, long heapUsedBytes,
        long gcCount, long threads, long work)
    {
    }

    /**
     * How one measure of one process changed between the sample at a third of the run (after warm-up) and the last.
     *
     * @param process which.
     * @param measure which.
     * @param first   value at the first sample after warm-up.
     * @param last    value at the last sample.
     * @param max     largest value after warm-up.
     * @param bound   most growth that counts as flat.
     */
    record Growth(String process, String measure, long first, long last, long max, long bound)
    {
        /**
         * Whether it grew beyond the bound.
         *
         * @return true if so.
         */
        boolean grew()
        {
            return last - first > bound;
        }
    }

    /**
     * A counter identity: what came in against where it went.
     *
     * @param where      a switch, or a link.
     * @param received   frames in.
     * @param accounted  frames out, dropped by reason, or still queued.
     * @param breakdown  the terms of {@code accounted}.
     */
    record Identity(String where, long received, long accounted, String breakdown)
    {
        /**
         * Whether every frame is accounted for.
         *
         * @return true if so.
         */
        boolean holds()
        {
            return received == accounted;
        }
    }

    /**
     * What a run saw.
     *
     * @param samples        every sample, in time order.
     * @param growth         per process and measure.
     * @param identities     per switch and per link.
     * @param traceFlows     flows of the trace.
     * @param completedFlows flows complete in the FCT logs.
     * @param finalSnapshots processes whose counters file ends with the stop snapshot.
     * @param processes      processes run.
     * @param hosts          the hosts' final counters.
     * @param switchKills    times the switches' process was killed and started again.
     * @param elapsedNs      length of the run.
     * @param fidelity       whether the emulated fabric's invariants held, from the final counters.
     */
    record Result(List<Sample> samples, List<Growth> growth, List<Identity> identities, long traceFlows,
        long completedFlows, int finalSnapshots, int processes, HostTotals hosts, int switchKills, long elapsedNs,
        Fidelity fidelity)
    {
        /**
         * Whether nothing grew, every identity holds, every flow completed and every process wrote its final counters.
         *
         * @return true if so.
         */
        boolean passed()
        {
            return growth.stream().noneMatch(Growth::grew) && identities.stream().allMatch(Identity::holds) &&
                traceFlows == completedFlows && finalSnapshots == processes && hosts.exactlyOnce();
        }
    }

    private record Daemon(String name, Process process, Path counters, Path log)
    {
    }

    private Soak()
    {
    }

    /**
     * Run a soak.
     *
     * @param settings what to run.
     * @param pfabric  the command that runs {@code pfabric}: java, its flags, the class path and the main class.
     * @param progress where progress lines go.
     * @return what it saw.
     * @throws IOException          if the fabric or a daemon cannot be started, or a daemon stops early.
     * @throws InterruptedException if interrupted.
     */
    static Result run(final Settings settings, final List<String> pfabric, final PrintStream progress)
        throws IOException, InterruptedException
    {
        return run(settings, pfabric, progress, null);
    }

    /**
     * Run a soak, showing its switch ports and hosts as {@code pfabric top} does while it runs.
     *
     * @param settings what to run.
     * @param pfabric  the command that runs {@code pfabric}.
     * @param progress where progress lines go.
     * @param live     where the view is redrawn every second, or null for no view.
     * @return what it saw.
     * @throws IOException          if a process or file fails.
     * @throws InterruptedException if interrupted.
     */
    static Result run(final Settings settings, final List<String> pfabric, final PrintStream progress,
        final PrintStream live) throws IOException, InterruptedException
    {
        return run(settings, pfabric, progress, live, null);
    }

    /**
     * Run a soak, showing its switch ports and hosts as {@code pfabric top} does while it runs, and publishing its
     * fabric for {@code pfabric top} and {@code pfabric monitor} in another terminal: every daemon serves
     * {@code --metrics}, the output directory holds their records as a testbed's state does, and
     * {@code .pfabric/live/soak} links to it until the soak ends (also on Ctrl-C).
     *
     * @param settings         what to run.
     * @param pfabric          the command that runs {@code pfabric}.
     * @param progress         where progress lines go.
     * @param live             where the view is redrawn every second, or null for no view.
     * @param pfabricDirectory the project's {@code .pfabric} directory to publish in, or null to publish nothing.
     * @return what it saw.
     * @throws IOException          if a process or file fails.
     * @throws InterruptedException if interrupted.
     */
    static Result run(final Settings settings, final List<String> pfabric, final PrintStream progress,
        final PrintStream live, final Path pfabricDirectory) throws IOException, InterruptedException
    {
        final PublishedFabric published = publish(settings, pfabricDirectory, progress);
        final Thread unpublish = new Thread(() -> unpublish(published, progress), "soak-unpublish");
        Runtime.getRuntime().addShutdownHook(unpublish);
        try
        {
            return runPublished(settings, pfabric, progress, live);
        }
        finally
        {
            try
            {
                Runtime.getRuntime().removeShutdownHook(unpublish);
                unpublish(published, progress);
            }
            catch (final IllegalStateException ex)
            {
                // Shutting down: the hook removes it.
            }
        }
    }

    private static PublishedFabric publish(final Settings settings, final Path pfabricDirectory,
        final PrintStream progress) throws IOException
    {
        if (null == pfabricDirectory)
        {
            return null;
        }
        Files.createDirectories(settings.out());
        try
        {
            return PublishedFabric.link(pfabricDirectory, "soak", settings.out());
        }
        catch (final IllegalStateException ex)
        {
            progress.println("soak: " + ex.getMessage() + "; 'pfabric top' will not show this soak");
            return null;
        }
    }

    private static void unpublish(final PublishedFabric published, final PrintStream progress)
    {
        if (null == published)
        {
            return;
        }
        try
        {
            published.close();
        }
        catch (final IOException ex)
        {
            progress.println("soak: cannot remove " + ex.getMessage());
        }
    }

    private static Result runPublished(final Settings settings, final List<String> pfabric,
        final PrintStream progress, final PrintStream live) throws IOException, InterruptedException
    {
        final Topology topology = TopologySpec.namesFile(settings.topologySpec()) ?
            TopologyParser.parse(Path.of(settings.topologySpec())) :
            TopologySpec.parse(settings.topologySpec()).toTopology(settings.rateBitsPerSec(), "pfabric");
        Files.createDirectories(settings.out());
        final Path topologyFile = settings.out().resolve("topology.yaml");
        Files.writeString(topologyFile, topology.toYaml(), StandardCharsets.UTF_8);
        final List<WorkloadTrace.FlowSpec> trace = WorkloadTrace.generate(topology.hosts().size(), settings.load(),
            settings.rateBitsPerSec(), FlowSizeDistribution.load(settings.workload()), settings.seed(), 0,
            settings.durationNs());
        NetnsFabric.removeLeftovers(settings.prefix());
        final List<Daemon> daemons = new ArrayList<>();
        final List<Sample> samples = new ArrayList<>();
        final long startNs = System.nanoTime();
        final CountersFidelity fidelityWatch = new CountersFidelity();
        boolean warned = false;
        int switchKills = 0;
        try (NetnsFabric fabric = NetnsFabric.build(topology, settings.prefix()))
        {
            try
            {
                final String counterInterval = Math.max(1, settings.sampleIntervalNs() / 4_000_000_000L) + "s";
                Daemon switches = start(settings, pfabric, "switches", List.of("testbed", "switches",
                    topologyFile.toString(), "--prefix", settings.prefix(), "--counters-interval", counterInterval));
                daemons.add(switches);
                awaitFile(switches, START_PATIENCE_NS);
                for (final HostSpec host : topology.hosts())
                {
                    daemons.add(start(settings, pfabric, host.name(), List.of("hostd", "--topology",
                        topologyFile.toString(), "--name", host.name(), "--netns", fabric.namespace(host.name()),
                        "--workload", settings.workload(), "--load", Double.toString(settings.load()), "--duration",
                        settings.durationNs() / 1_000_000 + "ms", "--seed", Long.toString(settings.seed()),
                        "--fct-log", fctLog(settings, host.name()).toString(), "--grace",
                        settings.graceNs() / 1_000_000 + "ms", "--stay", "--counters-interval", counterInterval)));
                }
                final List<Daemon> hosts = List.copyOf(daemons.subList(1, daemons.size()));
                for (final Daemon host : hosts)
                {
                    awaitFile(host, START_PATIENCE_NS);
                }
                progress.printf(Locale.ROOT, "soak: %s at %s, %s at load %.2f for %s, %,d flows; %d processes, a " +
                    "sample every %s; output in %s%n", settings.topologySpec(),
                    Rates.format(settings.rateBitsPerSec()), settings.workload(),
                    settings.load(), seconds(settings.durationNs()), trace.size(), daemons.size(),
                    seconds(settings.sampleIntervalNs()), settings.out());
                final long deadlineNs = startNs + settings.durationNs() + settings.graceNs() + FINISH_PATIENCE_NS +
                    START_PATIENCE_NS;
                long nextSampleNs = System.nanoTime() + settings.sampleIntervalNs();
                PrometheusText liveBefore = null;
                long liveBeforeNs = System.nanoTime();
                String lastLine = "";
                final Set<String> done = new HashSet<>();
                while (!allDone(hosts, done))
                {
                    requireAlive(daemons);
                    final long nowNs = System.nanoTime();
                    if (nowNs - deadlineNs > 0)
                    {
                        throw new IOException("the hosts did not finish their flows within " +
                            seconds(deadlineNs - startNs) + "; see " + settings.out());
                    }
                    if (settings.killSwitchesAtNs() > 0 && 0 == switchKills &&
                        nowNs - startNs >= settings.killSwitchesAtNs())
                    {
                        switches = killAndRestart(settings, pfabric, switches, topologyFile, counterInterval,
                            progress);
                        daemons.set(0, switches);
                        switchKills++;
                    }
                    if (nowNs - nextSampleNs >= 0)
                    {
                        nextSampleNs += settings.sampleIntervalNs();
                        lastLine = progressLine(sampleAll(daemons, nowNs - startNs, samples), nowNs - startNs,
                            settings, trace.size());
                        progress.println(lastLine);
                        final Fidelity sofar = fidelity(fidelityWatch, daemons);
                        if (!warned && sofar.isBroken())
                        {
                            warned = true;
                            progress.println("soak: WARNING invariants broken: " + sofar.label() + " (" +
                                sofar.figures() + ")");
                        }
                    }
                    if (null != live)
                    {
                        final List<String> problems = new ArrayList<>();
                        final PrometheusText now = Top.scrape(MetricsEndpoint.readAll(settings.out()), problems);
                        final long liveNowNs = System.nanoTime();
                        final TopView view = TopView.of(liveBefore, now, (liveNowNs - liveBeforeNs) / 1e9);
                        live.print(Top.CLEAR + Top.screen(view, String.format(Locale.ROOT, "pfabric soak  %s of " +
                            "%s  %s", seconds(liveNowNs - startNs), seconds(settings.durationNs()),
                            settings.topologySpec()), problems) + "\n" + lastLine + "\n");
                        live.flush();
                        liveBefore = now;
                        liveBeforeNs = liveNowNs;
                    }
                    TimeUnit.NANOSECONDS.sleep(Math.min(POLL_NS, Math.max(1, nextSampleNs - System.nanoTime())));
                }
                final long lastNs = System.nanoTime() - startNs;
                progress.println(progressLine(sampleAll(daemons, lastNs, samples), lastNs, settings, trace.size()));
                for (final Daemon host : hosts)
                {
                    host.process().destroy();
                }
                for (final Daemon host : hosts)
                {
                    awaitExit(host);
                }
                switches.process().destroy();
                awaitExit(switches);
            }
            finally
            {
                for (final Daemon daemon : daemons)
                {
                    daemon.process().destroyForcibly();
                }
            }
        }
        final long elapsedNs = System.nanoTime() - startNs;
        int finals = 0;
        for (final Daemon daemon : daemons)
        {
            finals += Files.exists(daemon.counters()) &&
                PrometheusText.read(daemon.counters()).sum(CountersFile.STOPPED) == 1 ? 1 : 0;
        }
        long completed = 0;
        for (final HostSpec host : topology.hosts())
        {
            final Path log = fctLog(settings, host.name());
            if (Files.exists(log))
            {
                completed += FctLogReader.read(log).stream().filter(FctLogReader.Row::isComplete).count();
            }
        }
        final List<Identity> identities = identities(topology,
            PrometheusText.read(daemons.get(0).counters()));
        final Result result = new Result(List.copyOf(samples), growth(samples, settings), identities, trace.size(),
            completed, finals, daemons.size(), hostTotals(daemons.subList(1, daemons.size())), switchKills,
            elapsedNs, fidelity(fidelityWatch, daemons));
        writeSamples(settings.out().resolve("samples.csv"), samples);
        Files.writeString(settings.out().resolve("summary.md"), summary(result, settings), StandardCharsets.UTF_8);
        return result;
    }

    /**
     * The invariants so far, from the counters files written so far (the switches' first).
     */
    private static Fidelity fidelity(final CountersFidelity watch, final List<Daemon> daemons) throws IOException
    {
        final List<PrometheusText> hosts = new ArrayList<>();
        for (final Daemon host : daemons.subList(1, daemons.size()))
        {
            if (Files.exists(host.counters()))
            {
                hosts.add(PrometheusText.read(host.counters()));
            }
        }
        final Path switches = daemons.get(0).counters();
        return watch.read(Files.exists(switches) ? PrometheusText.read(switches) : null, hosts);
    }

    private static Daemon killAndRestart(final Settings settings, final List<String> pfabric, final Daemon switches,
        final Path topologyFile, final String counterInterval, final PrintStream progress)
        throws IOException, InterruptedException
    {
        switches.process().destroyForcibly();
        switches.process().waitFor();
        progress.printf(Locale.ROOT, "soak: killed the switches' process (SIGKILL, exit %d); a new one in %d s%n",
            switches.process().exitValue(), TimeUnit.NANOSECONDS.toSeconds(RESTART_DELAY_NS));
        TimeUnit.NANOSECONDS.sleep(RESTART_DELAY_NS);
        Files.move(switches.log(), switches.log().resolveSibling("switches-killed.log"),
            StandardCopyOption.REPLACE_EXISTING);
        final Daemon restarted = start(settings, pfabric, "switches", List.of("testbed", "switches",
            topologyFile.toString(), "--prefix", settings.prefix(), "--counters-interval", counterInterval));
        try
        {
            awaitFile(restarted, START_PATIENCE_NS);
        }
        catch (final IOException | InterruptedException | RuntimeException ex)
        {
            restarted.process().destroyForcibly();
            restarted.process().waitFor();
            throw ex;
        }
        return restarted;
    }

    private static HostTotals hostTotals(final List<Daemon> hosts) throws IOException
    {
        long started = 0;
        long completed = 0;
        long delivered = 0;
        long timeouts = 0;
        long duplicates = 0;
        for (final Daemon host : hosts)
        {
            final PrometheusText counters = PrometheusText.read(host.counters());
            started += Math.round(counters.sum("pfabric_host_flows_started_total"));
            completed += Math.round(counters.sum("pfabric_host_flows_completed_total"));
            delivered += Math.round(counters.sum("pfabric_host_messages_delivered_total"));
            timeouts += Math.round(counters.sum("pfabric_host_timeouts_total"));
            duplicates += Math.round(counters.sum("pfabric_host_duplicate_packets_total"));
        }
        return new HostTotals(started, completed, delivered, timeouts, duplicates);
    }

    static Path fctLog(final Settings settings, final String host)
    {
        return settings.out().resolve("fct-" + host + ".csv");
    }

    private static Daemon start(final Settings settings, final List<String> pfabric, final String name,
        final List<String> arguments) throws IOException
    {
        final Path counters = settings.out().resolve("counters-" + name + ".prom");
        final Path log = settings.out().resolve(name + ".log");
        Files.deleteIfExists(counters);
        final List<String> command = new ArrayList<>(pfabric);
        command.addAll(1, List.of("-Xms" + settings.maxHeap(), "-Xmx" + settings.maxHeap(), "-XX:+AlwaysPreTouch"));
        command.addAll(arguments);
        command.add("--counters-file");
        command.add(counters.toString());
        command.add("--metrics");
        command.add("0");
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        if ("switches".equals(name))
        {
            Files.writeString(settings.out().resolve(MetricsEndpoint.SWITCHES_PID), Long.toString(process.pid()));
        }
        return new Daemon(name, process, counters, log);
    }

    private static void awaitFile(final Daemon daemon, final long patienceNs) throws IOException, InterruptedException
    {
        final long deadlineNs = System.nanoTime() + patienceNs;
        while (!Files.exists(daemon.counters()))
        {
            requireAlive(List.of(daemon));
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new IOException(daemon.name() + " did not start within " + seconds(patienceNs) + "; see " +
                    daemon.log());
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }

    private static void requireAlive(final List<Daemon> daemons) throws IOException
    {
        for (final Daemon daemon : daemons)
        {
            if (!daemon.process().isAlive())
            {
                throw new IOException(daemon.name() + " stopped early with exit code " +
                    daemon.process().exitValue() + "; see " + daemon.log());
            }
        }
    }

    private static boolean allDone(final List<Daemon> hosts, final Set<String> done) throws IOException
    {
        for (final Daemon host : hosts)
        {
            if (!done.contains(host.name()) && Files.exists(host.log()) &&
                Files.readString(host.log(), StandardCharsets.UTF_8).contains(DONE_LINE))
            {
                done.add(host.name());
            }
        }
        return done.size() == hosts.size();
    }

    private static void awaitExit(final Daemon daemon) throws IOException, InterruptedException
    {
        if (!daemon.process().waitFor(STOP_PATIENCE_SECONDS, TimeUnit.SECONDS))
        {
            throw new IOException(daemon.name() + " did not stop within " + STOP_PATIENCE_SECONDS + " s of SIGTERM");
        }
        if (0 != daemon.process().exitValue() && SIGTERM_EXIT_CODE != daemon.process().exitValue())
        {
            throw new IOException(daemon.name() + " exited with code " + daemon.process().exitValue() + " at " +
                "SIGTERM; see " + daemon.log());
        }
    }

    private static List<Sample> sampleAll(final List<Daemon> daemons, final long elapsedNs,
        final List<Sample> samples) throws IOException
    {
        final List<Sample> batch = new ArrayList<>();
        for (final Daemon daemon : daemons)
        {
            final long pid = daemon.process().pid();
            final long rssBytes = rssBytes(pid);
            final long fds;
            try (Stream<Path> entries = Files.list(Path.of("/proc", Long.toString(pid), "fd")))
            {
                fds = entries.count();
            }
            final PrometheusText counters = PrometheusText.read(daemon.counters());
            final long work = "switches".equals(daemon.name()) ?
                (long)counters.sum("pfabric_port_received_frames_total") :
                (long)counters.sum("pfabric_host_flows_completed_total");
            batch.add(new Sample(elapsedNs, daemon.name(), rssBytes, fds,
                (long)counters.sum(CountersFile.HEAP_AFTER_GC),
                (long)counters.sum("jvm_memory_used_bytes", "area", "heap"),
                (long)counters.sum("jvm_gc_pause_seconds_count"), (long)counters.sum("jvm_threads_live_threads"),
                work));
        }
        samples.addAll(batch);
        return batch;
    }

    private static long rssBytes(final long pid) throws IOException
    {
        for (final String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")))
        {
            if (line.startsWith("VmRSS:"))
            {
                return Long.parseLong(line.substring(6).trim().split("\\s+")[0]) * 1024;
            }
        }
        throw new IOException("no VmRSS in /proc/" + pid + "/status");
    }

    private static String progressLine(final List<Sample> batch, final long elapsedNs, final Settings settings,
        final long traceFlows)
    {
        long flows = 0;
        long frames = 0;
        long rssBytes = 0;
        long heapBytes = 0;
        for (final Sample sample : batch)
        {
            flows += "switches".equals(sample.process()) ? 0 : sample.work();
            frames += "switches".equals(sample.process()) ? sample.work() : 0;
            rssBytes += sample.rssBytes();
            heapBytes = Math.max(heapBytes, sample.heapAfterGcBytes());
        }
        return String.format(Locale.ROOT, "soak: %s of %s, %,d flows completed (trace %,d, plus base-RTT " +
            "measurements), %,d frames switched; RSS of all %.0f MB, largest heap after GC %.1f MB",
            seconds(elapsedNs), seconds(settings.durationNs()), flows, traceFlows, frames, rssBytes / 1e6,
            heapBytes / 1e6);
    }

    static List<Growth> growth(final List<Sample> samples, final Settings settings)
    {
        final Map<String, List<Sample>> byProcess = new LinkedHashMap<>();
        for (final Sample sample : samples)
        {
            byProcess.computeIfAbsent(sample.process(), p -> new ArrayList<>()).add(sample);
        }
        final List<Growth> growth = new ArrayList<>();
        for (final Map.Entry<String, List<Sample>> entry : byProcess.entrySet())
        {
            final List<Sample> all = entry.getValue();
            final List<Sample> after = all.subList(Math.min(Math.max(1, all.size() / 3), all.size() - 1), all.size());
            growth.add(of(entry.getKey(), "heap after GC (bytes)", after, Sample::heapAfterGcBytes,
                settings.heapBoundBytes()));
            growth.add(of(entry.getKey(), "RSS (bytes)", after, Sample::rssBytes, settings.rssBoundBytes()));
            growth.add(of(entry.getKey(), "file descriptors", after, Sample::fds, settings.fdBound()));
            growth.add(of(entry.getKey(), "threads", after, Sample::threads, settings.threadBound()));
        }
        return growth;
    }

    private static Growth of(final String process, final String measure, final List<Sample> samples,
        final ToLongFunction<Sample> value, final long bound)
    {
        final long first = value.applyAsLong(samples.get(0));
        final long last = value.applyAsLong(samples.get(samples.size() - 1));
        final long max = samples.stream().mapToLong(value).max().orElse(first);
        return new Growth(process, measure, first, last, max, bound);
    }

    /**
     * Every switch's and every switch-to-switch link's frames accounted for, from the switches' final counters.
     *
     * @param topology the fabric.
     * @param counters the switches' final counters file.
     * @return one identity per switch and per link between switches.
     */
    static List<Identity> identities(final Topology topology, final PrometheusText counters)
    {
        final List<Identity> identities = new ArrayList<>();
        for (final SwitchSpec spec : topology.switches())
        {
            final String[] at = { "switch", spec.name() };
            final long received = count(counters, "pfabric_port_received_frames_total", at);
            final long transmitted = count(counters, "pfabric_port_transmitted_frames_total", at);
            final long queueDrops = count(counters, "pfabric_queue_dropped_frames_total", at);
            final long portDrops = count(counters, PORT_DROPS, with(at, "reason", "malformed")) +
                count(counters, PORT_DROPS, with(at, "reason", "no_route")) +
                count(counters, PORT_DROPS, with(at, "reason", "unsupported")) +
                count(counters, "pfabric_port_arp_ignored_total", at);
            final long queued = count(counters, "pfabric_queue_occupancy_frames", at);
            identities.add(new Identity(spec.name(), received, transmitted + queueDrops + portDrops + queued,
                String.format(Locale.ROOT, "transmitted %,d + dropped in queues %,d + dropped at ingress %,d + " +
                    "queued %,d", transmitted, queueDrops, portDrops, queued)));
        }
        for (final LinkSpec link : topology.links())
        {
            identities.add(linkIdentity(counters, link.a().switchName(), link.a().portName(), link.b().switchName(),
                link.b().portName()));
            identities.add(linkIdentity(counters, link.b().switchName(), link.b().portName(), link.a().switchName(),
                link.a().portName()));
        }
        return identities;
    }

    private static Identity linkIdentity(final PrometheusText counters, final String fromSwitch,
        final String fromPort, final String toSwitch, final String toPort)
    {
        final String[] from = { "switch", fromSwitch, "port", fromPort };
        final String[] to = { "switch", toSwitch, "port", toPort };
        final long sent = count(counters, "pfabric_port_transmitted_frames_total", from);
        final long received = count(counters, "pfabric_port_received_frames_total", to);
        final long ringFull = count(counters, PORT_DROPS, with(to, "reason", "ring_full"));
        final long oversize = count(counters, PORT_DROPS, with(to, "reason", "oversize"));
        return new Identity(fromSwitch + ":" + fromPort + " -> " + toSwitch + ":" + toPort, sent,
            received + ringFull + oversize, String.format(Locale.ROOT,
                "received %,d + receive ring full %,d + oversize %,d", received, ringFull, oversize));
    }

    private static String[] with(final String[] labels, final String name, final String value)
    {
        final String[] more = Arrays.copyOf(labels, labels.length + 2);
        more[labels.length] = name;
        more[labels.length + 1] = value;
        return more;
    }

    private static long count(final PrometheusText counters, final String name, final String[] labels)
    {
        return Math.round(counters.sum(name, labels));
    }

    private static void writeSamples(final Path file, final List<Sample> samples) throws IOException
    {
        final StringBuilder csv = new StringBuilder(
            "elapsed_s,process,rss_bytes,fds,heap_after_gc_bytes,heap_used_bytes,gc_count,threads,work\n");
        for (final Sample s : samples)
        {
            csv.append(String.format(Locale.ROOT, "%.1f,%s,%d,%d,%d,%d,%d,%d,%d%n", s.elapsedNs() / 1e9, s.process(),
                s.rssBytes(), s.fds(), s.heapAfterGcBytes(), s.heapUsedBytes(), s.gcCount(), s.threads(), s.work()));
        }
        Files.writeString(file, csv, StandardCharsets.UTF_8);
    }

    static String summary(final Result result, final Settings settings)
    {
        final StringBuilder text = new StringBuilder();
        text.append(String.format(Locale.ROOT, "# Soak: %s at %s, %s at load %.2f for %s%n%n", settings.topologySpec(),
            Rates.format(settings.rateBitsPerSec()), settings.workload(), settings.load(),
            seconds(settings.durationNs())));
        text.append(String.format(Locale.ROOT, "%s. Ran %s; %,d of %,d flows of the trace completed; %d of %d " +
            "processes wrote their final counters at SIGTERM. Growth is from the sample at a third of the run " +
            "(after warm-up) to the last; samples every %s, every daemon's heap %s (-Xms = -Xmx, touched at " +
            "start, so RSS growth is growth outside the heap).%n%n", result.passed() ? "Passed" : "FAILED",
            seconds(result.elapsedNs()), result.completedFlows(), result.traceFlows(), result.finalSnapshots(),
            result.processes(), seconds(settings.sampleIntervalNs()), settings.maxHeap()));
        text.append(String.format(Locale.ROOT, "Fidelity: %s%s (%s).%n%n",
            result.fidelity().isBroken() ? "WARNING " : "", result.fidelity().label(), result.fidelity().figures()));
        final HostTotals hosts = result.hosts();
        text.append(String.format(Locale.ROOT, "Hosts: %,d flows started (with the base-RTT measurements), %,d " +
            "completed, %,d messages delivered (%s); %,d timeouts, %,d duplicate packets received and not delivered" +
            "%s.%n%n", hosts.flowsStarted(), hosts.flowsCompleted(), hosts.messagesDelivered(),
            hosts.exactlyOnce() ? "each exactly once" : "NOT exactly once", hosts.timeouts(),
            hosts.duplicatePackets(), 0 == result.switchKills() ? "" : String.format(Locale.ROOT,
                "; the switches' process was killed (SIGKILL) %d time(s) at %s and started again 1 s later, so the " +
                "switches' growth and identities are the new process's", result.switchKills(),
                seconds(settings.killSwitchesAtNs()))));
        text.append("| process | measure | first | last | max | growth | bound | verdict |\n");
        text.append("|---|---|---:|---:|---:|---:|---:|---|\n");
        for (final Growth g : result.growth())
        {
            text.append(String.format(Locale.ROOT, "| %s | %s | %,d | %,d | %,d | %,d | %,d | %s |%n", g.process(),
                g.measure(), g.first(), g.last(), g.max(), g.last() - g.first(), g.bound(),
                g.grew() ? "GREW" : "flat"));
        }
        text.append("\n| counter identity | frames in | accounted | terms | verdict |\n|---|---:|---:|---|---|\n");
        for (final Identity identity : result.identities())
        {
            text.append(String.format(Locale.ROOT, "| %s | %,d | %,d | %s | %s |%n", identity.where(),
                identity.received(), identity.accounted(), identity.breakdown(),
                identity.holds() ? "holds" : "BROKEN"));
        }
        return text.toString();
    }

    private static String seconds(final long ns)
    {
        final long s = Math.round(ns / 1e9);
        return s >= 120 ? String.format(Locale.ROOT, "%d min %d s", s / 60, s % 60) : s + " s";
    }
}
