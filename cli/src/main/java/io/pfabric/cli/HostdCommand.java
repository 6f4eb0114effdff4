package io.pfabric.cli;

import io.pfabric.common.config.Quantities;
import io.pfabric.common.control.ControlKeys;
import io.pfabric.common.control.ControlMode;
import io.pfabric.common.os.SchedulerTick;
import io.pfabric.common.packet.DataPathPlacement;
import io.pfabric.common.packet.DataPathScheduling;
import io.pfabric.common.topology.HostSpec;
import io.pfabric.common.topology.PortSpec;
import io.pfabric.common.topology.Rates;
import io.pfabric.common.topology.Topology;
import io.pfabric.common.topology.TopologyParser;
import io.pfabric.common.topology.TrafficClasses;
import io.pfabric.dataplane.queue.PfabricClassQueue;
import io.pfabric.experiment.HostMetrics;
import io.pfabric.hostd.HostDaemon;
import io.pfabric.hostd.app.AppServer;
import io.pfabric.hostd.app.MessageInbox;
import io.pfabric.hostd.control.HostControl;
import io.pfabric.hostd.control.HostControlOptions;
import io.pfabric.hostd.io.PacketIos;
import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.hostd.transport.MessageChunks;
import io.pfabric.hostd.transport.PriorityPolicy;
import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.transport.TransportListener;
import io.pfabric.hostd.workload.DeadlineSpec;
import io.pfabric.hostd.workload.FctLogWriter;
import io.pfabric.hostd.workload.FlowSizeDistribution;
import io.pfabric.hostd.workload.WorkloadRunner;
import io.pfabric.hostd.workload.WorkloadTrace;
import io.pfabric.testbed.monitor.MetricsEndpoint;
import org.agrona.concurrent.ShutdownSignalBarrier;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code pfabric hostd}: one host of a topology running pFabric's transport, with the application socket and,
 * optionally, a workload.
 */
@Command(
    name = "hostd",
    mixinStandardHelpOptions = true,
    header = "Run one host of a topology with pFabric's transport.",
    description = {
        "Runs pFabric's transport for one host of the topology: over UDP port 7253 (--io udp, the default, no " +
            "privilege needed) or directly in IPv4 as protocol 253 on a raw socket (--io raw, root). Serves the " +
            "application socket that 'pfabric send' and 'pfabric recv' use (default " +
            "/tmp/pfabric-hostd-NAME.sock), which only its owner (and --socket-group) may connect to, at most 64 " +
            "clients at once; a client that sends a frame over 1 GiB or pauses inside a frame for 10 s is " +
            "disconnected. Messages that arrive while no 'pfabric recv' is subscribed are kept for the next one, " +
            "within --kept-messages and --kept-bytes. The window, cap and timeout follow from the host's link " +
            "rate, the base RTT and the switch buffer as in the paper: initial window = BDP in 1500-byte packets, " +
            "cap = " +
            "buffer in packets less one, timeout = 3 x base RTT, but at least the base RTT plus 1.25 x the time a full " +
            "switch buffer takes to drain at the link rate (on an emulated fabric the measured base RTT lacks the " +
            "frames' time on the wire).",
        "With --control syn|asy the host takes part in central control by 'pfabric controllerd' (see --control); " +
            "its counters, printed at stop, say how often it fell back to plain pFabric.",
        "Stops on SIGTERM or Ctrl-C; flows still in flight are reported as incomplete." })
public final class HostdCommand implements Callable<Integer>
{
    private static final long DEFAULT_BASE_RTT_NS = 100_000;
    private static final long MEASUREMENT_PATIENCE_NS = 30_000_000_000L;

    @Option(names = "--topology", required = true, paramLabel = "FILE", description = "Topology file (YAML or JSON).")
    Path topologyFile;

    @Option(names = "--name", required = true, paramLabel = "HOST", description = "Which host of the topology.")
    String hostName;

