package io.pfabric.experiment;

import io.pfabric.common.topology.Topology;
import io.pfabric.hostd.HostDaemon;
import io.pfabric.testbed.FabricRunner;

import java.util.List;

/**
 * What an experiment tells of what runs: first to the fabric it publishes for {@code pfabric top} (once it publishes
 * one), then to the observer its user gave.
 */
final class PublishingObserver implements Experiment.Observer
{
    private static final Experiment.Observer NONE = new Experiment.Observer()
    {
    };

    private volatile Experiment.Observer published = NONE;
    private volatile Experiment.Observer observer = NONE;

    /**
     * Tell the published fabric's metrics too from now on.
     *
     * @param metrics the metrics.
     */
    void publish(final FabricMetrics metrics)
    {
        published = metrics;
    }

    /**
     * Tell this observer from now on, in place of the one before.
     *
     * @param newObserver the observer.
     */
    void observe(final Experiment.Observer newObserver)
    {
        observer = newObserver;
    }

    public void onFabric(final Topology topology, final FabricRunner switches)
    {
        published.onFabric(topology, switches);
        observer.onFabric(topology, switches);
    }

    public void onHosts(final List<HostDaemon> hosts)
    {
        published.onHosts(hosts);
        observer.onHosts(hosts);
    }

    public void onTcpHosts(final List<String> hosts, final List<TcpReplay> replays)
    {
        published.onTcpHosts(hosts, replays);
        observer.onTcpHosts(hosts, replays);
    }
}
