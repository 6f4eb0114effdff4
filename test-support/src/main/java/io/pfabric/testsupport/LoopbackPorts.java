package io.pfabric.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * Ports on the loopback address that were free when asked: the kernel picks one for a socket bound to port 0, which is
 * closed before the port is returned. Another process may take the port before the test binds it; the kernel hands
 * out ports in turn, so that is rare.
 */
public final class LoopbackPorts
{
    private LoopbackPorts()
    {
    }

    /**
     * One port.
     *
     * @return a port free on the loopback address when asked.
     */
    public static int free()
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("no free loopback port", ex);
        }
    }

    /**
     * Hosts' addresses for a topology whose hosts all run on the loopback address, each on a port of its own.
     *
     * @param count how many.
     * @return the addresses, by host index.
     */
    public static List<InetSocketAddress> hosts(final int count)
    {
        final List<InetSocketAddress> hosts = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            hosts.add(new InetSocketAddress(InetAddress.getLoopbackAddress(), free()));
        }
        return List.copyOf(hosts);
    }
}
