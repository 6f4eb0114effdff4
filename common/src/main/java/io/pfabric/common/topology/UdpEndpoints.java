package io.pfabric.common.topology;

import java.util.Objects;

/**
 * The two ends of a VXLAN-over-UDP port: the local address the switch binds, the remote address it sends to, and
 * the VXLAN network identifier on the tunnel. Hosts are IPv4 addresses, IPv6 addresses or host names, written
 * {@code host:port} (IPv6 as {@code [::1]:4790}).
 *
 * @param localHost  address or name the port binds.
 * @param localPort  UDP port it binds, 1 to 65535.
 * @param remoteHost address or name of the peer.
 * @param remotePort UDP port of the peer, 1 to 65535.
 * @param vni        VXLAN network identifier, 0 to 2<sup>24</sup>-1.
 */
public record UdpEndpoints(String localHost, int localPort, String remoteHost, int remotePort, int vni)
{
    /**
     * Largest VXLAN network identifier.
     */
    public static final int MAX_VNI = 0xFF_FFFF;

    private static final int MAX_UDP_PORT = 0xFFFF;

    /**
     * Check the addresses, ports and VNI.
     *
     * @param localHost  address or name the port binds.
     * @param localPort  UDP port it binds, 1 to 65535.
     * @param remoteHost address or name of the peer.
     * @param remotePort UDP port of the peer, 1 to 65535.
     * @param vni        VXLAN network identifier, 0 to 2<sup>24</sup>-1.
     */
    public UdpEndpoints
    {
        try
        {
            requireEndpoint(join(localHost, localPort));
        }
        catch (final IllegalArgumentException ex)
        {
            throw Names.about("local", ex);
        }
        try
        {
            requireEndpoint(join(remoteHost, remotePort));
        }
        catch (final IllegalArgumentException ex)
        {
            throw Names.about("remote", ex);
        }
        try
        {
            requireVni(vni);
        }
        catch (final IllegalArgumentException ex)
        {
            throw Names.about("vni", ex);
        }
    }

    /**
     * Endpoints from their {@code host:port} text.
     *
     * @param local  such as {@code 127.0.0.1:4790}.
     * @param remote such as {@code 127.0.0.1:4791}.
     * @param vni    VXLAN network identifier, 0 to 2<sup>24</sup>-1.
     * @return the endpoints.
     * @throws IllegalArgumentException if either is not {@code host:port}.
     */
    public static UdpEndpoints of(final String local, final String remote, final int vni)
    {
        try
        {
            requireEndpoint(local);
        }
        catch (final IllegalArgumentException ex)
        {
            throw Names.about("local", ex);
        }
        try
        {
            requireEndpoint(remote);
        }
        catch (final IllegalArgumentException ex)
        {
            throw Names.about("remote", ex);
        }
        return new UdpEndpoints(hostOf(local), portOf(local), hostOf(remote), portOf(remote), vni);
    }

    /**
     * The local end as text.
     *
     * @return {@code host:port}.
     */
    public String local()
    {
        return join(localHost, localPort);
    }

    /**
     * The remote end as text.
     *
     * @return {@code host:port}.
     */
    public String remote()
    {
        return join(remoteHost, remotePort);
    }

    /**
     * Check {@code host:port} text.
     *
     * @param endpoint such as {@code 127.0.0.1:4790}, {@code switch2.lab:4789} or {@code [::1]:4790}.
     * @return the text.
     * @throws IllegalArgumentException starting with the quoted text if it is not {@code host:port}.
     */
    static String requireEndpoint(final String endpoint)
    {
        Objects.requireNonNull(endpoint, "endpoint");
        final int colon = endpoint.lastIndexOf(':');
        if (colon < 0)
        {
            throw notEndpoint(endpoint);
        }
        final String host = endpoint.substring(0, colon);
        final String port = endpoint.substring(colon + 1);
        if (!isHost(host) || port.isEmpty() || port.length() > 5 || !port.chars().allMatch(UdpEndpoints::isDigit))
        {
            throw notEndpoint(endpoint);
        }
        final int portNumber = Integer.parseInt(port);
        if (portNumber < 1 || portNumber > MAX_UDP_PORT)
        {
            throw new IllegalArgumentException(
                "'" + endpoint + "' has port " + portNumber + "; UDP ports are 1 to 65535");
        }
        return endpoint;
    }

    /**
     * Check a VNI.
     *
     * @param vni to check.
     * @return the VNI.
     * @throws IllegalArgumentException starting with the quoted value if it is outside 0 to 2<sup>24</sup>-1.
     */
    static int requireVni(final long vni)
    {
        if (vni < 0 || vni > MAX_VNI)
        {
            throw new IllegalArgumentException("'" + vni + "' is outside 0 to " + MAX_VNI + " (24 bits)");
        }
        return (int)vni;
    }

    private static String hostOf(final String endpoint)
    {
        final String host = endpoint.substring(0, endpoint.lastIndexOf(':'));
        return host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    }

    private static int portOf(final String endpoint)
    {
        return Integer.parseInt(endpoint.substring(endpoint.lastIndexOf(':') + 1));
    }

    private static String join(final String host, final int port)
    {
        return (null != host && host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }

    private static boolean isHost(final String host)
    {
        if (host.startsWith("[") && host.endsWith("]") && host.length() > 2)
        {
            final String ipv6 = host.substring(1, host.length() - 1);
            return ipv6.indexOf(':') >= 0 && ipv6.chars().allMatch(c -> ':' == c || '.' == c || isHexDigit(c));
        }
        if (host.isEmpty() || host.length() > 253 ||
            !host.chars().allMatch(c -> '-' == c || '.' == c || (c < 128 && Character.isLetterOrDigit(c))))
        {
            return false;
        }
        if (host.chars().allMatch(c -> '.' == c || isDigit(c)))
        {
            try
            {
                Addresses.parseIpv4(host);
            }
            catch (final IllegalArgumentException ex)
            {
                return false;
            }
        }
        return true;
    }

    private static boolean isDigit(final int c)
    {
        return c >= '0' && c <= '9';
    }

    private static boolean isHexDigit(final int c)
    {
        return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private static IllegalArgumentException notEndpoint(final String endpoint)
    {
        return new IllegalArgumentException(
            "'" + endpoint + "' is not host:port like 127.0.0.1:4790, switch2.lab:4789 or [::1]:4790");
    }
}
