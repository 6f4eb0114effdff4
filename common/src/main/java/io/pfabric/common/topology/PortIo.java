package io.pfabric.common.topology;

import java.util.Locale;

/**
 * How a switch port on a Linux interface reaches the wire: an {@code AF_PACKET} socket with mapped rings, or an
 * AF_XDP socket on the interface's first queue.
 */
public enum PortIo
{
    /**
     * {@code AF_PACKET} sockets with TPACKET_V2 rings: any interface, no XDP needed.
     */
    PACKET,

    /**
     * An AF_XDP socket, with libxdp's redirect program on the interface.
     */
    XDP;

    /**
     * The name a topology file and the command line use.
     *
     * @return {@code packet} or {@code xdp}.
     */
    public String cliName()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The kind a name stands for.
     *
     * @param name {@code packet} or {@code xdp}.
     * @return the kind.
     * @throws IllegalArgumentException starting with the quoted name if it is neither.
     */
    public static PortIo named(final String name)
    {
        for (final PortIo io : values())
        {
            if (io.cliName().equals(name))
            {
                return io;
            }
        }
        throw new IllegalArgumentException("'" + name + "' is not packet or xdp");
    }
}
