package io.pfabric.cli;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.pfabric.common.packet.NetworkNamespace;
import io.pfabric.common.packet.NettyTransport;
import io.pfabric.common.packet.PacketSocketException;
import io.pfabric.common.packet.XdpPort;
import io.pfabric.common.topology.PortIo;
import io.pfabric.common.topology.PortSpec;
import io.pfabric.common.topology.Rates;
import io.pfabric.common.topology.Topology;
import io.pfabric.common.topology.TopologyException;
import io.pfabric.common.topology.TopologyParser;
import io.pfabric.common.topology.TrafficClasses;
import io.pfabric.common.config.SecretFiles;
import io.pfabric.switchd.AdminServer;
import io.pfabric.switchd.ForwarderIdleStrategy;
import io.pfabric.switchd.PortCounter;
import io.pfabric.switchd.SwitchDaemon;
import io.pfabric.switchd.SwitchMetrics;
import io.pfabric.switchd.SwitchPort;
import io.pfabric.testbed.monitor.MetricsEndpoint;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.ShutdownSignalBarrier;
import org.agrona.concurrent.SystemNanoClock;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code pfabric switchd}: run one switch of a topology on raw-socket ports until SIGTERM or Ctrl-C.
 */
@Command(
    name = "switchd",
    mixinStandardHelpOptions = true,
    header = "Run one switch of a topology on raw-socket and VXLAN ports.",
    description = "Opens a raw-socket port on each interface the topology gives the switch (a VXLAN-over-UDP port " +
        "where the topology says udp), with its queue " +
        "discipline, buffer and line rate (the options below override them for every port), answers ARP from the " +
        "topology's hosts and forwards on one thread until SIGTERM or Ctrl-C, then prints each port's counters. " +
        "With --interfaces instead of a topology it is a learning switch for ad-hoc use. " +
        "With --admin it serves Prometheus metrics, a ports report and run-time rate and discipline changes over HTTP, " +
        "on loopback unless told otherwise; changes need the token in --admin-token-file (without one they are " +
        "refused), and off loopback every request needs it. " +
        "Raw-socket ports need root or CAP_NET_RAW (AF_XDP ports, io: xdp or --io xdp, root and libxdp); " +
        "VXLAN-over-UDP ports need no privilege.")
public final class SwitchdCommand implements Callable<Integer>
{
    private static final long SERVING_PATIENCE_SECONDS = 30;

    @Option(names = "--topology", paramLabel = "FILE", description = "Topology file (YAML or JSON).")
    Path topologyFile;

    @Option(names = "--name", paramLabel = "SWITCH", description = "Which switch of the topology.")
    String switchName;

    @Option(names = "--interfaces", split = ",", paramLabel = "IF",
        description = "Instead of a topology: a learning switch on these interfaces (comma-separated), which learns " +
            "where each MAC address is and floods what it does not know.")
    List<String> interfaces;

    @Option(names = "--rate", paramLabel = "RATE", description = "Line rate of every port, e.g. 100m, 1g, 10g; 0 = unpaced.")
    String rate;

    @Option(names = "--discipline", paramLabel = "NAME",
        description = "pfabric, droptail, ecn, pfabric-classes, pfabric-edf (a deadline queue before another, half " +
            "the buffer each, for pFabric-EDF), strict[:N:T1,T2,...] (thresholds in bytes), sp-pifo[:N[:shared]], " +
            "aifo[:k=K,w=W,s=S] or pias[:N[:K]] for every port.")
    String discipline;

    @Option(names = "--classes", paramLabel = "SPEC",
        description = "Traffic classes of every pfabric-classes port: classes in order separated by ';', each " +
            "WEIGHT[:DSCPS], DSCPS a comma-separated list of values and LOW-HIGH ranges; DSCPs no class lists are " +
            "class 0. E.g. '3:0-7;1:8-15,46'. Default: the eight IP precedences of weight 1 (class = DSCP / 8).")
    String classes;

    @Option(names = "--buffer", paramLabel = "BYTES", description = "Buffer of every port in bytes.")
    Long bufferLength;

    @Option(names = "--udp-transport", defaultValue = "epoll", paramLabel = "epoll|io_uring",
        description = "Netty's transport for the UDP (VXLAN) ports: epoll (default) or io_uring.")
    String udpTransport;

