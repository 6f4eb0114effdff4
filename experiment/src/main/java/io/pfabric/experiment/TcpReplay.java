package io.pfabric.experiment;

import io.pfabric.common.packet.NetworkNamespace;
import io.pfabric.common.packet.PacketSocketException;
import io.pfabric.hostd.transport.PiasThresholds;
import io.pfabric.hostd.workload.FctLogWriter;
import io.pfabric.hostd.workload.WorkloadTrace;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The kernel-TCP baseline for one host: replays the host's flows of a trace over kernel TCP and logs each flow's
 * completion time in the FCT log hostd writes (scheme {@code tcp}). Every host runs a server that reads each message
 * (an 8-byte length, then the bytes) and answers with one byte; a flow's FCT runs from its start time to that byte,
 * the kernel-TCP analogue of "last byte acknowledged". Connections to each other host are opened before the replay
 * and pooled, so handshakes stay out of the FCT; a flow that finds every pooled connection to its destination busy
 * opens one more (counted, its handshake in its FCT), as the ns-2 scripts do. The caller sets the kernel's TCP
 * settings (congestion control, minimum RTO) in the host's namespace. {@link #start}, {@link #connect} and
 * {@link #replay} move the calling thread into the host's namespace: call them from a thread of the host's own.
 * <p>
 * Given PIAS's thresholds, the sender is a PIAS host on kernel TCP (scheme {@code pias}): each flow starts with the
 * socket's DSCP at 0 and, as the bytes it has written cross each threshold, sets the socket's IP_TOS to the next
 * DSCP ({@link PiasThresholds#dscpOf}) before writing on, so the kernel tags the segments it sends from then on. The
 * kernel sends what it has buffered under the TOS of the moment it transmits, so at each crossing the sender first
 * waits until the kernel has sent every byte written so far ({@link SocketSendQueue}; the bytes in flight keep the
 * link busy meanwhile), and a byte leaves with the DSCP of the bytes written before it, as PIAS's own kernel module
 * tags it; a retransmission leaves with the socket's DSCP of the moment. ACKs leave the receiver's socket with
 * DSCP 0.
 */
public final class TcpReplay implements AutoCloseable
{
    /**
     * The baseline's TCP port.
     */
    public static final int PORT = 7254;

    private static final long STOP_CHECK_NS = 10_000_000L;

    private static final int CHUNK_LENGTH = 64 * 1024;
    private static final long CONNECT_PATIENCE_NS = TimeUnit.SECONDS.toNanos(30);

    private final String namespace;
    private final List<InetAddress> hosts;
    private final int self;
    private final PiasThresholds pias;
    private final long[] piasThresholdsBytes;
    private final String scheme;
    private final ServerSocket server;
    private final ExecutorService threads = Executors.newCachedThreadPool(runnable ->
    {
        final Thread thread = new Thread(runnable, "tcp-replay");
        thread.setDaemon(true);
        return thread;
    });
    private final Map<Integer, ConcurrentLinkedDeque<Socket>> idle = new ConcurrentHashMap<>();
    private final AtomicInteger extraConnections = new AtomicInteger();
    private final AtomicInteger completedFlows = new AtomicInteger();
    private final AtomicInteger startedFlows = new AtomicInteger();
    private final List<Socket> accepted = new ArrayList<>();
    private volatile boolean closed;
    private volatile boolean stopping;

    private TcpReplay(final String namespace, final List<InetAddress> hosts, final int self,
        final PiasThresholds pias, final ServerSocket server)
    {
        this.namespace = namespace;
        this.hosts = hosts;
        this.self = self;
        this.pias = pias;
        this.piasThresholdsBytes = null == pias ? null : pias.thresholdsBytes();
        this.scheme = null == pias ? "tcp" : "pias";
        this.server = server;
    }

    /**
     * Start the host's server (in its namespace, if given).
     *
     * @param namespace network namespace of the host, or null.
     * @param hosts     every host's address by index.
     * @param self      this host's index.
     * @return the replay, serving.
     * @throws IOException if the port cannot be bound or the namespace entered.
     */
    public static TcpReplay start(final String namespace, final List<InetAddress> hosts, final int self)
        throws IOException
    {
        return start(namespace, hosts, self, null);
    }

    /**
     * Start the host's server (in its namespace, if given), its flows tagged as a PIAS host tags them.
     *
     * @param namespace network namespace of the host, or null.
     * @param hosts     every host's address by index.
     * @param self      this host's index.
     * @param pias      PIAS's thresholds, or null for untagged flows (scheme {@code tcp}).
     * @return the replay, serving.
     * @throws IOException if the port cannot be bound or the namespace entered.
     */
    public static TcpReplay start(final String namespace, final List<InetAddress> hosts, final int self,
        final PiasThresholds pias) throws IOException
    {
        enter(namespace);
        final ServerSocket server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(hosts.get(self), PORT));
        final TcpReplay replay = new TcpReplay(namespace, hosts, self, pias, server);
        replay.threads.execute(replay::accept);
        return replay;
    }

    private static void enter(final String namespace) throws IOException
    {
        if (null == namespace)
        {
            return;
        }
        try
        {
            NetworkNamespace.enterOnCurrentThread(namespace);
        }
        catch (final PacketSocketException ex)
        {
            throw new IOException(ex.getMessage(), ex);
        }
    }

    private void accept()
    {
        try
        {
            while (!closed)
            {
                final Socket socket = server.accept();
                socket.setTcpNoDelay(true);
                synchronized (accepted)
                {
                    accepted.add(socket);
                }
                threads.execute(() -> serve(socket));
            }
        }
        catch (final IOException ex)
        {
            // The server was closed.
        }
    }

    private static void serve(final Socket socket)
    {
        final byte[] chunk = new byte[CHUNK_LENGTH];
        try (socket; DataInputStream in = new DataInputStream(socket.getInputStream());
            OutputStream out = socket.getOutputStream())
        {
            while (true)
            {
                long remaining = in.readLong();
                while (remaining > 0)
                {
                    final int read = in.read(chunk, 0, (int)Math.min(chunk.length, remaining));
                    if (read < 0)
                    {
                        return;
                    }
                    remaining -= read;
                }
                out.write(1);
                out.flush();
            }
        }
        catch (final IOException ex)
        {
            // The sender went away.
        }
    }

    /**
     * Open the pooled connections to every other host, waiting (up to 30 s) for their servers.
     *
     * @param perDestination connections to open to each.
     * @throws IOException if some host never accepts.
     */
    public void connect(final int perDestination) throws IOException
    {
        enter(namespace);
        for (int host = 0; host < hosts.size(); host++)
        {
            if (host == self)
            {
                continue;
            }
            final ConcurrentLinkedDeque<Socket> pool = idle.computeIfAbsent(host, h -> new ConcurrentLinkedDeque<>());
            for (int i = 0; i < perDestination; i++)
            {
                pool.add(open(host, CONNECT_PATIENCE_NS));
            }
        }
    }

    private Socket open(final int host, final long patienceNs) throws IOException
    {
        final long deadline = System.nanoTime() + patienceNs;
        while (true)
        {
            final Socket socket = null == pias ? new Socket() : SocketChannel.open().socket();
            try
            {
                socket.setTcpNoDelay(true);
                socket.connect(new InetSocketAddress(hosts.get(host), PORT), 1_000);
                return socket;
            }
            catch (final IOException ex)
            {
                socket.close();
                if (System.nanoTime() - deadline > 0)
                {
                    throw new IOException("no TCP server on " + hosts.get(host) + ":" + PORT + ": " + ex.getMessage(),
                        ex);
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            }
        }
    }

    /**
     * Replay this host's flows of a trace, from now, and log them.
     * <p>
     * The trace's time 0 is now.
     *
     * @param trace     the whole trace; only this host's flows are sent.
     * @param hostNames names by index, for the log.
     * @param log       the FCT log.
     * @param graceNs   how long to wait for flows still running after the last start.
     * @return flows of this host that completed.
     * @throws IOException if the log cannot be written.
     */
    public int replay(final List<WorkloadTrace.FlowSpec> trace, final List<String> hostNames, final FctLogWriter log,
        final long graceNs) throws IOException
    {
        return replay(trace, hostNames, log, graceNs, System.nanoTime());
    }

    /**
     * Replay this host's flows of a trace with the trace's time 0 at a given moment, and log them.
     *
     * @param trace     the whole trace; only this host's flows are sent.
     * @param hostNames names by index, for the log.
     * @param log       the FCT log.
     * @param graceNs   how long to wait for flows still running after the last start.
     * @param originNs  the {@link System#nanoTime()} of the trace's time 0, the same for every host of one run.
     * @return flows of this host that completed.
     * @throws IOException if the log cannot be written.
     */
    public int replay(final List<WorkloadTrace.FlowSpec> trace, final List<String> hostNames, final FctLogWriter log,
        final long graceNs, final long originNs) throws IOException
    {
        enter(namespace);
        final List<WorkloadTrace.FlowSpec> mine = trace.stream().filter(f -> f.sourceHost() == self).toList();
        final List<Future<long[]>> running = new ArrayList<>();
        for (final WorkloadTrace.FlowSpec flow : mine)
        {
            final long dueNs = originNs + flow.startNs();
            long waitNs;
            while ((waitNs = dueNs - System.nanoTime()) > 0 && !stopping)
            {
                LockSupport.parkNanos(Math.min(waitNs, STOP_CHECK_NS));
            }
            if (stopping)
            {
                break;
            }
            startedFlows.incrementAndGet();
            running.add(threads.submit(() -> send(flow, System.nanoTime())));
        }
        int completed = 0;
        final long deadline = System.nanoTime() + graceNs;
        for (int i = 0; i < running.size(); i++)
        {
            final WorkloadTrace.FlowSpec flow = mine.get(i);
            long startNs = originNs + flow.startNs();
            long endNs = -1;
            try
            {
                final long[] times = running.get(i).get(
                    stopping ? 1 : Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                startNs = times[0];
                endNs = times[1];
            }
            catch (final TimeoutException | ExecutionException ex)
            {
                running.get(i).cancel(true);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            completed += endNs >= 0 ? 1 : 0;
            log.append(flow.flowIndex(), hostNames.get(self), hostNames.get(flow.destinationHost()), flow.sizeBytes(),
                startNs, endNs, 0, 0, scheme, flow.dscp(), flow.deadlineNs());
        }
        log.flush();
        return completed;
    }

    private long[] send(final WorkloadTrace.FlowSpec flow, final long startNs) throws IOException
    {
        final ConcurrentLinkedDeque<Socket> pool =
            idle.computeIfAbsent(flow.destinationHost(), h -> new ConcurrentLinkedDeque<>());
        Socket socket = pool.pollFirst();
        if (null == socket)
        {
            extraConnections.incrementAndGet();
            socket = open(flow.destinationHost(), CONNECT_PATIENCE_NS);
        }
        final byte[] zeros = new byte[(int)Math.min(CHUNK_LENGTH, flow.sizeBytes())];
        final DataOutputStream out = new DataOutputStream(socket.getOutputStream());
        final InputStream in = socket.getInputStream();
        int dscp = 0;
        final SocketSendQueue queue = null == pias ? null : SocketSendQueue.of(socket);
        if (null != pias)
        {
            socket.setTrafficClass(0);
        }
        out.writeLong(flow.sizeBytes());
        long written = 0;
        while (written < flow.sizeBytes())
        {
            long length = Math.min(zeros.length, flow.sizeBytes() - written);
            if (null != pias)
            {
                final int next = pias.dscpOf(written);
                if (next != dscp)
                {
                    queue.awaitSent();
                    dscp = next;
                    socket.setTrafficClass(dscp << 2);
                }
                length = Math.min(length, bytesToNextThreshold(written));
            }
            out.write(zeros, 0, (int)length);
            written += length;
        }
        out.flush();
        if (in.read() < 0)
        {
            throw new IOException("the receiver closed the connection");
        }
        final long endNs = System.nanoTime();
        pool.addFirst(socket);
        completedFlows.incrementAndGet();
        return new long[]{ startNs, endNs };
    }

    /**
     * Bytes from an offset to the first offset PIAS tags with another DSCP.
     */
    private long bytesToNextThreshold(final long offset)
    {
        final int dscp = pias.dscpOf(offset);
        return dscp < pias.priorities() - 1 ? piasThresholdsBytes[dscp] + 1 - offset : Long.MAX_VALUE;
    }

    /**
     * Ask {@link #replay} to start no more flows and to log the ones started without waiting for them: those still
     * running are logged as incomplete, flows not yet started are not logged. From any thread.
     */
    public void stop()
    {
        stopping = true;
    }

    /**
     * Flows of this host completed so far, for progress reports from another thread.
     *
     * @return the count.
     */
    public int completedFlows()
    {
        return completedFlows.get();
    }

    /**
     * Flows of this host started so far, for progress reports from another thread.
     *
     * @return the count.
     */
    public int startedFlows()
    {
        return startedFlows.get();
    }

    /**
     * Connections opened during the replay because every pooled one to the destination was busy.
     *
     * @return the count.
     */
    public int extraConnections()
    {
        return extraConnections.get();
    }

    /**
     * Close every connection and the server.
     */
    public void close()
    {
        closed = true;
        try
        {
            server.close();
        }
        catch (final IOException ex)
        {
            // Closing anyway.
        }
        for (final ConcurrentLinkedDeque<Socket> pool : idle.values())
        {
            pool.forEach(TcpReplay::closeQuietly);
        }
        synchronized (accepted)
        {
            accepted.forEach(TcpReplay::closeQuietly);
        }
        threads.shutdownNow();
    }

    private static void closeQuietly(final Socket socket)
    {
        try
        {
            socket.close();
        }
        catch (final IOException ex)
        {
            // Closing anyway.
        }
    }

    /**
     * A one-line description of the kernel TCP settings, for the results.
     *
     * @param congestionControl the algorithm.
     * @param rtoMinUs          the minimum RTO.
     * @param pool              pooled connections per destination.
     * @return the text.
     */
    public static String settings(final String congestionControl, final long rtoMinUs, final int pool)
    {
        return String.format(Locale.ROOT, "kernel TCP %s, tcp_rto_min_us=%d, %d pooled connections per destination, " +
            "TCP_NODELAY", congestionControl, rtoMinUs, pool);
    }
}
