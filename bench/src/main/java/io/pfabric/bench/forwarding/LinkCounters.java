package io.pfabric.bench.forwarding;

import io.pfabric.common.packet.NetworkNamespace;
import io.pfabric.common.packet.PacketSocketException;
import io.pfabric.dataplane.pacer.EgressPacer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The kernel's packet and byte counters of an interface in a network namespace, read from
 * {@code /proc/thread-self/net/dev} by a short-lived thread that enters the namespace: no process is started, so the
 * reading disturbs the measured forwarder as little as possible. Its time stamp is the middle of the read: of the
 * shortest of up to {@value #READ_ATTEMPTS} reads, the first taking at most {@value #TIGHT_READ_NS} ns, so that a
 * reading thread preempted between the kernel's snapshot and its clock (for a scheduler slice, several milliseconds,
 * while the flood keeps both cores busy) does not shift a rate by that much.
 *
 * @param packets frames counted.
 * @param bytes   their bytes, Ethernet header included, FCS not.
 * @param nanos   {@link System#nanoTime()} in the middle of the read.
 */
record LinkCounters(long packets, long bytes, long nanos)
{
    private static final Path NET_DEV = Path.of("/proc/thread-self/net/dev");
    private static final int RECEIVE_BYTES_COLUMN = 0;
    private static final int RECEIVE_PACKETS_COLUMN = 1;
    private static final int TRANSMIT_BYTES_COLUMN = 8;
    private static final int TRANSMIT_PACKETS_COLUMN = 9;
    private static final int READ_ATTEMPTS = 5;
    private static final long TIGHT_READ_NS = 200_000;

    /**
     * Read the receive counters of an interface.
     *
     * @param namespace     where the interface is.
     * @param interfaceName the interface.
     * @return its counters now.
     * @throws IOException if they cannot be read.
     */
    static LinkCounters received(final String namespace, final String interfaceName) throws IOException
    {
        return read(namespace, interfaceName, RECEIVE_PACKETS_COLUMN, RECEIVE_BYTES_COLUMN);
    }

    /**
     * Read the transmit counters of an interface.
     *
     * @param namespace     where the interface is.
     * @param interfaceName the interface.
     * @return its counters now.
     * @throws IOException if they cannot be read.
     */
    static LinkCounters transmitted(final String namespace, final String interfaceName) throws IOException
    {
        return read(namespace, interfaceName, TRANSMIT_PACKETS_COLUMN, TRANSMIT_BYTES_COLUMN);
    }

    /**
     * Read the transmit counters of one interface and right after, on the same thread, the receive counters of
     * another, so that both cover nearly the same instant.
     *
     * @param senderNamespace     where the sending interface is.
     * @param senderInterface     the sending interface.
     * @param receiverNamespace   where the receiving interface is.
     * @param receiverInterface   the receiving interface.
     * @return the transmit counters, then the receive counters.
     * @throws IOException if they cannot be read.
     */
    static LinkCounters[] transmittedAndReceived(
        final String senderNamespace, final String senderInterface, final String receiverNamespace,
        final String receiverInterface) throws IOException
    {
        try
        {
            return CompletableFuture.supplyAsync(() ->
            {
                try
                {
                    NetworkNamespace.enterOnCurrentThread(senderNamespace);
                    final TimedText sent = readNetDev();
                    NetworkNamespace.enterOnCurrentThread(receiverNamespace);
                    final TimedText received = readNetDev();
                    return new LinkCounters[] {
                        parse(sent.text(), senderInterface, TRANSMIT_PACKETS_COLUMN, TRANSMIT_BYTES_COLUMN,
                            sent.nanos()),
                        parse(received.text(), receiverInterface, RECEIVE_PACKETS_COLUMN, RECEIVE_BYTES_COLUMN,
                            received.nanos()) };
                }
                catch (final IOException | PacketSocketException ex)
                {
                    throw new CompletionException(new IOException("cannot read the counters of " + senderInterface +
                        " in " + senderNamespace + " and " + receiverInterface + " in " + receiverNamespace + ": " +
                        ex.getMessage(), ex));
                }
            }, runnable -> new Thread(runnable, "pfabric-counters").start()).join();
        }
        catch (final CompletionException ex)
        {
            if (ex.getCause() instanceof IOException cause)
            {
                throw cause;
            }
            throw ex;
        }
    }

    private static LinkCounters read(
        final String namespace, final String interfaceName, final int packetsColumn, final int bytesColumn)
        throws IOException
    {
        try
        {
            return CompletableFuture.supplyAsync(() ->
            {
                try
                {
                    NetworkNamespace.enterOnCurrentThread(namespace);
                    final TimedText read = readNetDev();
                    return parse(read.text(), interfaceName, packetsColumn, bytesColumn, read.nanos());
                }
                catch (final IOException | PacketSocketException ex)
                {
                    throw new CompletionException(new IOException(
                        "cannot read the counters of " + interfaceName + " in " + namespace + ": " + ex.getMessage(),
                        ex));
                }
            }, runnable -> new Thread(runnable, "pfabric-counters").start()).join();
        }
        catch (final CompletionException ex)
        {
            if (ex.getCause() instanceof IOException cause)
            {
                throw cause;
            }
            throw ex;
        }
    }

    private record TimedText(String text, long nanos)
    {
    }

    /**
     * The calling thread's namespace's {@code /proc/net/dev}, time-stamped in the middle of the shortest of up to
     * {@link #READ_ATTEMPTS} reads, the first of at most {@link #TIGHT_READ_NS}.
     */
    private static TimedText readNetDev() throws IOException
    {
        String best = null;
        long bestStartNs = 0;
        long bestSpanNs = Long.MAX_VALUE;
        for (int attempt = 0; attempt < READ_ATTEMPTS && bestSpanNs > TIGHT_READ_NS; attempt++)
        {
            final long startNs = System.nanoTime();
            final String text = Files.readString(NET_DEV);
            final long spanNs = System.nanoTime() - startNs;
            if (spanNs < bestSpanNs)
            {
                best = text;
                bestStartNs = startNs;
                bestSpanNs = spanNs;
            }
        }
        return new TimedText(best, bestStartNs + bestSpanNs / 2);
    }

    /**
     * Find an interface's counters in the text of {@code /proc/net/dev}.
     *
     * @param text          the file's content.
     * @param interfaceName the interface.
     * @param packetsColumn column of the packet count after the interface name, from 0.
     * @param bytesColumn   column of the byte count.
     * @param nanos         time stamp of the read.
     * @return the counters.
     * @throws IOException if the interface is not listed.
     */
    static LinkCounters parse(
        final String text, final String interfaceName, final int packetsColumn, final int bytesColumn,
        final long nanos) throws IOException
    {
        for (final String line : text.split("\n"))
        {
            final int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equals(interfaceName))
            {
                final String[] columns = line.substring(colon + 1).trim().split("\\s+");
                return new LinkCounters(
                    Long.parseLong(columns[packetsColumn]), Long.parseLong(columns[bytesColumn]), nanos);
            }
        }
        throw new IOException("no interface " + interfaceName + " in /proc/net/dev");
    }

    /**
     * Packets per second between an earlier reading and this one.
     *
     * @param earlier reading.
     * @return the rate.
     */
    double packetsPerSecSince(final LinkCounters earlier)
    {
        return (packets - earlier.packets) * 1e9 / (nanos - earlier.nanos);
    }

    /**
     * The rate on an Ethernet wire between an earlier reading and this one: each frame plus 24 bytes of FCS, preamble
     * and inter-frame gap, as the egress pacer counts it.
     *
     * @param earlier reading.
     * @return bits per second.
     */
    double wireBitsPerSecSince(final LinkCounters earlier)
    {
        final long wireBytes =
            bytes - earlier.bytes + (long)EgressPacer.WIRE_OVERHEAD_LENGTH * (packets - earlier.packets);
        return wireBytes * 8e9 / (nanos - earlier.nanos);
    }
}