    @Option(names = "--io", defaultValue = "udp", paramLabel = "udp|udp-io_uring|raw|vxlan",
        description = "udp (port 7253 with Netty's epoll, default), udp-io_uring (the same with io_uring), raw " +
            "(IPv4 protocol 253 on a packet socket, needs root) or vxlan (the same frames in a VXLAN tunnel to the " +
            "host's switch port, when the topology gives it a udp port; no privilege needed).")
    String io;

    @Option(names = "--netns", paramLabel = "NAME", description = "Open the sockets in this network namespace.")
    String namespace;

    @Option(names = "--rate", paramLabel = "RATE",
        description = "Host link rate, e.g. 1g (default: the rate of the switch port the host hangs on); 0 = unpaced.")
    String rate;

    @Option(names = "--base-rtt", defaultValue = "auto", paramLabel = "DURATION|auto",
        description = "Base RTT of the fabric, e.g. 14.7us or 200us; 'auto' (the default) measures it at start " +
            "with one-segment flows to the other hosts (waiting up to 30 s for one to answer; until then, and if " +
            "none does, 100us).")
    String baseRtt;

    @Option(names = "--buffer", defaultValue = "36000", paramLabel = "BYTES",
        description = "Switch buffer per port, for the window cap (default: ${DEFAULT-VALUE}).")
    long bufferLength;

    @Option(names = "--scheme", defaultValue = "pfabric", paramLabel = "pfabric|linerate",
        description = "pfabric (windowed, default) or linerate (no window).")
    String scheme;

    @Option(names = "--segments-per-ack", defaultValue = "1", paramLabel = "N",
        description = "1 (default, pFabric's rule): every data packet is acknowledged at once. N = 2.." +
            TransportConfiguration.MAX_SEGMENTS_PER_ACK + " (an option, not the paper's): an in-order packet's " +
            "ACK may wait until N are owed or the packets taken from the socket so far are handled; packets out of " +
            "order, duplicates, probes and a flow's last packet are acknowledged at once.")
    int segmentsPerAck;

    @Option(names = "--socket", paramLabel = "PATH", description = "Application socket path.")
    Path socket;

    @Option(names = "--socket-group", paramLabel = "GROUP",
        description = "Let this group's members connect to the application socket too (mode 660; default: the " +
            "owner only, 600).")
    String socketGroup;

    @Option(names = "--kept-messages", defaultValue = "" + MessageInbox.DEFAULT_MAX_KEPT_MESSAGES, paramLabel = "N",
        description = "Messages kept while no client is subscribed, handed in order to the next that subscribes " +
            "('pfabric recv'); beyond this many, or --kept-bytes, the oldest are dropped and counted " +
            "(pfabric_host_app_kept_dropped_total). 0 keeps none (default: ${DEFAULT-VALUE}).")
    int keptMessages;

    @Option(names = "--kept-bytes", defaultValue = "256MiB", paramLabel = "SIZE",
        description = "Bytes of messages kept while no client is subscribed, e.g. 64MB; a longer message is not " +
            "kept (default: ${DEFAULT-VALUE}).")
    String keptBytes;

    @Option(names = "--workload", paramLabel = "NAME|FILE",
        description = "Run a workload: websearch, datamining or a CDF file (sizes in 1460-byte packets). Received " +
            "messages are then counted, not handed to 'pfabric recv'.")
    String workload;

    @Option(names = "--load", defaultValue = "0.6", paramLabel = "L",
        description = "Offered load on the access link, headers counted (default: ${DEFAULT-VALUE}).")
    double load;

    @Option(names = "--duration", paramLabel = "DURATION", description = "Start flows for this long, e.g. 30s.")
    String duration;

    @Option(names = "--flows", defaultValue = "0", paramLabel = "N",
        description = "Or: the first N flows of the fabric-wide trace (this host starts its share).")
    long flows;

    @Option(names = "--dscp-shares", paramLabel = "DSCP:SHARE,...",
        description = "Mark the workload's flows with DSCPs by share, e.g. 0:3,8:1 marks three flows in four DSCP 0 " +
            "and one in four DSCP 8 (classes 0 and 1 at pfabric-classes ports by default). Every host given the " +
            "same seed marks the same flows. Default: all DSCP 0.")
    String dscpShares;

