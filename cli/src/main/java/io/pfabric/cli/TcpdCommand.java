package io.pfabric.cli;

import io.pfabric.experiment.HostMetrics;
import io.pfabric.experiment.TcpReplay;
import io.pfabric.common.config.Quantities;
import io.pfabric.common.os.Commands;
import io.pfabric.common.topology.HostSpec;
import io.pfabric.common.topology.Topology;
import io.pfabric.common.topology.TopologyParser;
import io.pfabric.testbed.monitor.MetricsEndpoint;
import io.pfabric.hostd.transport.PiasThresholds;
import io.pfabric.hostd.workload.FctLogWriter;
import io.pfabric.hostd.workload.TraceFile;
import io.pfabric.hostd.workload.WorkloadTrace;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code pfabric tcpd}: the kernel-TCP baseline for one host: replay its flows of a trace over kernel TCP.
 */
@Command(
    name = "tcpd",
    mixinStandardHelpOptions = true,
    header = "Replay one host's flows of a trace over kernel TCP (the baseline).",
    description = "Serves TCP port " + TcpReplay.PORT + " on the host's address, opens --pool connections to " +
        "every other host of the topology (waiting up to 30 s for their tcpd), then sends each of this host's " +
        "flows of the trace at its start time on an idle pooled connection (one more is opened, and counted, when " +
        "all are busy) and logs its completion time, to the receiver's one-byte answer, as scheme tcp. With " +
        "--netns the kernel's minimum RTO (and, if given, the congestion control) is set in that namespace first " +
        "and printed with the results; a child namespace may only choose among the congestion controls the host " +
        "allows (net.ipv4.tcp_allowed_congestion_control).")
public final class TcpdCommand implements Callable<Integer>
{
    @Option(names = "--topology", required = true, paramLabel = "FILE", description = "Topology file.")
    Path topologyFile;

    @Option(names = "--name", required = true, paramLabel = "HOST", description = "Which host of the topology.")
    String hostName;

    @Option(names = "--netns", paramLabel = "NAME", description = "The host's network namespace.")
    String namespace;

    @Option(names = "--trace", required = true, paramLabel = "FILE", description = "The flow trace.")
    Path trace;

    @Option(names = "--fct-log", paramLabel = "FILE", description = "FCT log (default: fct-tcp-NAME.csv).")
    Path fctLog;

    @Option(names = "--pool", defaultValue = "4", paramLabel = "N",
        description = "Pooled connections per destination (default: ${DEFAULT-VALUE}).")
    int pool;

    @Option(names = "--rto-min", defaultValue = "5ms", paramLabel = "DURATION",
        description = "Minimum RTO set in the namespace (default: ${DEFAULT-VALUE}); a few base RTTs of the fabric.")
    String rtoMin;

    @Option(names = "--cc", paramLabel = "NAME", description = "Congestion control to set in the namespace.")
    String congestionControl;

    @Option(names = "--grace", defaultValue = "30s", paramLabel = "DURATION",
        description = "How long to wait for flows after the last start (default: ${DEFAULT-VALUE}).")
    String grace;

    @Option(names = "--stay",
        description = "Once this host's flows are done, keep serving until SIGTERM, so that peers' flows to it " +
            "still complete.")
    boolean stay;

    @Option(names = "--pias", paramLabel = "websearch|datamining[:LOAD]|T1,T2,...",
        description = "Be a PIAS host: each flow's socket starts at DSCP 0 and takes the next DSCP as the bytes it " +
            "has written cross each threshold (those of PIAS's ns-2 scripts for a workload, or given in bytes), " +
            "once the kernel has sent the bytes before it; flows are logged as scheme pias. ECN (as PIAS's DCTCP " +
            "needs) is set in the namespace with --netns.")
    String pias;

    @Mixin
    CountersFileOptions countersFile = new CountersFileOptions();

