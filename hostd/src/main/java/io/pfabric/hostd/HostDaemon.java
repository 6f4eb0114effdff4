package io.pfabric.hostd;

import io.netty.util.concurrent.FastThreadLocalThread;
import io.pfabric.common.packet.NetworkNamespace;
import io.pfabric.common.packet.PacketSocketException;
import io.pfabric.common.packet.DataPathPlacement;
import io.pfabric.common.packet.DataPathScheduling;
import io.pfabric.common.packet.TimerSlack;
import io.pfabric.common.topology.HostSpec;
import io.pfabric.common.topology.Topology;
import io.pfabric.common.topology.TrafficClasses;
import io.pfabric.common.wire.PfabricHeaderFlyweight;
import io.pfabric.hostd.control.HostControl;
import io.pfabric.hostd.control.HostControlOptions;
import io.pfabric.hostd.io.PacketIo;
import io.pfabric.hostd.io.PacketIoFactory;
import io.pfabric.hostd.io.PacketIos;
import io.pfabric.hostd.io.PacketIoGroup;
import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.hostd.transport.HostTransport;
import io.pfabric.hostd.transport.MessageChunks;
import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.transport.TransportCounters;
import io.pfabric.hostd.transport.TransportListener;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.SystemNanoClock;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * One host of a topology running pFabric's transport: the embedded Java API. Its {@link HostTransport} runs on a
 * thread of its own ({@link #start}) or on one thread shared with other hosts of the same process ({@link
 * #startShared}), which enters the host's network namespace (if given), opens the packet I/O and then runs the
 * transport's steps until {@link #close()}: it looks at the I/O without waiting while a packet may leave at once,
 * else waits in it (epoll for UDP) until a packet, a new send, the pacer's next departure or the earliest timeout,
 * at most 10 ms when a new send or closing wakes the wait (a packet socket, UDP) and no controller is to be polled,
 * else at most 100 µs. Closing reports every flow still in flight to the listener as incomplete.
 */
public final class HostDaemon implements AutoCloseable
{
    private static final long START_TIMEOUT_SECONDS = 30;
    private static final int WARM_UP_FLOWS = 20;
    private static final int WARM_UP_BULK_BYTES = 1 << 20;
    private static final long IDLE_WAIT_NS = 100_000;
    private static final long WOKEN_IDLE_WAIT_NS = 10_000_000;
    private static final byte[] MEASUREMENT_MARK =
        "pfabric hostd: one-segment flow of a base RTT measurement".getBytes(StandardCharsets.US_ASCII);

    private final Topology topology;
    private final HostSpec host;
    private final int hostIndex;
    private final Options options;
    private final TransportListener listener;
    private Thread thread;
    private volatile PacketIo io;
    private HostTransport transport;
    private final CompletableFuture<HostTransport> started = new CompletableFuture<>();
    private final CompletableFuture<Void> stopped = new CompletableFuture<>();
    private volatile boolean running = true;
    private volatile String realtimeRefusal = "not started";
    private volatile String placement;
    private volatile HostControl control;
    private volatile int maxSegmentLength = TransportConfiguration.DEFAULT_SEGMENT_LENGTH;

    /**
     * How to run a host.
     *
     * @param configuration      window, timeout and priority settings.
     * @param linkRateBitsPerSec the host link's rate, at which data leaves; 0 for unpaced.
     * @param wireOverheadLength bytes per packet on the wire besides the pFabric header and payload.
     * @param namespace          network namespace to enter before opening the I/O, or null.
     * @param keepPayload        whether received messages are assembled and given to the listener.
     * @param control            central control (SYN or ASY), or null for plain pFabric.
     * @param classes            traffic classes the host shares its link between by weight
     *                           ({@link HostTransport#trafficClasses}), or null to send by SRPT over every flow.
     */
    public record Options(
        TransportConfiguration configuration,
        long linkRateBitsPerSec,
        int wireOverheadLength,
        String namespace,
        boolean keepPayload,
        HostControlOptions control,
        TrafficClasses classes)
    {
        /**
         * Without traffic classes.
         *
         * @param configuration      window, timeout and priority settings.
         * @param linkRateBitsPerSec the host link's rate, at which data leaves; 0 for unpaced.
         * @param wireOverheadLength bytes per packet on the wire besides the pFabric header and payload.
         * @param namespace          network namespace to enter before opening the I/O, or null.
         * @param keepPayload        whether received messages are assembled and given to the listener.
         * @param control            central control (SYN or ASY), or null for plain pFabric.
         */
        public Options(
            final TransportConfiguration configuration,
            final long linkRateBitsPerSec,
            final int wireOverheadLength,
            final String namespace,
            final boolean keepPayload,
            final HostControlOptions control)
        {
            this(configuration, linkRateBitsPerSec, wireOverheadLength, namespace, keepPayload, control, null);
        }

        /**
         * Plain pFabric, no controller.
         *
         * @param configuration      window, timeout and priority settings.
         * @param linkRateBitsPerSec the host link's rate, at which data leaves; 0 for unpaced.
         * @param wireOverheadLength bytes per packet on the wire besides the pFabric header and payload.
         * @param namespace          network namespace to enter before opening the I/O, or null.
         * @param keepPayload        whether received messages are assembled and given to the listener.
         */
        public Options(
            final TransportConfiguration configuration,
            final long linkRateBitsPerSec,
            final int wireOverheadLength,
            final String namespace,
            final boolean keepPayload)
        {
            this(configuration, linkRateBitsPerSec, wireOverheadLength, namespace, keepPayload, null);
        }

        /**
         * The same options under central control.
         *
         * @param newControl how the host takes part, or null.
         * @return new options.
         */
        public Options withControl(final HostControlOptions newControl)
        {
            return new Options(configuration, linkRateBitsPerSec, wireOverheadLength, namespace, keepPayload,
                newControl, classes);
        }

        /**
         * The same options with the host's link shared between traffic classes.
         *
         * @param newClasses the classes, or null for none.
         * @return new options.
         */
        public Options withClasses(final TrafficClasses newClasses)
        {
            return new Options(configuration, linkRateBitsPerSec, wireOverheadLength, namespace, keepPayload,
                control, newClasses);
        }
    }

    private HostDaemon(final Topology topology, final String hostName, final Options options,
        final TransportListener listener)
    {
        this.topology = topology;
        this.hostIndex = indexOf(topology, hostName);
        this.host = topology.hosts().get(hostIndex);
        this.options = options;
        this.listener = listener;
    }

    /**
     * Start a host on a thread of its own.
     *
     * @param topology  the fabric.
     * @param hostName  which host this is.
     * @param options   how to run it.
     * @param ioFactory opens the packet I/O on the host's thread.
     * @param listener  told of messages and finished flows, on the host's thread.
     * @return the running host.
     * @throws IOException if the namespace cannot be entered or the I/O cannot be opened.
     */
    public static HostDaemon start(
        final Topology topology,
        final String hostName,
        final Options options,
        final PacketIoFactory ioFactory,
        final TransportListener listener) throws IOException
    {
        final HostDaemon daemon = new HostDaemon(topology, hostName, options, listener);
        daemon.thread = dataPathThread(() -> daemon.runAlone(ioFactory), "hostd-" + hostName);
        daemon.thread.setDaemon(true);
        daemon.thread.start();
        daemon.awaitStart();
        return daemon;
    }

    /**
     * The thread that runs hosts' transports and their packet I/O: a Netty {@link FastThreadLocalThread}, on which
     * Netty's recycler keeps its per-thread batches ({@code io.netty.recycler.batchFastThreadLocalOnly}), so that
     * the UDP I/O's outbound entries are reused when written rather than allocated anew for most datagrams sent.
     */
    static Thread dataPathThread(final Runnable body, final String name)
    {
        return new FastThreadLocalThread(body, name);
    }

    /**
     * Start several hosts of a topology on one thread that serves them all: the thread enters each host's
     * namespace in turn to open its socket, then runs a step of every host's transport and waits once for all of
     * their sockets, their pacers and their timeouts. On a machine with few cores this spares a thread wake-up and a
     * context switch wherever one host's packet is another's work, and keeps the hosts from competing with the
     * switch's thread for the cores. Each host is closed on its own; the thread ends with the last.
     *
     * @param topology  the fabric.
     * @param hostNames the hosts, each with its own options.
     * @param options   how to run each host; central control is not served on a shared thread.
     * @param io        the hosts' packet I/O, {@code udp}, {@code udp-io_uring} or {@code raw} ({@link PacketIos}).
     * @param listeners each host's, told of its messages and finished flows, on the shared thread.
     * @return the running hosts, in the order named.
     * @throws IOException if a namespace cannot be entered or a socket cannot be opened (no host is left running).
     * @throws IllegalArgumentException if a host's options ask for central control, or the I/O cannot be shared.
     */
    public static List<HostDaemon> startShared(
        final Topology topology,
        final List<String> hostNames,
        final Function<String, Options> options,
        final String io,
        final Function<String, TransportListener> listeners) throws IOException
    {
        if (!PacketIos.groups(io))
        {
            throw new IllegalArgumentException("hosts on one thread need udp, udp-io_uring or raw, not '" + io + "'");
        }
        final List<HostDaemon> daemons = new ArrayList<>();
        for (final String name : hostNames)
        {
            final Options hostOptions = options.apply(name);
            if (null != hostOptions.control())
            {
                throw new IllegalArgumentException("host " + name + ": central control needs a thread per host");
            }
            daemons.add(new HostDaemon(topology, name, hostOptions, listeners.apply(name)));
        }
        if (daemons.isEmpty())
        {
            return daemons;
        }
        final Thread thread = dataPathThread(() -> runShared(daemons, io),
            "hostd-" + String.join(",", hostNames));
        thread.setDaemon(true);
        for (final HostDaemon daemon : daemons)
        {
            daemon.thread = thread;
        }
        thread.start();
        IOException failure = null;
        for (final HostDaemon daemon : daemons)
        {
            try
            {
                daemon.awaitStart();
            }
            catch (final IOException ex)
            {
                failure = null == failure ? ex : failure;
            }
        }
        if (null != failure)
        {
            daemons.forEach(HostDaemon::close);
            throw failure;
        }
        return daemons;
    }

    /**
     * Start several hosts of a topology, on one shared thread ({@link #startShared}) or on a thread each
     * ({@link #start}).
     *
     * @param topology     the fabric.
     * @param hostNames    the hosts.
     * @param options      how to run each host.
     * @param io           the hosts' packet I/O ({@link PacketIos}).
     * @param listeners    each host's listener.
     * @param sharedThread whether one thread serves them all.
     * @return the running hosts, in the order named.
     * @throws IOException if a host cannot start (none is left running).
     */
    public static List<HostDaemon> startAll(
        final Topology topology,
        final List<String> hostNames,
        final Function<String, Options> options,
        final String io,
        final Function<String, TransportListener> listeners,
        final boolean sharedThread) throws IOException
    {
        if (sharedThread)
        {
            return startShared(topology, hostNames, options, io, listeners);
        }
        final List<HostDaemon> daemons = new ArrayList<>();
        try
        {
            for (final String name : hostNames)
            {
                daemons.add(start(topology, name, options.apply(name), PacketIos.factory(io), listeners.apply(name)));
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            daemons.forEach(HostDaemon::close);
            throw ex;
        }
        return daemons;
    }

    private void awaitStart() throws IOException
    {
        try
        {
            started.get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        catch (final ExecutionException ex)
        {
            if (ex.getCause() instanceof IOException cause)
            {
                throw cause;
            }
            throw new IOException(ex.getCause().getMessage(), ex.getCause());
        }
        catch (final TimeoutException ex)
        {
            close();
            throw new IOException("host " + host.name() + " did not start in " + START_TIMEOUT_SECONDS + " s");
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            close();
            throw new IOException("interrupted while starting host " + host.name(), ex);
        }
    }

    private void runAlone(final PacketIoFactory ioFactory)
    {
        final DataPathPlacement placed = DataPathPlacement.placeHost();
        realtimeRefusal = DataPathScheduling.raiseCurrentThread(placed.apart());
        placement = placed.description(realtimeRefusal);
        if (!open(ioFactory))
        {
            return;
        }
        TimerSlack.setForCurrentThread(1);
        final long idleWaitNs = null == control && io.wakeable() ? WOKEN_IDLE_WAIT_NS : IDLE_WAIT_NS;
        try
        {
            while (running)
            {
                transport.runOnce(idleWaitNs);
            }
        }
        finally
        {
            closeOnThread();
        }
    }

    private static void runShared(final List<HostDaemon> daemons, final String io)
    {
        final PacketIoGroup group;
        try
        {
            group = PacketIos.group(io, daemons.size());
        }
        catch (final IOException | RuntimeException ex)
        {
            for (final HostDaemon daemon : daemons)
            {
                daemon.failStart(ex);
            }
            return;
        }
        final List<HostDaemon> serving = new ArrayList<>(daemons.size());
        try
        {
            for (final HostDaemon daemon : daemons)
            {
                if (daemon.open(group::open))
                {
                    group.deliver(daemon.io, daemon.transport);
                    serving.add(daemon);
                }
            }
            TimerSlack.setForCurrentThread(1);
            final DataPathPlacement placed = DataPathPlacement.placeHost();
            final String refusal = DataPathScheduling.raiseCurrentThread(placed.apart());
            for (final HostDaemon daemon : serving)
            {
                daemon.realtimeRefusal = refusal;
                daemon.placement = placed.description(refusal);
            }
            while (!serving.isEmpty())
            {
                long waitNs = IDLE_WAIT_NS;
                for (int i = 0, n = serving.size(); i < n; i++)
                {
                    waitNs = Math.min(waitNs, serving.get(i).transport.step());
                }
                if (0 == waitNs)
                {
                    group.poll();
                }
                else
                {
                    group.await(waitNs);
                }
                for (int i = serving.size() - 1; i >= 0; i--)
                {
                    if (!serving.get(i).running)
                    {
                        final HostDaemon daemon = serving.remove(i);
                        group.release(daemon.io);
                        daemon.closeOnThread();
                    }
                }
            }
        }
        finally
        {
            for (final HostDaemon daemon : serving)
            {
                group.release(daemon.io);
                daemon.closeOnThread();
            }
            group.close();
        }
    }

    /**
     * On the serving thread: enter the host's namespace, open its I/O and build its transport.
     *
     * @return false if that failed (the start is failed with the reason).
     */
    private boolean open(final PacketIoFactory ioFactory)
    {
        try
        {
            if (null != options.namespace())
            {
                NetworkNamespace.enterOnCurrentThread(options.namespace());
            }
            io = ioFactory.open(topology, hostIndex);
            io.claim();
            maxSegmentLength = io.maxPacketLength() - PfabricHeaderFlyweight.HEADER_LENGTH;
            final SystemNanoClock clock = new SystemNanoClock();
            transport = new HostTransport(fitted(options.configuration()), hostIndex, options.linkRateBitsPerSec(),
                HostTransport.PACING_LEAD_NS, options.wireOverheadLength(), io, clock, listener, options.keepPayload())
                .incarnation(incarnationNow())
                .trafficClasses(options.classes());
            if (null != options.control())
            {
                control = HostControl.open(options.control(), hostIndex, topology.hosts().size(),
                    options.linkRateBitsPerSec(), clock);
                transport.admission(control);
            }
        }
        catch (final IOException | PacketSocketException | RuntimeException ex)
        {
            if (null != io)
            {
                io.close();
            }
            failStart(ex);
            return false;
        }
        started.complete(transport);
        return true;
    }

    private void failStart(final Exception ex)
    {
        started.completeExceptionally(ex instanceof IOException ? ex : new IOException(ex.getMessage(), ex));
        stopped.complete(null);
    }

    private void closeOnThread()
    {
        try
        {
            transport.onClose();
            if (null != control)
            {
                control.close();
            }
            io.close();
        }
        finally
        {
            stopped.complete(null);
        }
    }

    private TransportConfiguration fitted(final TransportConfiguration configuration)
    {
        return configuration.segmentLength() > maxSegmentLength ?
            configuration.withSegmentLength(maxSegmentLength) : configuration;
    }

    private HostTransport transport()
    {
        return started.join();
    }

    /**
     * Send a message to another host; the future completes when its last byte is acknowledged.
     *
     * @param destination the receiving host's name.
     * @param payload     the message.
     * @return the flow's record, on completion.
     */
    public CompletableFuture<FlowRecord> send(final String destination, final byte[] payload)
    {
        return transport().send(destinationIndex(destination), payload);
    }

    /**
     * Send a message of a given size whose content does not matter.
     *
     * @param destination the receiving host's name.
     * @param sizeBytes   its size.
     * @return the flow's record, on completion.
     */
    public CompletableFuture<FlowRecord> send(final String destination, final long sizeBytes)
    {
        return transport().send(destinationIndex(destination), sizeBytes);
    }

    /**
     * Send a message to another host, its packets marked with a DSCP (a traffic class at switches that have classes).
     *
     * @param destination the receiving host's name.
     * @param payload     the message.
     * @param dscp        IPv4 DSCP of the flow's data packets, 0 to 63.
     * @return the flow's record, on completion.
     */
    public CompletableFuture<FlowRecord> send(final String destination, final byte[] payload, final int dscp)
    {
        return transport().send(destinationIndex(destination), payload, dscp);
    }

    /**
     * Send a message of a given size whose content does not matter, its packets marked with a DSCP.
     *
     * @param destination the receiving host's name.
     * @param sizeBytes   its size.
     * @param dscp        IPv4 DSCP of the flow's data packets, 0 to 63.
     * @return the flow's record, on completion.
     */
    public CompletableFuture<FlowRecord> send(final String destination, final long sizeBytes, final int dscp)
    {
        return transport().send(destinationIndex(destination), sizeBytes, dscp);
    }

    /**
     * Give up a flow its application no longer waits for ({@link HostTransport#abandon}): it stops sending and its
     * future fails, unless it has completed.
     *
     * @param flow what a {@code send} of this host returned.
     */
    public void abandon(final CompletableFuture<FlowRecord> flow)
    {
        if (!flow.isDone() && running)
        {
            transport().abandon(flow);
        }
    }

    /**
     * Send a message to another host with a DSCP and a deadline: the time it has to complete from now, which its
     * packets carry under the deadline priority policy (pFabric-EDF) and its record reports.
     *
     * @param destination the receiving host's name.
     * @param payload     the message.
     * @param dscp        IPv4 DSCP of the flow's data packets, 0 to 63.
     * @param deadlineNs  the time it has to complete from now; 0 for none.
     * @return the flow's record, on completion.
     */
    public CompletableFuture<FlowRecord> send(final String destination, final byte[] payload, final int dscp,
        final long deadlineNs)
    {
        return transport().send(destinationIndex(destination), payload, dscp, deadlineNs);
    }

    /**
     * Send a message of a given size whose content does not matter, with a DSCP and a deadline.
     *
     * @param destination the receiving host's name.
     * @param sizeBytes   its size.
     * @param dscp        IPv4 DSCP of the flow's data packets, 0 to 63.
     * @param deadlineNs  the time it has to complete from now; 0 for none.
     * @return the flow's record, on completion.
     */
    public CompletableFuture<FlowRecord> send(final String destination, final long sizeBytes, final int dscp,
        final long deadlineNs)
    {
        return transport().send(destinationIndex(destination), sizeBytes, dscp, deadlineNs);
    }

    /**
     * Set the time the deadlines in packets count from, which every host of a fabric must share (the start of a
     * workload run): see {@link io.pfabric.hostd.transport.HostTransport#deadlineEpochNs(long)}.
     *
     * @param epochNs a {@link System#nanoTime()} value.
     * @return false if the transport's command queue is full.
     */
    public boolean deadlineEpochNs(final long epochNs)
    {
        return transport().deadlineEpochNs(epochNs);
    }

    /**
     * Measure the base RTT to another host as the pFabric paper defines it, the completion time of a one-segment
     * flow (a full packet out, its ACK back) on the idle fabric: the smallest of the one-segment flows of
     * {@link #oneSegmentRttsNs}, but with the 1 MiB flow that compiles both hosts' data paths sent first, so that
     * the round trip measured is that of the code the flows will run. Measured before it, with the paths partly
     * interpreted and the other host's JVM still starting, a lone 1 Gb/s flow's base RTT came out anywhere from 91 to
     * 445 µs from one start to the next; the window it implies then overran the switch's buffer in a quarter of the
     * runs. After it, 60-138 µs in twenty-two starts of twenty-three and 241 µs in one (hostd's README).
     *
     * @param destination  the other host's name.
     * @param samples      flows measured, at least 1.
     * @param patienceNs   how long to wait for each.
     * @return nanoseconds.
     * @throws IOException if the other host does not answer in time (its hostd is not running, say).
     */
    public long measureBaseRttNs(final String destination, final int samples, final long patienceNs)
        throws IOException
    {
        long best = Long.MAX_VALUE;
        for (final long rttNs : oneSegmentRttsNs(destination, samples, patienceNs, true))
        {
            best = Math.min(best, rttNs);
        }
        return best;
    }

    /**
     * Time one-segment flows to another host (a full packet out, marked as {@link #isMeasurement} tells, and its ACK
     * back), one after another on the idle fabric. The first flow that completes only shows that the other host answers (it may have waited for it to
     * come up); then a few more warm the path up, and then the measured ones are sent.
     *
     * @param destination  the other host's name.
     * @param samples      flows measured, at least 1.
     * @param patienceNs   how long to wait for each.
     * @return each measured flow's completion time in nanoseconds, in the order sent, without the flows that took
     *         longer than the patience (so possibly fewer than asked for, never none).
     * @throws IOException if the other host does not answer in time (its hostd is not running, say).
     */
    public long[] oneSegmentRttsNs(final String destination, final int samples, final long patienceNs)
        throws IOException
    {
        return oneSegmentRttsNs(destination, samples, patienceNs, false);
    }

    private long[] oneSegmentRttsNs(
        final String destination, final int samples, final long patienceNs, final boolean bulkFirst)
        throws IOException
    {
        final int segmentLength = maxSegmentLength;
        if (Long.MAX_VALUE == timeOneSegment(destination, segmentLength, patienceNs))
        {
            throw new IOException("no reply from " + destination + ": cannot measure the base RTT (is its hostd " +
                "running?)");
        }
        if (bulkFirst)
        {
            warmUpBulk(destination, patienceNs);
        }
        for (int i = 0; i < WARM_UP_FLOWS; i++)
        {
            timeOneSegment(destination, segmentLength, patienceNs);
        }
        final long[] rttsNs = new long[samples];
        int answered = 0;
        for (int i = 0; i < samples; i++)
        {
            final long rttNs = timeOneSegment(destination, segmentLength, patienceNs);
            if (Long.MAX_VALUE != rttNs)
            {
                rttsNs[answered++] = rttNs;
            }
        }
        if (0 == answered)
        {
            throw new IOException("no reply from " + destination + " to " + samples + " measured flows");
        }
        if (!bulkFirst)
        {
            warmUpBulk(destination, patienceNs);
        }
        return Arrays.copyOf(rttsNs, answered);
    }

    /**
     * Whether a message received is one of the one-segment flows another host measures its base RTT with
     * ({@link #oneSegmentRttsNs}), which carry a mark so that a receiver need not hand them to its application.
     *
     * @param message the message.
     * @param length  its length.
     * @return true for a measurement flow.
     */
    public static boolean isMeasurement(final DirectBuffer message, final int length)
    {
        if (length < MEASUREMENT_MARK.length)
        {
            return false;
        }
        for (int i = 0; i < MEASUREMENT_MARK.length; i++)
        {
            if (message.getByte(i) != MEASUREMENT_MARK[i])
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether a message received, in the transport's chunks, is one of the one-segment flows another host measures
     * its base RTT with ({@link #oneSegmentRttsNs}).
     *
     * @param message the message.
     * @return true for a measurement flow.
     */
    public static boolean isMeasurement(final MessageChunks message)
    {
        if (message.length() < MEASUREMENT_MARK.length)
        {
            return false;
        }
        final byte[] first = message.chunk(0);
        for (int i = 0; i < MEASUREMENT_MARK.length; i++)
        {
            if (first[i] != MEASUREMENT_MARK[i])
            {
                return false;
            }
        }
        return true;
    }

    private static byte[] measurementPayload(final int segmentLength)
    {
        return Arrays.copyOf(MEASUREMENT_MARK, Math.max(segmentLength, MEASUREMENT_MARK.length));
    }

    /**
     * One flow of 1 MiB, marked as a measurement: it has both hosts' bulk data paths compiled before the first real
     * flow, which otherwise ran partly interpreted and, at 1 Gb/s, timed out 4-21 times in its first milliseconds
     * (hostd's README, "A lone flow"). {@link #measureBaseRttNs} sends it before the one-segment flows it measures;
     * {@link #oneSegmentRttsNs}, which the experiments and the transport benchmark time every path with and whose
     * recorded figures were taken so, after them.
     */
    private void warmUpBulk(final String destination, final long patienceNs) throws IOException
    {
        final long rateBitsPerSec = options.linkRateBitsPerSec();
        final long wireNs = rateBitsPerSec > 0 ? 2L * 8 * WARM_UP_BULK_BYTES * 1_000_000_000L / rateBitsPerSec : 0;
        timeFlow(destination, Arrays.copyOf(MEASUREMENT_MARK, WARM_UP_BULK_BYTES), patienceNs + wireNs);
    }

    private long timeOneSegment(final String destination, final int segmentLength, final long patienceNs)
        throws IOException
    {
        return timeFlow(destination, measurementPayload(segmentLength), patienceNs);
    }

    private long timeFlow(final String destination, final byte[] payload, final long patienceNs)
        throws IOException
    {
        if (!running)
        {
            throw new IOException("host " + host.name() + " was closed while measuring the RTT");
        }
        try
        {
            return send(destination, payload).get(patienceNs, TimeUnit.NANOSECONDS).fctNs();
        }
        catch (final TimeoutException | ExecutionException ex)
        {
            return Long.MAX_VALUE;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while measuring the base RTT", ex);
        }
    }

    /**
     * Use other settings for flows started from now on.
     *
     * @param configuration the settings.
     */
    public void reconfigure(final TransportConfiguration configuration)
    {
        while (!transport().reconfigure(fitted(configuration)))
        {
            Thread.onSpinWait();
        }
    }

    /**
     * The index of a host in the topology.
     *
     * @param name the host's name.
     * @return its index.
     * @throws IllegalArgumentException if there is no such host.
     */
    public int hostIndex(final String name)
    {
        return indexOf(topology, name);
    }

    private int destinationIndex(final String destination)
    {
        final int index = hostIndex(destination);
        if (index == hostIndex)
        {
            throw new IllegalArgumentException("cannot send from " + host.name() + " to itself");
        }
        return index;
    }

    private static int indexOf(final Topology topology, final String name)
    {
        final List<HostSpec> hosts = topology.hosts();
        for (int i = 0; i < hosts.size(); i++)
        {
            if (hosts.get(i).name().equals(name))
            {
                return i;
            }
        }
        throw new IllegalArgumentException("no host named '" + name + "' in the topology");
    }

    /**
     * The name of a host.
     *
     * @param index in the topology.
     * @return its name.
     */
    public String hostName(final int index)
    {
        return topology.hosts().get(index).name();
    }

    /**
     * This host.
     *
     * @return its spec.
     */
    public HostSpec host()
    {
        return host;
    }

    /**
     * The incarnation of this start of the host, in its flow ids: the wall clock's seconds modulo 2^16 when it started,
     * so that a host restarted a second or more later (a JVM takes longer than that to start) never reuses the flow
     * ids of its earlier start, which its peers may still remember.
     *
     * @return 0 to 65,535.
     */
    public int incarnation()
    {
        return transport().incarnation();
    }

    /**
     * What {@link #incarnation()} a host starting now gets.
     *
     * @return the wall clock's seconds modulo 2^16.
     */
    public static int incarnationNow()
    {
        return (int)(System.currentTimeMillis() / 1000 & 0xFFFF);
    }

    /**
     * The transport's counters (read from another thread: possibly stale).
     *
     * @return the counters.
     */
    public TransportCounters counters()
    {
        return transport().counters();
    }

    /**
     * Why the host's thread does not run real-time ({@link DataPathScheduling}), or null if it does. Set before the
     * host has started.
     *
     * @return the reason, or null.
     */
    public String realtimeRefusal()
    {
        return realtimeRefusal;
    }

    /**
     * Where the host's transport thread runs and at what weight ({@link DataPathPlacement}), once it has started.
     *
     * @return the description, or null before the thread started.
     */
    public String placement()
    {
        return placement;
    }

    /**
     * The host's control session (read from another thread: counters possibly stale).
     *
     * @return it, or null without central control.
     */
    public HostControl control()
    {
        return control;
    }

    /**
     * CPU time the thread serving this host has used (with the other hosts of a {@link #startShared} group).
     *
     * @return nanoseconds, or -1 if the JVM does not measure thread CPU time.
     */
    public long threadCpuNanos()
    {
        return ManagementFactory.getThreadMXBean().getThreadCpuTime(thread.threadId());
    }

    /**
     * The thread that serves this host, shared with the other hosts of a {@link #startShared} group.
     *
     * @return its id.
     */
    public long threadId()
    {
        return thread.threadId();
    }

    /**
     * Stop the transport's thread; flows still in flight are reported incomplete. Waits for the thread to finish.
     */
    public void close()
    {
        running = false;
        final PacketIo opened = io;
        if (null != opened)
        {
            opened.wakeup();
        }
        try
        {
            stopped.get(10, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        catch (final ExecutionException | TimeoutException | CompletionException ex)
        {
            thread.interrupt();
        }
    }
}