    @Option(names = "--io", paramLabel = "packet|xdp",
        description = "How every port on an interface reaches the wire: packet (AF_PACKET sockets; the default for " +
            "--interfaces) or xdp (an AF_XDP socket on the interface's queue 0, through libxdp); without it each " +
            "topology port's io: setting holds.")
    String io;

    @Option(names = "--netns", paramLabel = "NAME", description = "Open the ports in this network namespace.")
    String namespace;

    @Option(names = "--admin", paramLabel = "[HOST:]PORT",
        description = "Serve /metrics (Prometheus), /ports and port changes over HTTP here: a PORT alone listens on " +
            "127.0.0.1, e.g. 9464; a HOST off loopback needs --admin-token-file. See 'pfabric switchctl'.")
    String adminAddress;

    @Mixin
    CountersFileOptions countersFile = new CountersFileOptions();

    @Option(names = "--admin-token-file", paramLabel = "FILE",
        description = "The admin token (the file's text), which rate and discipline changes need as " +
            "'Authorization: Bearer TOKEN' ('pfabric switchctl --admin-token-file FILE' sends it). The file must be " +
            "private to its owner (chmod 600). Without it, changes are refused.")
    Path adminTokenFile;

    /**
     * Open the switch's ports on a thread of their own that enters the namespace first, so that this thread, and the
     * admin interface it serves, stay in the namespace the command was started in.
     */
    private SwitchDaemon openIn(final String namespace, final Topology topology, final SwitchDaemon.Overrides overrides)
        throws PacketSocketException, InterruptedException
    {
        final SwitchDaemon[] opened = new SwitchDaemon[1];
        final Exception[] failure = new Exception[1];
        final Thread opener = new Thread(() ->
        {
            try
            {
                if (null != namespace)
                {
                    NetworkNamespace.enterOnCurrentThread(namespace);
                }
                opened[0] = null == topology ?
                    SwitchDaemon.openLearning("learning", interfaces, overrides, new SystemNanoClock()) :
                    SwitchDaemon.open(topology, switchName, overrides, new SystemNanoClock());
            }
            catch (final PacketSocketException | RuntimeException ex)
            {
                failure[0] = ex;
            }
        }, "pfabric-open");
        opener.start();
        opener.join();
        if (failure[0] instanceof PacketSocketException ex)
        {
            throw ex;
        }
        if (failure[0] instanceof RuntimeException ex)
        {
            throw ex;
        }
        return opened[0];
    }

    private CountersFile startCounters(final SwitchDaemon daemon, final PrintStream err) throws IOException
    {
        if (!countersFile.requested())
        {
            return null;
        }
        final PrometheusMeterRegistry registry = CountersFile.newRegistry();
        SwitchMetrics.bind(daemon, registry);
        return countersFile.start(registry, err, "switchd", daemon.name(), MetricsEndpoint.testbedOf(topologyFile));
    }

