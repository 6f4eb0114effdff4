package io.pfabric.cli;

import io.pfabric.testbed.monitor.MetricsEndpoint;
import io.pfabric.testbed.monitor.Monitor;
import io.pfabric.testbed.monitor.RunningFabrics;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.InetSocketAddress;
import java.util.concurrent.Callable;

/**
 * {@code pfabric monitor}: Prometheus scraping every daemon of the running testbed.
 */
@Command(
    name = "monitor",
    mixinStandardHelpOptions = true,
    header = "Start or stop Prometheus scraping every daemon of the running testbed (or demo, experiment, soak).",
    description = {
        "'up' starts Debian's prometheus in the background, scraping every 2 s the testbed's switches and every " +
            "daemon of the testbed started with --metrics (e.g. hostd --topology .pfabric/testbed/topology.yaml " +
            "--metrics 0), with the configuration generated from the testbed's topology; its files are under " +
            ".pfabric/testbed/monitor/. 'down' stops it and removes them.",
        "A running 'pfabric demo', 'experiment' or 'soak' publishes its fabric under .pfabric/live/NAME/ in the " +
            "same way; 'up' scrapes it when it is the only fabric running, or when named with --fabric, and the " +
            "run stops the monitor when it ends.",
        "tools/grafana/ holds a dashboard and provisioning files for a Grafana pointed at it." },
    subcommands = { MonitorCommand.Up.class, MonitorCommand.Down.class })
public final class MonitorCommand
{
    /**
     * {@code pfabric monitor up}.
     */
    @Command(name = "up", mixinStandardHelpOptions = true,
        description = "Start Prometheus scraping the running testbed; returns once it has scraped every daemon.")
    static final class Up implements Callable<Integer>
    {
        @Option(names = "--port", defaultValue = "9090", paramLabel = "PORT",
            description = "Port of Prometheus's web interface and HTTP API on 127.0.0.1 (default: ${DEFAULT-VALUE}).")
        int port;

        @Option(names = "--prometheus", defaultValue = "prometheus", paramLabel = "PROGRAM",
            description = "The prometheus program (default: ${DEFAULT-VALUE}, from PATH).")
        String prometheus;

        @Option(names = "--fabric", paramLabel = "NAME",
            description = "Which running fabric: testbed, demo, experiment, experiment-classes or soak (default: the " +
                "only one running).")
        String fabric;

        public Integer call() throws Exception
        {
            if (port <= 0 || port > 65_535)
            {
                throw new IllegalArgumentException("--port must be 1..65535, not " + port);
            }
            final RunningFabrics.Fabric chosen = RunningFabrics.choose(TestbedCommand.pfabricDirectory(), fabric);
            final Monitor.Running running = Monitor.up(chosen.stateDirectory(), prometheus,
                new InetSocketAddress("127.0.0.1", port));
            System.err.printf("pfabric monitor: prometheus (pid %d) at %s scrapes %d daemons of the %s:%n",
                running.pid(), running.url(), running.endpoints().size(), chosen.name());
            for (final MetricsEndpoint endpoint : running.endpoints())
            {
                System.err.println("  " + endpoint.label() + " at " + endpoint.url());
            }
            if (!running.unserved().isEmpty())
            {
                System.err.println("pfabric monitor: no metrics from hosts " + String.join(", ", running.unserved()) +
                    " (start their hostd with --metrics 0, then 'monitor down' and 'monitor up')");
            }
            System.out.println(running.url());
            return 0;
        }
    }

    /**
     * {@code pfabric monitor down}.
     */
    @Command(name = "down", mixinStandardHelpOptions = true,
        description = "Stop the monitor's Prometheus and remove its configuration and data.")
    static final class Down implements Callable<Integer>
    {
        public Integer call() throws Exception
        {
            boolean stopped = false;
            for (final RunningFabrics.Fabric fabric : RunningFabrics.all(TestbedCommand.pfabricDirectory()))
            {
                if (Monitor.down(fabric.stateDirectory()))
                {
                    System.err.println("pfabric monitor: stopped the " + fabric.name() + "'s, files removed");
                    stopped = true;
                }
            }
            if (!stopped)
            {
                System.err.println("pfabric monitor: no monitor running");
            }
            return 0;
        }
    }
}
