package io.pfabric.cli;

import io.pfabric.common.config.Quantities;
import io.pfabric.common.control.ControlKeys;
import io.pfabric.common.control.ControlMode;
import io.pfabric.common.packet.NettyTransport;
import io.pfabric.common.topology.Rates;
import io.pfabric.common.topology.Topology;
import io.pfabric.common.topology.TopologyParser;
import io.pfabric.testbed.monitor.MetricsEndpoint;
import io.pfabric.controllerd.ControllerConfiguration;
import io.pfabric.controllerd.ControllerDaemon;
import io.pfabric.controllerd.syn.Metric;
import org.agrona.concurrent.ShutdownSignalBarrier;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code pfabric controllerd}: the central controller of a fabric, SYN or ASY.
 */
@Command(
    name = "controllerd",
    mixinStandardHelpOptions = true,
    header = "Run the central controller of a fabric: SYN timeslots or ASY rates.",
    description = {
        "SYN (Fastpass-style): hosts report their demand in slots (one 1500-byte frame at the host link rate); the " +
            "controller matches sources to destinations slot by slot in the order of --metric, a few batches " +
            "ahead of time, gives every grant that crosses the spine layer a spine, and sends each slot's grants " +
            "a slot before it. ASY: hosts report offered rates; every --interval the controller scales the " +
            "offered-rate matrix (Sinkhorn) so that no host link is oversubscribed and sends each host its rates.",
        "Messages are UDP, signed with HMAC-SHA256 under the key in --key-file (the hosts use the same file). " +
            "Replies go to each host's control address from the topology (its IP at --host-port), or, with " +
            "--hosts-at, to consecutive ports of one address (hosts on one machine, such as a loopback fabric).",
        "Hosts run 'pfabric hostd --control syn|asy --controller HOST:PORT --key-file F'. Stops on SIGTERM or " +
            "Ctrl-C and prints its counters." })
public final class ControllerdCommand implements Callable<Integer>
{
    @Option(names = "--mode", required = true, paramLabel = "syn|asy", description = "SYN timeslots or ASY rates.")
    String mode;

    @Option(names = "--topology", required = true, paramLabel = "FILE", description = "Topology file (YAML or JSON).")
    Path topologyFile;

    @Option(names = "--key-file", required = true, paramLabel = "FILE",
        description = "The shared control key: 32 to 128 hex digits or a text of at least 16 bytes, in a file " +
            "only its owner may read (a key others can read is refused). Make one with: " +
            "(umask 077; head -c 32 /dev/urandom | xxd -p -c 64 > control.key)")
    Path keyFile;

    @Option(names = "--listen", defaultValue = "0.0.0.0:7255", paramLabel = "HOST:PORT",
        description = "Address the controller listens on (default: ${DEFAULT-VALUE}).")
    String listen;

    @Option(names = "--host-port", defaultValue = "7254", paramLabel = "PORT",
        description = "Port of each host's control socket at the host's topology IP (default: ${DEFAULT-VALUE}).")
    int hostPort;

    @Option(names = "--hosts-at", paramLabel = "HOST:PORT",
        description = "Instead: every host's control socket at this address, the i-th host of the topology " +
            "(from 0) at PORT + i.")
    String hostsAt;

    @Option(names = "--metric", defaultValue = "ocf", paramLabel = "ocf|srjf|mmf",
        description = "SYN: order of service, oldest cell first, shortest remaining job first or max-min fair " +
            "(default: ${DEFAULT-VALUE}).")
    String metric;

    @Option(names = "--batch", defaultValue = "8", paramLabel = "SLOTS",
        description = "SYN: slots allocated at a time, 1 to 64; allocation runs one batch ahead " +
            "(default: ${DEFAULT-VALUE}).")
    int batchSlots;

    @Option(names = "--interval", defaultValue = "1ms", paramLabel = "DURATION",
        description = "ASY: how often rates are recomputed and sent (default: ${DEFAULT-VALUE}).")
    String interval;

    @Option(names = "--rate", paramLabel = "RATE",
        description = "Host link rate, e.g. 1g (default: the rate of the switch port the first host hangs on).")
    String rate;

    @Option(names = "--netns", paramLabel = "NAME", description = "Open the controller's socket in this network " +
        "namespace.")
    String namespace;

    @Option(names = "--udp-transport", defaultValue = "epoll", paramLabel = "epoll|io_uring",
        description = "Netty transport of the control socket (default: ${DEFAULT-VALUE}).")
    String udpTransport;

    @Mixin
    CountersFileOptions countersFile = new CountersFileOptions();

    /**
     * {@inheritDoc}
     */
    public Integer call() throws IOException
    {
        final PrintStream err = System.err;
        final ControlMode controlMode = ControlMode.named(mode);
        final Topology topology = TopologyParser.parse(topologyFile);
        final byte[] key = ControlKeys.read(keyFile);
        final ControllerConfiguration.Context context = new ControllerConfiguration.Context()
            .mode(controlMode)
            .topology(topology)
            .key(key)
            .listen(SocketAddresses.parse("--listen", listen))
            .hostControlPort(hostPort)
            .metric(metric(metric))
            .batchSlots(batchSlots)
            .intervalNs(Quantities.parseNanos(interval))
            .linkRateBitsPerSec(null == rate ? 0 : Rates.parseBitsPerSec(rate))
            .transport(NettyTransport.named(udpTransport))
            .namespace(namespace);
        if (null != hostsAt)
        {
            final InetSocketAddress first = SocketAddresses.parse("--hosts-at", hostsAt);
            final List<InetSocketAddress> addresses = new ArrayList<>();
            for (int i = 0; i < topology.hosts().size(); i++)
            {
                addresses.add(new InetSocketAddress(first.getAddress(), first.getPort() + i));
            }
            context.hostAddresses(addresses);
        }
        context.conclude();
        final ControllerDaemon daemon = ControllerDaemon.start(context);
        err.printf(Locale.ROOT, "pfabric controllerd: %s on %s for %d hosts (%s) at %s%s; SIGTERM or Ctrl-C stops " +
            "it%n", controlMode, daemon.localAddress(), topology.hosts().size(), context.fabric(),
            Rates.format(context.linkRateBitsPerSec()),
            ControlMode.SYN == controlMode ? String.format(Locale.ROOT, ", %s, slot %.2f us, batches of %d",
                context.metric(), daemon.slotNs() / 1e3, context.batchSlots()) :
                String.format(Locale.ROOT, ", every %.3f ms", context.intervalNs() / 1e6));
        CountersFile counters = null;
        try (ShutdownSignalBarrier barrier = new ShutdownSignalBarrier())
        {
            try
            {
                if (countersFile.requested())
                {
                    final PrometheusMeterRegistry registry = CountersFile.newRegistry();
                    DaemonMetrics.bindController(daemon, registry);
                    counters = countersFile.start(registry, err, "controllerd", "controllerd",
                        MetricsEndpoint.testbedOf(topologyFile));
                }
                barrier.await();
            }
            finally
            {
                daemon.close();
                if (null != counters)
                {
                    counters.close();
                }
            }
            err.printf(Locale.ROOT, "pfabric controllerd: stopped; %s%n", daemon.summary());
            err.flush();
        }
        return 0;
    }

    private static Metric metric(final String name)
    {
        return switch (name.toLowerCase(Locale.ROOT))
        {
            case "ocf" -> Metric.OCF;
            case "srjf" -> Metric.SRJF;
            case "mmf" -> Metric.MMF;
            default -> throw new IllegalArgumentException("--metric must be ocf, srjf or mmf, not '" + name + "'");
        };
    }
}