    @Option(names = "--classes", paramLabel = "SPEC|none",
        description = "Share the host's link between traffic classes by weight, as a pfabric-classes port does " +
            "(SRPT within each class), e.g. 3:0-7;1:8-15. Default: the classes of the switch port the host hangs " +
            "on if its discipline is pfabric-classes, else none (SRPT over every flow).")
    String classes;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "N",
        description = "Seed of the trace; every host given the same seed draws the same trace (default: 1).")
    long seed;

    @Option(names = "--fct-log", paramLabel = "FILE", description = "FCT log (default: fct-NAME.csv).")
    Path fctLog;

    @Option(names = "--control", paramLabel = "syn|asy",
        description = "Central control by 'pfabric controllerd': syn (send a packet per granted slot, on the " +
            "granted spine) or asy (per-destination leaky buckets at the granted rates, ECMP). Needs " +
            "--controller and --key-file. Default: none, plain pFabric.")
    String control;

    @Option(names = "--controller", paramLabel = "HOST:PORT", description = "The controller's address.")
    String controller;

    @Option(names = "--key-file", paramLabel = "FILE", description = "The shared control key (the controller's).")
    Path keyFile;

    @Option(names = "--control-listen", defaultValue = "0.0.0.0:7254", paramLabel = "HOST:PORT",
        description = "Where this host's control socket listens: the address the controller sends to " +
            "(default: ${DEFAULT-VALUE}).")
    String controlListen;

    @Option(names = "--control-silence", defaultValue = "50ms", paramLabel = "DURATION",
        description = "With no message from the controller for this long, fall back to plain pFabric until " +
            "messages return (default: ${DEFAULT-VALUE}).")
    String controlSilence;

    @Option(names = "--grace", defaultValue = "10s", paramLabel = "DURATION",
        description = "How long to wait for flows in flight after the last start (default: ${DEFAULT-VALUE}).")
    String grace;

    @Option(names = "--deadlines", paramLabel = "exp:MEAN[,below=SIZE]",
        description = "With --workload: give every flow smaller than SIZE (default 200KB) a deadline drawn from an " +
            "exponential distribution of mean MEAN, at least 1.25 x its minimum FCT on the idle fabric (the base " +
            "RTT, measured or given, then its further segments at the host's rate); every host given the same seed " +
            "draws the same. The FCT log then has deadline_ns,deadline_met columns.")
    String deadlines;

    @Option(names = "--priority", defaultValue = "remaining", paramLabel = "remaining|size|bytes-sent|deadline",
        description = "What data packets' priority says (default: ${DEFAULT-VALUE} flow size). deadline: " +
            "pFabric-EDF, a flow's deadline in microseconds with the DEADLINE flag for the pfabric-edf switch " +
            "queue, the least urgent priority once it cannot finish in time; flows without one keep remaining " +
            "size. Needs deadlines: --deadlines, or messages sent with one.")
    String priority;

    @Option(names = "--stay",
        description = "With --workload: once this host's flows are done, keep receiving until SIGTERM, so that " +
            "peers' flows to it still complete; the FCT log is written at the stop.")
    boolean stay;

    @Mixin
    CountersFileOptions countersFile = new CountersFileOptions();

    /**
     * {@inheritDoc}
     */
    public Integer call() throws IOException
    {
        final PrintStream err = System.err;
        countersFile.validate();
        final Topology topology = TopologyParser.parse(topologyFile);
        final HostSpec host = topology.host(hostName);
        if (null == host)
        {
            throw new IllegalArgumentException("no host named '" + hostName + "' in " + topologyFile);
        }
        final long linkRateBitsPerSec = null != rate ? Rates.parseOption("--rate", rate, true) : attachmentRate(topology, host);
        final boolean measure = "auto".equalsIgnoreCase(baseRtt);
        final long baseRttNs = measure ? DEFAULT_BASE_RTT_NS : Quantities.parseNanos(baseRtt);
        if (baseRttNs <= 0)
        {
            throw new IllegalArgumentException("--base-rtt must be positive");
        }
        if (!"pfabric".equalsIgnoreCase(scheme) && !"linerate".equalsIgnoreCase(scheme))
        {
            throw new IllegalArgumentException("--scheme must be pfabric or linerate, not '" + scheme + "'");
        }
        if (null != workload)
        {
            Quantities.requireLoad("--load", load);
        }
        final MessageInbox inbox = inbox();
        final PriorityPolicy policy = PriorityPolicy.byName("--priority", priority);
        final DeadlineSpec deadlineSpec = null == deadlines ? null : deadlineSpec();
        if (PriorityPolicy.DEADLINE == policy && null != workload && null == deadlineSpec)
        {
            throw new IllegalArgumentException("--priority deadline needs deadlines: give the workload --deadlines");
        }
        final TransportConfiguration configuration = configuration(linkRateBitsPerSec, baseRttNs);
        final TrafficClasses hostClasses = hostClasses(classes, topology, host);
        final HostControlOptions controlOptions = controlOptions(linkRateBitsPerSec);
        final AtomicBoolean measuring = new AtomicBoolean(measure);
        final WorkloadRunner runner = null == workload ? null :
            new WorkloadRunner(configuration.lineRate() ? "linerate" : "pfabric", err);
        final List<WorkloadTrace.FlowSpec> trace = null == workload ? List.of() :
            trace(topology, requirePositiveRate(linkRateBitsPerSec));
        final AtomicReference<AppServer> server = new AtomicReference<>();
        final AtomicReference<FlowCompletionMeter> completionMeter = new AtomicReference<>();
        final TransportListener listener = new TransportListener()
        {
            public void onMessage(final int sourceHost, final long flowId, final MessageChunks message)
            {
                if (!HostDaemon.isMeasurement(message))
                {
                    inbox.publish(topology.hosts().get(sourceHost).name(), flowId, message);
                }
            }

            public void onFlowFinished(final FlowRecord record)
            {
                final FlowCompletionMeter meter = completionMeter.get();
                if (null != meter)
                {
                    meter.onFlowFinished(record);
                }
                if (!measuring.get() && null == runner && !record.isComplete())
                {
                    err.printf(Locale.ROOT, "pfabric hostd %s: flow %x to %s given up incomplete (%,d bytes)%n",
                        hostName, record.flowId(), topology.hosts().get(record.destinationHost()).name(),
                        record.sizeBytes());
                }
            }
        };
        final HostDaemon daemon = HostDaemon.start(topology, hostName,
            new HostDaemon.Options(configuration, linkRateBitsPerSec, PacketIos.wireOverheadLength(io), namespace,
                null == runner, controlOptions, hostClasses),
            PacketIos.factory(io), listener);
        err.printf(Locale.ROOT, "pfabric hostd %s: %s over %s at %s, window %d..%d packets, timeout %.1f us%s; " +
            "SIGTERM or Ctrl-C stops it%n", hostName, configuration.lineRate() ? "linerate" : "pfabric", io,
            linkRateBitsPerSec > 0 ? Rates.format(linkRateBitsPerSec) : "unpaced",
            configuration.initialWindowPackets(), configuration.maxWindowPackets(), configuration.timeoutNs() / 1e3,
            measure ? " until the base RTT is measured" : "");
        if (DataPathPlacement.enabled() && null != daemon.placement())
        {
            err.printf(Locale.ROOT, "pfabric hostd %s: its thread runs %s%n", hostName, daemon.placement());
        }
        if (DataPathScheduling.enabled() && null != daemon.realtimeRefusal())
        {
            err.printf(Locale.ROOT, "pfabric hostd %s: its thread runs at ordinary priority (real-time scheduling %s): " +
                "another busy thread may delay its packets by milliseconds%n", hostName, daemon.realtimeRefusal());
        }
        if (null != hostClasses)
        {
            err.printf(Locale.ROOT, "pfabric hostd %s: link shared between traffic classes %s by weight%n",
                hostName, hostClasses);
        }
        if (null != controlOptions)
        {
            err.printf(Locale.ROOT, "pfabric hostd %s: %s control by %s, listening on %s; plain pFabric after %s " +
                "of silence%n", hostName, controlOptions.mode(), controlOptions.controller(),
                daemon.control().localAddress(), controlSilence);
        }
        final CountersFile counters;
        try
        {
            counters = startCounters(daemon, inbox, completionMeter, err);
        }
        catch (final IOException ex)
        {
            daemon.close();
            err.printf(Locale.ROOT, "pfabric hostd %s: %s%n", hostName, ex.getMessage());
            return 1;
        }
        long fabricRttNs = baseRttNs;
        if (measure)
        {
            fabricRttNs = measureBaseRtt(daemon, topology, linkRateBitsPerSec, err);
            measuring.set(false);
        }
        if (null != runner)
        {
            final long rttNs = fabricRttNs;
            return runWorkload(daemon, runner, null == deadlineSpec ? trace : deadlineSpec.apply(trace,
                (source, destination) -> rttNs, linkRateBitsPerSec, FlowSizeDistribution.SEGMENT_WIRE_BYTES, seed),
                counters, err);
        }
        if (stay)
        {
            throw new IllegalArgumentException("--stay needs --workload");
        }
        try (ShutdownSignalBarrier barrier = new ShutdownSignalBarrier())
        {
            try
            {
                final Path socketPath = null != socket ? socket : AppSockets.forHost(hostName);
                server.set(AppServer.start(socketPath, daemon, AppServer.Access.DEFAULT.withGroup(socketGroup), inbox));
                err.printf(Locale.ROOT, "pfabric hostd %s: application socket %s%n", hostName, socketPath);
                barrier.await();
            }
            finally
            {
                final AppServer current = server.get();
                if (null != current)
                {
                    current.close();
                }
                daemon.close();
                if (null != counters)
                {
                    counters.close();
                }
            }
            err.printf(Locale.ROOT, "pfabric hostd %s: stopped; %,d flows completed, %,d messages received, " +
                "%,d flows failed as their receiver restarted, %,d incoming flows given up idle%n",
                hostName, daemon.counters().flowsCompleted(), daemon.counters().messagesDelivered(),
                daemon.counters().receiverRestarts(), daemon.counters().receiversExpired());
            printControl(daemon, err);
            err.flush();
        }
        return 0;
    }

    private HostControlOptions controlOptions(final long linkRateBitsPerSec) throws IOException
    {
        if (null == control)
        {
            if (null != controller || null != keyFile)
            {
                throw new IllegalArgumentException("--controller and --key-file need --control syn|asy");
            }
            return null;
        }
        final ControlMode mode = ControlMode.named(control);
        if (null == controller || null == keyFile)
        {
            throw new IllegalArgumentException("--control needs --controller HOST:PORT and --key-file FILE");
        }
        if (linkRateBitsPerSec <= 0)
        {
            throw new IllegalArgumentException("--control needs a host link rate: give --rate");
        }
        final long silenceNs = Quantities.parseNanos(controlSilence);
        if (silenceNs <= 0)
        {
            throw new IllegalArgumentException("--control-silence must be positive");
        }
        return HostControlOptions.of(mode, SocketAddresses.parse("--controller", controller),
            SocketAddresses.parse("--control-listen", controlListen), ControlKeys.read(keyFile))
            .withSilenceNs(silenceNs);
    }

    private static void printControl(final HostDaemon daemon, final PrintStream err)
    {
        final HostControl hostControl = daemon.control();
        if (null == hostControl)
        {
            return;
        }
        final StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
            "pfabric hostd %s: %s control: accepted %,d, refused malformed %,d, unauthenticated %,d, duplicate %,d, " +
            "stale %,d; %,d reports sent; controlFallbacks %,d, resumptions %,d, %s; %,d packets sent in fallback, " +
            "%,d times held back", daemon.host().name(), hostControl.mode(), hostControl.inbox().accepted(),
            hostControl.inbox().malformed(), hostControl.inbox().unauthenticated(), hostControl.inbox().duplicates(),
            hostControl.inbox().stale(), hostControl.reportsSent(), hostControl.fallbacks(),
            hostControl.resumptions(), hostControl.fallback() ? "in fallback (plain pFabric)" : "under control",
            hostControl.packetsAdmittedInFallback(), daemon.counters().packetsHeldBack()));
        if (null != hostControl.syn())
        {
            line.append(String.format(Locale.ROOT, "; grants received %,d, used %,d, expired %,d, found lost %,d",
                hostControl.syn().grantsReceived(), hostControl.syn().grantsUsed(), hostControl.syn().grantsExpired(),
                hostControl.ledger().lostGrants()));
        }
        err.println(line);
    }

    private TransportConfiguration configuration(final long linkRateBitsPerSec, final long baseRttNs)
    {
        final TransportConfiguration windowed = TransportConfiguration.forEmulatedFabric(
            linkRateBitsPerSec > 0 ? linkRateBitsPerSec : 10_000_000_000L, baseRttNs, bufferLength,
            SchedulerTick.periodNs());
        return ("linerate".equalsIgnoreCase(scheme) ? windowed.withLineRate() : windowed)
            .withSegmentsPerAck(segmentsPerAck).withPriorityPolicy(PriorityPolicy.byName("--priority", priority));
    }

    private long measureBaseRtt(final HostDaemon daemon, final Topology topology, final long linkRateBitsPerSec,
        final PrintStream err)
    {
        final long deadlineNs = System.nanoTime() + MEASUREMENT_PATIENCE_NS;
        while (System.nanoTime() - deadlineNs < 0)
        {
            for (final HostSpec other : topology.hosts())
            {
                if (other.name().equals(hostName))
                {
                    continue;
                }
                try
                {
                    final long rttNs = daemon.measureBaseRttNs(other.name(), 5, 300_000_000L);
                    final TransportConfiguration measured = configuration(linkRateBitsPerSec, rttNs);
                    daemon.reconfigure(measured);
                    err.printf(Locale.ROOT, "pfabric hostd %s: base RTT to %s %.1f us; window %d..%d packets, " +
                        "timeout %.1f us%n", hostName, other.name(), rttNs / 1e3, measured.initialWindowPackets(),
                        measured.maxWindowPackets(), measured.timeoutNs() / 1e3);
                    return rttNs;
                }
                catch (final IOException ex)
                {
                    if (System.nanoTime() - deadlineNs >= 0)
                    {
                        break;
                    }
                }
            }
        }
        err.printf(Locale.ROOT, "pfabric hostd %s: no other host answered in 30 s; keeping a base RTT of %.0f us%n",
            hostName, DEFAULT_BASE_RTT_NS / 1e3);
        return DEFAULT_BASE_RTT_NS;
    }

    private DeadlineSpec deadlineSpec() throws IOException
    {
        if (null == workload)
        {
            throw new IllegalArgumentException("--deadlines goes with --workload");
        }
        return DeadlineSpec.parse(deadlines).requireSelectsFrom(FlowSizeDistribution.load(workload));
    }

    private MessageInbox inbox()
    {
        if (keptMessages < 0)
        {
            throw new IllegalArgumentException("--kept-messages must not be negative");
        }
        final long bytes;
        try
        {
            bytes = Quantities.parseBytes(keptBytes);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("--kept-bytes: " + ex.getMessage(), ex);
        }
        if (bytes < 0)
        {
            throw new IllegalArgumentException("--kept-bytes must not be negative");
        }
        return new MessageInbox(keptMessages, bytes);
    }

    private CountersFile startCounters(final HostDaemon daemon, final MessageInbox inbox,
        final AtomicReference<FlowCompletionMeter> completionMeter, final PrintStream err) throws IOException
    {
        if (!countersFile.requested())
        {
            return null;
        }
        final PrometheusMeterRegistry registry = CountersFile.newRegistry();
        HostMetrics.bind(daemon, registry);
        if (null == workload)
        {
            HostMetrics.bindInbox(hostName, inbox, registry);
        }
        final FlowCompletionMeter meter = new FlowCompletionMeter(hostName, daemon.counters(), registry);
        final CountersFile counters;
        try
        {
            counters = countersFile.start(registry, err, "hostd", hostName, MetricsEndpoint.testbedOf(topologyFile));
        }
        catch (final IOException ex)
        {
            meter.close();
            throw ex;
        }
        counters.beforeStop(meter::close);
        completionMeter.set(meter);
        return counters;
    }

    private int runWorkload(final HostDaemon daemon, final WorkloadRunner runner,
        final List<WorkloadTrace.FlowSpec> trace, final CountersFile counters, final PrintStream err)
        throws IOException
    {
        final Path logPath = null != fctLog ? fctLog : Path.of("fct-" + hostName + ".csv");
        final long mine = trace.stream().filter(f -> f.sourceHost() == daemon.hostIndex(hostName)).count();
        err.printf(Locale.ROOT, "pfabric hostd %s: %s at load %.2f, %,d flows of the trace are this host's; FCT log " +
            "%s%n", hostName, workload, load, mine, logPath);
        final GracefulStop stop = new GracefulStop(runner::stop, "hostd-stop");
        try
        {
            final long completed;
            final FctLogWriter log = new FctLogWriter(logPath, trace.stream().anyMatch(f -> 0 != f.dscp()),
                trace.stream().anyMatch(WorkloadTrace.FlowSpec::hasDeadline));
            try
            {
                completed = runner.run(daemon, trace, log, Quantities.parseNanos(grace));
                if (stay)
                {
                    err.printf(Locale.ROOT, "pfabric hostd %s: workload done, %,d of %,d flows completed; " +
                        "receiving until SIGTERM%n", hostName, completed, mine);
                    err.flush();
                    stop.awaitStopRequest();
                }
                daemon.close();
                runner.drain(daemon, log);
            }
            finally
            {
                log.close();
            }
            err.printf(Locale.ROOT, "pfabric hostd %s: done, %,d of %,d flows completed; FCT log %s written%n",
                hostName, completed, mine, logPath);
            printControl(daemon, err);
            err.flush();
            return 0;
        }
        finally
        {
            daemon.close();
            if (null != counters)
            {
                counters.close();
            }
            stop.close();
        }
    }

    private List<WorkloadTrace.FlowSpec> trace(final Topology topology, final long linkRateBitsPerSec)
        throws IOException
    {
        final long durationNs = null == duration ? 0 : Quantities.parseNanos(duration);
        if (flows <= 0 && durationNs <= 0)
        {
            throw new IllegalArgumentException("--workload needs --duration or --flows");
        }
        final List<WorkloadTrace.FlowSpec> trace = WorkloadTrace.generate(topology.hosts().size(), load,
            linkRateBitsPerSec, FlowSizeDistribution.load(workload), seed, flows, durationNs);
        return null == dscpShares ? trace : WorkloadTrace.withDscpShares(trace, dscpShares, seed);
    }

    private static long requirePositiveRate(final long linkRateBitsPerSec)
    {
        if (linkRateBitsPerSec <= 0)
        {
            throw new IllegalArgumentException("a workload needs a link rate: give --rate");
        }
        return linkRateBitsPerSec;
    }

    /**
     * The traffic classes a host shares its link between: those given, none for {@code none}, else those of the
     * switch port it hangs on if that port runs pfabric-classes.
     *
     * @param spec     the {@code --classes} value, or null.
     * @param topology the fabric.
     * @param host     the host.
     * @return the classes, or null for none.
     */
    static TrafficClasses hostClasses(final String spec, final Topology topology, final HostSpec host)
    {
        if (null != spec)
        {
            return "none".equalsIgnoreCase(spec.trim()) ? null : TrafficClasses.parse(spec);
        }
        final PortSpec port = topology.switchNamed(host.switchName()).port(host.portName());
        if (null == port || !PfabricClassQueue.NAME.equals(port.discipline()))
        {
            return null;
        }
        return null == port.classes() ? TrafficClasses.DEFAULT : port.classes();
    }

    private static long attachmentRate(final Topology topology, final HostSpec host)
    {
        final PortSpec port = topology.switchNamed(host.switchName()).port(host.portName());
        return null == port ? 0 : port.rateBitsPerSec();
    }
}
