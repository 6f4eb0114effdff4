package io.pfabric.common.topology;

/**
 * A host: its name, its addresses and the switch port it is attached to.
 *
 * @param name       unique among hosts and switches.
 * @param ip         IPv4 address, first octet in the most significant byte.
 * @param mac        unicast MAC address in the low 48 bits.
 * @param switchName switch the host is attached to.
 * @param portName   port of that switch that leads to the host.
 */
public record HostSpec(String name, int ip, long mac, String switchName, String portName)
{
    /**
     * Check the names and the MAC address.
     *
     * @param name       unique among hosts and switches.
     * @param ip         IPv4 address, first octet in the most significant byte.
     * @param mac        unicast MAC address in the low 48 bits.
     * @param switchName switch the host is attached to.
     * @param portName   port of that switch that leads to the host.
     */
    public HostSpec
    {
        Names.requireName("host name", name);
        try
        {
            requireUnicastMac(mac);
        }
        catch (final IllegalArgumentException ex)
        {
            throw Names.about("mac", ex);
        }
        Names.requireName("switch name", switchName);
        Names.requireName("port name", portName);
    }

    /**
     * The IPv4 address as text.
     *
     * @return such as {@code 10.0.0.1}.
     */
    public String ipText()
    {
        return Addresses.formatIpv4(ip);
    }

    /**
     * The MAC address as text.
     *
     * @return such as {@code 02:00:0a:00:00:01}.
     */
    public String macText()
    {
        return Addresses.formatMac(mac);
    }

    /**
     * The switch port the host is attached to.
     *
     * @return the switch and port.
     */
    public PortRef attachment()
    {
        return new PortRef(switchName, portName);
    }

    /**
     * Check that a MAC address fits 48 bits and is unicast.
     *
     * @param mac in the low 48 bits.
     * @return the address.
     * @throws IllegalArgumentException starting with the quoted address if it cannot be a host's.
     */
    static long requireUnicastMac(final long mac)
    {
        if (0 != (mac >>> 48))
        {
            throw new IllegalArgumentException("'0x" + Long.toHexString(mac) + "' is wider than 48 bits");
        }
        if (Addresses.isMulticastMac(mac))
        {
            throw new IllegalArgumentException("'" + Addresses.formatMac(mac) +
                "' is a multicast address (low bit of the first octet set); a host needs a unicast one like " +
                "02:00:00:00:00:01");
        }
        return mac;
    }
}
