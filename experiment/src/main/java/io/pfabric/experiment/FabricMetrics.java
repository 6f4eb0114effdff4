package io.pfabric.experiment;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.pfabric.common.topology.HostSpec;
import io.pfabric.common.topology.SwitchSpec;
import io.pfabric.common.topology.Topology;
import io.pfabric.hostd.HostDaemon;
import io.pfabric.switchd.SwitchDaemon;
import io.pfabric.switchd.SwitchMetrics;
import io.pfabric.testbed.FabricRunner;
import io.pfabric.testbed.monitor.MetricsEndpoint;
import io.pfabric.testbed.monitor.MetricsServer;
import io.pfabric.testbed.monitor.PublishedFabric;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * An experiment's fabric as {@code pfabric top} and {@code pfabric monitor} see a testbed's, while it runs: published
 * under the project's {@code .pfabric/live/NAME} ({@link PublishedFabric}), the switches that run in this process
 * served on one loopback port, as the testbed's switches process serves them, and every host on one of its own, as
 * {@code hostd --metrics 0} (or, while kernel TCP replays, {@code tcpd}) serves it. The meters are bound afresh to each fabric and each set of hosts the experiment
 * starts; the addresses stay for the whole run.
 */
public final class FabricMetrics implements Experiment.Observer, AutoCloseable
{
    private final PublishedFabric published;
    private final List<MetricsServer> servers = new ArrayList<>();
    private final Map<String, AtomicReference<PrometheusMeterRegistry>> hosts = new LinkedHashMap<>();
    private final AtomicReference<PrometheusMeterRegistry> switches = new AtomicReference<>(newRegistry());

    private FabricMetrics(final PublishedFabric published)
    {
        this.published = published;
    }

    /**
     * Publish a fabric whose switches and hosts run in this process, and serve their meters until {@link #close()}.
     *
     * @param pfabricDirectory the project's {@code .pfabric} directory.
     * @param name             the run's name, e.g. {@code demo}.
     * @param topology         the fabric.
     * @return the running publication, told of each fabric and set of hosts as an observer.
     * @throws IllegalStateException if a run of that name is running already.
     * @throws IOException           if the state cannot be written or no loopback port bound.
     */
    public static FabricMetrics publish(final Path pfabricDirectory, final String name, final Topology topology)
        throws IOException
    {
        final FabricMetrics metrics = new FabricMetrics(PublishedFabric.inProcess(pfabricDirectory, name, topology));
        try
        {
            metrics.serve(MetricsEndpoint.SWITCHES, MetricsEndpoint.SWITCHES, metrics.switches);
            for (final HostSpec host : topology.hosts())
            {
                final AtomicReference<PrometheusMeterRegistry> meters = new AtomicReference<>(newRegistry());
                metrics.hosts.put(host.name(), meters);
                metrics.serve("hostd", host.name(), meters);
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            metrics.close();
            throw ex;
        }
        return metrics;
    }

    private void serve(final String role, final String name,
        final AtomicReference<PrometheusMeterRegistry> meters) throws IOException
    {
        final Supplier<String> exposition = () -> meters.get().scrape();
        final MetricsServer server =
            MetricsServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), exposition);
        servers.add(server);
        published.record(MetricsEndpoint.of(role, name, server.address()));
    }

    /**
     * {@inheritDoc}
     */
    public void onFabric(final Topology topology, final FabricRunner runner)
    {
        final PrometheusMeterRegistry meters = newRegistry();
        bindSwitches(topology, runner, meters);
        switches.set(meters);
        for (final AtomicReference<PrometheusMeterRegistry> host : hosts.values())
        {
            host.set(newRegistry());
        }
    }

    /**
     * {@inheritDoc}
     */
    public void onHosts(final List<HostDaemon> started)
    {
        for (final HostDaemon host : started)
        {
            final AtomicReference<PrometheusMeterRegistry> meters = hosts.get(host.host().name());
            if (null != meters)
            {
                final PrometheusMeterRegistry registry = newRegistry();
                bindHost(host, registry);
                meters.set(registry);
            }
        }
    }

    /**
     * {@inheritDoc}
     */
    public void onTcpHosts(final List<String> names, final List<TcpReplay> replays)
    {
        for (int i = 0; i < names.size(); i++)
        {
            final AtomicReference<PrometheusMeterRegistry> meters = hosts.get(names.get(i));
            if (null != meters)
            {
                final PrometheusMeterRegistry registry = newRegistry();
                HostMetrics.bindTcp(names.get(i), replays.get(i), registry);
                meters.set(registry);
            }
        }
    }

    /**
     * An empty registry for meters served in the Prometheus text format.
     *
     * @return the registry.
     */
    public static PrometheusMeterRegistry newRegistry()
    {
        return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    }

    /**
     * Register the meters of every switch of a fabric that runs in this process, as the testbed's switches process
     * serves them.
     *
     * @param topology the fabric.
     * @param runner   its switches, or null when they run in processes of their own (nothing is registered).
     * @param registry to register with.
     */
    public static void bindSwitches(final Topology topology, final FabricRunner runner, final MeterRegistry registry)
    {
        if (null == runner)
        {
            return;
        }
        for (final SwitchSpec spec : topology.switches())
        {
            final SwitchDaemon daemon = runner.daemon(spec.name());
            if (null != daemon)
            {
                SwitchMetrics.bind(daemon, registry);
            }
        }
    }

    /**
     * Register a host's transport counters and its flows active (started and not completed), as hostd serves them.
     *
     * @param host     the host.
     * @param registry to register with.
     */
    public static void bindHost(final HostDaemon host, final MeterRegistry registry)
    {
        HostMetrics.bind(host, registry);
        Gauge.builder("pfabric.host.flows.active", host,
            h -> Math.max(0, h.counters().flowsStarted() - h.counters().flowsCompleted()))
            .description("Flows this host is sending now: started and not yet finished")
            .tags(Tags.of("host", host.host().name())).register(registry);
    }

    /**
     * Stop serving and remove the publication (and a monitor started on it).
     *
     * @throws IOException if the state cannot be removed.
     */
    public void close() throws IOException
    {
        for (final MetricsServer server : servers)
        {
            server.close();
        }
        published.close();
    }
}