    /**
     * {@inheritDoc}
     */
    public Integer call() throws IOException
    {
        final Topology topology = TopologyParser.parse(topologyFile);
        final List<String> names = new ArrayList<>();
        final List<InetAddress> addresses = new ArrayList<>();
        for (final HostSpec host : topology.hosts())
        {
            names.add(host.name());
            addresses.add(InetAddress.getByName(host.ipText()));
        }
        final int self = names.indexOf(hostName);
        if (self < 0)
        {
            throw new IllegalArgumentException("no host named '" + hostName + "' in " + topologyFile);
        }
        if (pool < 1)
        {
            throw new IllegalArgumentException("--pool must be at least 1");
        }
        final long rtoMinUs = Quantities.parseNanos(rtoMin) / 1_000;
        final PiasThresholds thresholds;
        try
        {
            thresholds = null == pias ? null : PiasThresholds.parseOrNamed(pias);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("--pias: " + ex.getMessage(), ex);
        }
        if (null != namespace)
        {
            Commands.inNamespace(namespace, "sysctl", "-qw", "net.ipv4.tcp_rto_min_us=" + rtoMinUs);
            if (null != congestionControl)
            {
                Commands.inNamespace(namespace, "sysctl", "-qw",
                    "net.ipv4.tcp_congestion_control=" + congestionControl);
            }
            if (null != thresholds)
            {
                Commands.inNamespace(namespace, "sysctl", "-qw", "net.ipv4.tcp_ecn=1");
            }
        }
        final String cc = null == namespace ? "(host default)" : Commands.inNamespace(namespace, "cat",
            "/proc/sys/net/ipv4/tcp_congestion_control").trim();
        final List<WorkloadTrace.FlowSpec> flows = TraceFile.read(trace, names);
        final Path logPath = null != fctLog ? fctLog :
            Path.of("fct-" + (null == thresholds ? "tcp" : "pias") + "-" + hostName + ".csv");
        System.err.printf(Locale.ROOT, "pfabric tcpd %s: %s%s%n", hostName, TcpReplay.settings(cc, rtoMinUs, pool),
            null == thresholds ? "" : "; PIAS host, DSCP by bytes written against " + thresholds);
        final PrometheusMeterRegistry registry = CountersFile.newRegistry();
        // Bound before the replay moves this thread into the host's namespace: the address recorded for 'pfabric top'
        // and 'pfabric monitor' must be reachable from the namespace the command was started in.
        final CountersFile counters = countersFile.start(registry, System.err, "tcpd", hostName,
            MetricsEndpoint.testbedOf(topologyFile));
        final TcpReplay started;
        try
        {
            started = TcpReplay.start(namespace, addresses, self, thresholds);
        }
        catch (final IOException | RuntimeException ex)
        {
            if (null != counters)
            {
                counters.close();
            }
            throw ex;
        }
        try (TcpReplay replay = started)
        {
            final GracefulStop stop = new GracefulStop(replay::stop, "tcpd-stop");
            try
            {
                HostMetrics.bindTcp(hostName, replay, registry);
                replay.connect(pool);
                final long mine = flows.stream().filter(f -> f.sourceHost() == self).count();
                final int completed;
                final FctLogWriter log = new FctLogWriter(logPath);
                try
                {
                    completed = replay.replay(flows, names, log, Quantities.parseNanos(grace));
                }
                finally
                {
                    log.close();
                }
                System.err.printf(Locale.ROOT, "pfabric tcpd %s: %,d of %,d flows completed, %d extra connections; " +
                    "FCT log %s written%s%n", hostName, completed, mine, replay.extraConnections(), logPath,
                    stay ? "; serving until SIGTERM" : "");
                System.err.flush();
                if (stay)
                {
                    stop.awaitStopRequest();
                }
            }
            finally
            {
                if (null != counters)
                {
                    counters.close();
                }
                stop.close();
            }
        }
        return 0;
    }
}
