package io.pfabric.bench.forwarding;

import io.pfabric.common.os.Commands;
import io.pfabric.common.packet.NetworkNamespace;
import io.pfabric.common.packet.PacketSocketException;
import io.pfabric.common.packet.XdpDrop;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A sink that drops every frame at a veth interface's ingress with a BPF program ({@link XdpDrop}): a tc (tcx)
 * ingress program, which frees the socket buffer before IP sees it, or an XDP program in native mode, which runs
 * earlier but on a veth first copies the frame into a page with XDP's headroom. The interface's receive count ({@code /proc/net/dev}, read in-process by {@link LinkCounters}) is the measurement: a veth
 * with an XDP program counts there each frame the program saw, so with a program that drops everything it equals the
 * interface's count of XDP drops ({@code ethtool -S}, {@code rx_queue_N_xdp_drops}), which {@link #drops()} reads
 * to check. The drop count itself is read by running ethtool, whose start-up time would skew a rate. Whatever forwards into the interface then pays only for handing the frame over, not for the receiving
 * host's route lookups, socket lookups and ICMP replies, which a veth runs on the sender's CPU.
 */
final class IngressDrop implements AutoCloseable
{
    private static final Pattern XDP_DROPS = Pattern.compile("rx_queue_\\d+_xdp_drops:\\s*(\\d+)");

    private final String namespace;
    private final String interfaceName;
    private final XdpDrop program;
    private final boolean xdp;

    private IngressDrop(final String namespace, final String interfaceName, final XdpDrop program, final boolean xdp)
    {
        this.xdp = xdp;
        this.namespace = namespace;
        this.interfaceName = interfaceName;
        this.program = program;
    }

    /**
     * Start dropping every frame arriving on an interface.
     *
     * @param namespace     where the interface is.
     * @param interfaceName the interface.
     * @return the sink; close it to detach the program.
     * @throws IOException if the program cannot be attached.
     */
    static IngressDrop install(final String namespace, final String interfaceName, final boolean xdp)
        throws IOException
    {
        try
        {
            final XdpDrop program = CompletableFuture.supplyAsync(() ->
            {
                try
                {
                    NetworkNamespace.enterOnCurrentThread(namespace);
                    return xdp ? XdpDrop.attach(interfaceName) : XdpDrop.attachTc(interfaceName);
                }
                catch (final PacketSocketException ex)
                {
                    throw new CompletionException(new IOException("the drop sink: " + ex.getMessage() +
                        " (the host sink counts at the receiving host instead and needs no XDP)", ex));
                }
            }, runnable -> new Thread(runnable, "pfabric-xdp-attach").start()).join();
            return new IngressDrop(namespace, interfaceName, program, xdp);
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

    /**
     * Frames received so far, every one of them dropped by the program.
     *
     * @return the interface's receive counters now.
     * @throws IOException if they cannot be read.
     */
    LinkCounters read() throws IOException
    {
        return LinkCounters.received(namespace, interfaceName);
    }

    /**
     * Whether the program is XDP's, whose drops the interface counts ({@link #drops()}).
     *
     * @return true for XDP, false for tc.
     */
    boolean countsDrops()
    {
        return xdp;
    }

    /**
     * Frames the XDP program dropped so far, as the interface counts them.
     *
     * @return the count.
     * @throws IOException if ethtool fails or prints no count.
     */
    long drops() throws IOException
    {
        return xdpDrops(Commands.inNamespace(namespace, "ethtool", "-S", interfaceName));
    }

    /**
     * The XDP drops of every receive queue in what {@code ethtool -S} prints for a veth.
     *
     * @param text the statistics.
     * @return their sum.
     * @throws IOException if the text has no such count.
     */
    static long xdpDrops(final String text) throws IOException
    {
        final Matcher matcher = XDP_DROPS.matcher(text);
        long sum = 0;
        boolean found = false;
        while (matcher.find())
        {
            sum += Long.parseLong(matcher.group(1));
            found = true;
        }
        if (!found)
        {
            throw new IOException("no rx_queue_N_xdp_drops in the interface's statistics: " + text.trim());
        }
        return sum;
    }

    /**
     * Detach the program; the interface delivers to its host again.
     */
    public void close()
    {
        program.close();
    }
}
