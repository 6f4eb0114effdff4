package io.pfabric.cli;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.pfabric.common.topology.Topology;
import io.pfabric.experiment.Experiment;
import io.pfabric.experiment.FabricMetrics;
import io.pfabric.experiment.HostMetrics;
import io.pfabric.experiment.TcpReplay;
import io.pfabric.hostd.HostDaemon;
import io.pfabric.testbed.FabricRunner;
import io.pfabric.testbed.monitor.PrometheusText;
import io.pfabric.testbed.monitor.Top;
import io.pfabric.testbed.monitor.TopView;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code --live} of {@code pfabric experiment} and {@code pfabric demo}: the switch ports and hosts of the fabric
 * the experiment runs now, as {@code pfabric top} shows a testbed's, redrawn every second. The meters are those the
 * daemons serve ({@link FabricMetrics}), bound afresh to each fabric and each set of hosts
 * the experiment starts; a host's active flows are those started and not completed.
 */
final class LiveView implements Experiment.Observer, AutoCloseable
{
    private static final long INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);

    private final PrintStream out;
    private final String command;
    private final long startNs = System.nanoTime();
    private final ScheduledExecutorService drawer = Executors.newSingleThreadScheduledExecutor(runnable ->
    {
        final Thread thread = new Thread(runnable, "pfabric-live");
        thread.setDaemon(true);
        return thread;
    });
    private volatile PrometheusMeterRegistry switchMeters = CountersFile.newRegistry();
    private volatile PrometheusMeterRegistry hostMeters = CountersFile.newRegistry();
    private volatile String fabric = "";
    private PrometheusText before;
    private long beforeNs;

    /**
     * Start redrawing.
     *
     * @param out     the terminal.
     * @param command the command's name, for the heading.
     */
    LiveView(final PrintStream out, final String command)
    {
        this.out = out;
        this.command = command;
        drawer.scheduleAtFixedRate(this::draw, INTERVAL_NS, INTERVAL_NS, TimeUnit.NANOSECONDS);
    }

    /**
     * {@inheritDoc}
     */
    public void onFabric(final Topology topology, final FabricRunner switches)
    {
        final PrometheusMeterRegistry meters = CountersFile.newRegistry();
        FabricMetrics.bindSwitches(topology, switches, meters);
        fabric = String.format(Locale.ROOT, "%d switches, %d hosts%s", topology.switches().size(),
            topology.hosts().size(), null == switches ? " (switches in processes of their own: not shown)" : "");
        switchMeters = meters;
        hostMeters = CountersFile.newRegistry();
    }

    /**
     * {@inheritDoc}
     */
    public void onHosts(final List<HostDaemon> hosts)
    {
        final PrometheusMeterRegistry meters = CountersFile.newRegistry();
        for (final HostDaemon host : hosts)
        {
            FabricMetrics.bindHost(host, meters);
        }
        hostMeters = meters;
    }

    /**
     * {@inheritDoc}
     */
    public void onTcpHosts(final List<String> names, final List<TcpReplay> replays)
    {
        final PrometheusMeterRegistry meters = CountersFile.newRegistry();
        for (int i = 0; i < names.size(); i++)
        {
            HostMetrics.bindTcp(names.get(i), replays.get(i), meters);
        }
        hostMeters = meters;
    }

    private void draw()
    {
        try
        {
            final PrometheusText now = PrometheusText.parse(command,
                switchMeters.scrape() + "\n" + hostMeters.scrape());
            final long nowNs = System.nanoTime();
            final TopView view = TopView.of(before, now, (nowNs - beforeNs) / 1e9);
            out.print(Top.CLEAR + Top.screen(view, String.format(Locale.ROOT, "pfabric %s  %d s  %s", command,
                TimeUnit.NANOSECONDS.toSeconds(nowNs - startNs), fabric), List.of()));
            out.flush();
            before = now;
            beforeNs = nowNs;
        }
        catch (final IOException | RuntimeException ex)
        {
            out.println("pfabric " + command + ": live view failed: " + ex.getMessage());
        }
    }

    /**
     * Stop redrawing.
     */
    public void close()
    {
        drawer.shutdownNow();
        try
        {
            drawer.awaitTermination(2, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
