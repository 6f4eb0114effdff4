package io.pfabric.bench.forwarding;

import io.pfabric.common.os.Commands;
import io.pfabric.common.packet.DataPathPlacement;
import io.pfabric.common.packet.NetworkNamespace;
import io.pfabric.common.packet.PacketSocketException;
import io.pfabric.common.packet.XdpLiveFrames;
import io.pfabric.dataplane.pacer.EgressPacer;

import java.io.IOException;
import java.util.BitSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The kernel's XDP live-frames generator ({@link XdpLiveFrames}) sending one UDP frame over and over from a host's
 * interface, from a thread of this process pinned to CPU 0 as trafgen is: no socket buffer, no system call per
 * frame, so its ceiling is several times trafgen's and the switch, not the generator, is what a flood measures. The
 * frames enter the switch's end of the veth through its XDP receive ring, which exists only while that end has an XDP
 * program or GRO on: the generator turns GRO on there while it runs, and off again when it stops.
 */
final class XdpGenerator implements AutoCloseable
{
    /**
     * Repetitions per run of the program, a few hundred milliseconds' worth: each run starts with a few hundred
     * microseconds of set-up in which nothing is sent, and {@link #close()} waits for the run in progress.
     */
    private static final int FRAMES_PER_CALL = 1 << 20;
    private static final int PACED_FRAMES_PER_CALL = 1 << 22;
    private static final long START_TIMEOUT_MS = 10_000;
    private static final long STOP_TIMEOUT_MS = 10_000;

    private final Thread thread;
    private final String peerNamespace;
    private final String peerInterface;
    private volatile boolean running = true;
    private volatile String failure;

    private XdpGenerator(final String namespace, final String interfaceName, final byte[] frame,
        final long offeredBps, final String peerNamespace, final String peerInterface,
        final CompletableFuture<Void> started)
    {
        this.peerNamespace = peerNamespace;
        this.peerInterface = peerInterface;
        thread = new Thread(() -> send(namespace, interfaceName, frame, offeredBps, started),
            "pfabric-xdp-generator");
        thread.setDaemon(true);
    }

    /**
     * Start sending.
     *
     * @param namespace     of the sending host.
     * @param interfaceName to send from.
     * @param frame         what to send.
     * @param offeredBps    the rate to send at, frames counted with 24 bytes of FCS, preamble and gap (paced by the
     *                      program, {@link XdpLiveFrames}); 0 for as fast as the kernel takes them.
     * @param peerNamespace where the other end of the veth is.
     * @param peerInterface the other end of the veth.
     * @return the running generator.
     * @throws IOException if GRO cannot be turned on, or the kernel refuses the program or the first frames.
     */
    static XdpGenerator start(final String namespace, final String interfaceName, final Trafgen.UdpFrame frame,
        final long offeredBps, final String peerNamespace, final String peerInterface) throws IOException
    {
        final CompletableFuture<Void> started = new CompletableFuture<>();
        final XdpGenerator generator = new XdpGenerator(namespace, interfaceName, frame.bytes(), offeredBps,
            peerNamespace, peerInterface, started);
        generator.gro("on");
        generator.thread.start();
        try
        {
            started.get(START_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            return generator;
        }
        catch (final ExecutionException ex)
        {
            throw generator.stopAfter(new IOException("the XDP generator: " + ex.getCause().getMessage() +
                " (--generator trafgen sends from a packet socket instead)", ex.getCause()));
        }
        catch (final TimeoutException ex)
        {
            throw generator.stopAfter(
                new IOException("the XDP generator sent nothing within " + START_TIMEOUT_MS + " ms", ex));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw generator.stopAfter(new IOException("interrupted while starting the XDP generator", ex));
        }
    }

    private void send(final String namespace, final String interfaceName, final byte[] frame,
        final long offeredBps, final CompletableFuture<Void> started)
    {
        final long intervalNs = 0 == offeredBps ? 0 :
            Math.max(1, Math.round((frame.length + EgressPacer.WIRE_OVERHEAD_LENGTH) * 8 * 1e9 / offeredBps));
        try
        {
            NetworkNamespace.enterOnCurrentThread(namespace);
            final BitSet cpu0 = new BitSet();
            cpu0.set(0);
            if (!DataPathPlacement.pin(cpu0))
            {
                throw new PacketSocketException("could not pin the generator's thread to CPU 0");
            }
            try (XdpLiveFrames frames = XdpLiveFrames.open(interfaceName, frame, intervalNs))
            {
                boolean first = true;
                while (running)
                {
                    frames.send(0 == intervalNs ? FRAMES_PER_CALL : PACED_FRAMES_PER_CALL);
                    if (first)
                    {
                        first = false;
                        started.complete(null);
                    }
                }
            }
        }
        catch (final PacketSocketException | RuntimeException ex)
        {
            failure = ex.getMessage();
            started.completeExceptionally(ex);
        }
    }

    /**
     * Why the generator stopped before it was closed, if it did.
     *
     * @return the reason, or null while it runs.
     */
    String failure()
    {
        return failure;
    }

    private IOException stopAfter(final IOException error)
    {
        try
        {
            close();
        }
        catch (final IOException ex)
        {
            error.addSuppressed(ex);
        }
        return error;
    }

    private void gro(final String onOrOff) throws IOException
    {
        Commands.inNamespace(peerNamespace, "ethtool", "-K", peerInterface, "gro", onOrOff);
    }

    /**
     * Stop sending, wait for the last call to return, and turn GRO off again at the peer.
     *
     * @throws IOException if ethtool fails.
     */
    public void close() throws IOException
    {
        running = false;
        try
        {
            thread.join(STOP_TIMEOUT_MS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        gro("off");
    }
}