    /**
     * {@inheritDoc}
     */
    public Integer call() throws Exception
    {
        final PrintStream err = System.err;
        final boolean learning = null != interfaces;
        if (learning == (null != topologyFile || null != switchName) || (!learning && null == topologyFile) ||
            (!learning && null == switchName))
        {
            throw new IllegalArgumentException("give either --topology FILE and --name SWITCH, or --interfaces IF,IF");
        }
        Topology topology = null;
        try
        {
            topology = learning ? null : TopologyParser.parse(topologyFile);
        }
        catch (final TopologyException ex)
        {
            err.println("pfabric switchd: " + ex.getMessage());
            return 2;
        }
        if (null != discipline)
        {
            DisciplineOption.checkGiven("--discipline", discipline);
        }
        else if (null != topology && null != topology.switchNamed(switchName))
        {
            for (final PortSpec port : topology.switchNamed(switchName).ports())
            {
                DisciplineOption.checkGiven("--topology: switch '" + switchName + "' port '" + port.name() + "'",
                    port.discipline());
            }
        }
        if (null != bufferLength && bufferLength < 1514)
        {
            throw new IllegalArgumentException("--buffer must be at least 1514 bytes, not " + bufferLength);
        }
        final PortIo portIo;
        try
        {
            portIo = null == io ? null : PortIo.named(io);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("--io: " + ex.getMessage(), ex);
        }
        final SwitchDaemon.Overrides overrides = new SwitchDaemon.Overrides(
            null == rate ? -1 : Rates.parseBitsPerSec(rate), discipline, null == bufferLength ? -1 : bufferLength,
            NettyTransport.named(udpTransport), null == classes ? null : TrafficClasses.parse(classes), portIo);

        final SwitchDaemon daemon;
        try
        {
            daemon = openIn(namespace, topology, overrides);
        }
        catch (final PacketSocketException ex)
        {
            err.println("pfabric switchd: " + ex.getMessage());
            return 1;
        }

        final AdminServer admin;
        try
        {
            admin = null == adminAddress ? null : AdminServer.start(daemon, SwitchctlCommand.address(adminAddress),
                null == adminTokenFile ? null : SecretFiles.readPrivate(adminTokenFile, "token file"));
        }
        catch (final IOException | IllegalArgumentException ex)
        {
            daemon.close();
            err.println("pfabric switchd: cannot serve the admin interface on " + adminAddress + ": " + ex.getMessage());
            return 1;
        }
        final CountersFile counters;
        try
        {
            counters = startCounters(daemon, err);
        }
        catch (final IOException ex)
        {
            if (null != admin)
            {
                admin.close();
            }
            daemon.close();
            err.println("pfabric switchd: " + ex.getMessage());
            return 1;
        }
        try (ShutdownSignalBarrier barrier = new ShutdownSignalBarrier())
        {
            final ForwarderIdleStrategy idle = new ForwarderIdleStrategy(daemon.forwarder());
            final AgentRunner runner = new AgentRunner(idle,
                error -> err.println("pfabric switchd: forwarder error: " + error), null, daemon.forwarder());
            AgentRunner.startOnThread(runner);
            if (!daemon.forwarder().awaitServing(SERVING_PATIENCE_SECONDS, TimeUnit.SECONDS))
            {
                err.printf(Locale.ROOT, "pfabric switchd %s: the forwarder did not run within %d s%n", daemon.name(),
                    SERVING_PATIENCE_SECONDS);
                runner.close();
                idle.close();
                if (null != counters)
                {
                    counters.close();
                }
                daemon.close();
                return 1;
            }
            err.printf(Locale.ROOT, "pfabric switchd %s: forwarding on %d ports; SIGTERM or Ctrl-C stops it%n",
                daemon.name(), daemon.portCount());
            for (int i = 0; i < daemon.portCount(); i++)
            {
                final SwitchPort port = daemon.port(i);
                err.printf(Locale.ROOT, "  %s on %s%s: %s, %,d B buffer, %s%n", port.name(), port.io().interfaceName(),
                    port.io() instanceof XdpPort xdp ? " (AF_XDP, " + xdp.attachMode() + ", " + xdp.umemDescription() +
                        (xdp.staleProgramDetached() ? "; took off a stale XDP program a stopped process left" : "") +
                        ")" : "",
                    port.queue().name(), port.queue().capacityLength(),
                    null == port.pacer() ? "unpaced" : "rate " + Rates.format(port.pacer().rateBitsPerSec()));
            }
            if (null != admin)
            {
                err.printf(Locale.ROOT, "  admin interface: http://%s/ports and /metrics, changes %s%n",
                    SwitchctlCommand.authority(admin.address()),
                    null == adminTokenFile ? "refused (no --admin-token-file)" : "with the token");
            }
            barrier.await();
            if (null != admin)
            {
                admin.close();
            }
            runner.close();
            idle.close();
            for (int i = 0; i < daemon.portCount(); i++)
            {
                final SwitchPort port = daemon.port(i);
                err.printf(Locale.ROOT, "  %s: received %d, sent %d, queue drops %d, malformed %d, no route %d, " +
                    "transmit retries %d%n",
                    port.name(), port.counters().get(PortCounter.RECEIVED_FRAMES),
                    port.counters().get(PortCounter.TRANSMITTED_FRAMES), port.queue().counters().droppedPackets(),
                    port.counters().get(PortCounter.DROPPED_MALFORMED),
                    port.counters().get(PortCounter.DROPPED_NO_ROUTE),
                    port.counters().get(PortCounter.TRANSMIT_RETRIES));
            }
            if (null != counters)
            {
                counters.close();
            }
            daemon.close();
            err.printf("pfabric switchd %s: stopped%n", daemon.name());
            err.flush();
        }
        return 0;
    }
}
