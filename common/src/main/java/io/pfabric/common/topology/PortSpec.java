package io.pfabric.common.topology;

import java.util.List;
import java.util.Objects;

/**
 * A switch port: where its frames go (a Linux interface for a raw-socket port, or a VXLAN-over-UDP tunnel) and how its
 * egress behaves (line rate, queue discipline, buffer). Exactly one of {@link #interfaceName()} and {@link #udp()} is
 * set.
 *
 * @param name           unique within its switch.
 * @param interfaceName  Linux interface of a raw-socket port, at most 15 characters; null for a UDP port.
 * @param udp            endpoints of a UDP port; null for a raw-socket port.
 * @param rateBitsPerSec egress line rate the pacer keeps; 0 for unpaced.
 * @param discipline     egress queue discipline, one of {@link #DISCIPLINES}; the switch maps the name to its class.
 * @param bufferLength   egress buffer in bytes; 0 for the discipline's default.
 * @param classes        traffic classes for the {@code pfabric-classes} discipline; null for
 *                       {@link TrafficClasses#DEFAULT}. Other disciplines have no classes and ignore them.
 * @param io             how a port on an interface reaches the wire; {@link PortIo#PACKET} for a UDP port.
 */
public record PortSpec(
    String name,
    String interfaceName,
    UdpEndpoints udp,
    long rateBitsPerSec,
    String discipline,
    int bufferLength,
    TrafficClasses classes,
    PortIo io)
{
    /**
     * The discipline a port has when the file names none.
     */
    public static final String DEFAULT_DISCIPLINE = "pfabric";

    /**
     * The queue disciplines a port may name.
     */
    public static final List<String> DISCIPLINES = List.of("pfabric", "droptail", "ecn", "strict", "pfabric-classes",
        "pfabric-edf", "sp-pifo", "aifo", "pias");

    /**
     * Longest Linux interface name: {@code IFNAMSIZ} less the terminating NUL.
     */
    public static final int MAX_INTERFACE_NAME_LENGTH = Names.MAX_INTERFACE_NAME_LENGTH;

    /**
     * A port with the default traffic classes.
     *
     * @param name           unique within its switch.
     * @param interfaceName  Linux interface of a raw-socket port; null for a UDP port.
     * @param udp            endpoints of a UDP port; null for a raw-socket port.
     * @param rateBitsPerSec egress line rate; 0 for unpaced.
     * @param discipline     egress queue discipline, one of {@link #DISCIPLINES}.
     * @param bufferLength   egress buffer in bytes; 0 for the discipline's default.
     */
    public PortSpec(
        final String name,
        final String interfaceName,
        final UdpEndpoints udp,
        final long rateBitsPerSec,
        final String discipline,
        final int bufferLength)
    {
        this(name, interfaceName, udp, rateBitsPerSec, discipline, bufferLength, null, PortIo.PACKET);
    }

    /**
     * A port on {@code AF_PACKET} sockets (or a UDP port).
     *
     * @param name           unique within its switch.
     * @param interfaceName  Linux interface of a raw-socket port; null for a UDP port.
     * @param udp            endpoints of a UDP port; null for a raw-socket port.
     * @param rateBitsPerSec egress line rate; 0 for unpaced.
     * @param discipline     egress queue discipline, one of {@link #DISCIPLINES}.
     * @param bufferLength   egress buffer in bytes; 0 for the discipline's default.
     * @param classes        traffic classes for {@code pfabric-classes}; null for the default.
     */
    public PortSpec(
        final String name,
        final String interfaceName,
        final UdpEndpoints udp,
        final long rateBitsPerSec,
        final String discipline,
        final int bufferLength,
        final TrafficClasses classes)
    {
        this(name, interfaceName, udp, rateBitsPerSec, discipline, bufferLength, classes, PortIo.PACKET);
    }

    /**
     * Check the port.
     *
     * @param name           unique within its switch.
     * @param interfaceName  Linux interface of a raw-socket port; null for a UDP port.
     * @param udp            endpoints of a UDP port; null for a raw-socket port.
     * @param rateBitsPerSec egress line rate; 0 for unpaced.
     * @param discipline     egress queue discipline, one of {@link #DISCIPLINES}.
     * @param bufferLength   egress buffer in bytes; 0 for the discipline's default.
     * @param classes        traffic classes for {@code pfabric-classes}; null for the default.
     * @param io             how a port on an interface reaches the wire; {@link PortIo#PACKET} for a UDP port.
     */
    public PortSpec
    {
        Objects.requireNonNull(io, "io");
        Names.requireName("port name", name);
        if ((null == interfaceName) == (null == udp))
        {
            throw new IllegalArgumentException(
                "port '" + name + "' needs exactly one of an interface and UDP endpoints");
        }
        if (null != interfaceName)
        {
            try
            {
                Names.requireInterfaceName(interfaceName);
            }
            catch (final IllegalArgumentException ex)
            {
                throw Names.about("interface", ex);
            }
        }
        if (null != udp && PortIo.PACKET != io)
        {
            throw new IllegalArgumentException("port '" + name + "' is a UDP port; io " + io.cliName() +
                " applies only to a port on an interface");
        }
        if (rateBitsPerSec < 0)
        {
            throw new IllegalArgumentException("rate " + rateBitsPerSec + " is negative");
        }
        try
        {
            requireDiscipline(discipline);
        }
        catch (final IllegalArgumentException ex)
        {
            throw Names.about("discipline", ex);
        }
        try
        {
            requireBufferLength(bufferLength);
        }
        catch (final IllegalArgumentException ex)
        {
            throw Names.about("buffer", ex);
        }
    }

    /**
     * A raw-socket port on a Linux interface.
     *
     * @param name           unique within its switch.
     * @param interfaceName  Linux interface, at most 15 characters.
     * @param rateBitsPerSec egress line rate; 0 for unpaced.
     * @param discipline     egress queue discipline, one of {@link #DISCIPLINES}.
     * @param bufferLength   egress buffer in bytes; 0 for the discipline's default.
     * @return the port.
     */
    public static PortSpec ofInterface(
        final String name,
        final String interfaceName,
        final long rateBitsPerSec,
        final String discipline,
        final int bufferLength)
    {
        Objects.requireNonNull(interfaceName, "interfaceName");
        return new PortSpec(name, interfaceName, null, rateBitsPerSec, discipline, bufferLength);
    }

    /**
     * A VXLAN-over-UDP port.
     *
     * @param name           unique within its switch.
     * @param udp            endpoints of the tunnel.
     * @param rateBitsPerSec egress line rate; 0 for unpaced.
     * @param discipline     egress queue discipline, one of {@link #DISCIPLINES}.
     * @param bufferLength   egress buffer in bytes; 0 for the discipline's default.
     * @return the port.
     */
    public static PortSpec ofUdp(
        final String name,
        final UdpEndpoints udp,
        final long rateBitsPerSec,
        final String discipline,
        final int bufferLength)
    {
        Objects.requireNonNull(udp, "udp");
        return new PortSpec(name, null, udp, rateBitsPerSec, discipline, bufferLength);
    }

    /**
     * The same port on other I/O.
     *
     * @param portIo how the port reaches the wire.
     * @return the port.
     */
    public PortSpec withIo(final PortIo portIo)
    {
        return new PortSpec(name, interfaceName, udp, rateBitsPerSec, discipline, bufferLength, classes, portIo);
    }

    /**
     * Whether this is a VXLAN-over-UDP port rather than a raw-socket one.
     *
     * @return true if {@link #udp()} is set.
     */
    public boolean isUdp()
    {
        return null != udp;
    }

    /**
     * Check a discipline name.
     *
     * @param discipline to check.
     * @return the name.
     * @throws IllegalArgumentException starting with the quoted name if it is not one of {@link #DISCIPLINES}.
     */
    static String requireDiscipline(final String discipline)
    {
        DisciplineSpec.parse(discipline);
        return discipline;
    }

    /**
     * Check a buffer length.
     *
     * @param bufferLength in bytes, 0 for the discipline's default.
     * @return the length.
     * @throws IllegalArgumentException starting with the quoted length if it is negative or beyond an int.
     */
    static int requireBufferLength(final long bufferLength)
    {
        if (bufferLength < 0)
        {
            throw new IllegalArgumentException("'" + bufferLength + "' is negative; give bytes, or 0 for the default");
        }
        if (bufferLength > Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException("'" + bufferLength + "' is too large a buffer");
        }
        return (int)bufferLength;
    }
}
