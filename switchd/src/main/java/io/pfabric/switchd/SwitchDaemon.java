package io.pfabric.switchd;

import io.pfabric.common.packet.FramePort;
import io.pfabric.common.packet.InterfaceWatch;
import io.pfabric.common.packet.NettyTransport;
import io.pfabric.common.packet.PacketPort;
import io.pfabric.common.packet.PacketSocketException;
import io.pfabric.common.packet.VxlanPort;
import io.pfabric.common.packet.XdpPort;
import io.pfabric.common.packet.XdpUmem;
import io.pfabric.common.topology.DisciplineSpec;
import io.pfabric.common.topology.HostSpec;
import io.pfabric.common.topology.Multipath;
import io.pfabric.common.topology.PortIo;
import io.pfabric.common.topology.PortSpec;
import io.pfabric.common.topology.Routes;
import io.pfabric.common.topology.SwitchSpec;
import io.pfabric.common.topology.Topology;
import io.pfabric.common.topology.TrafficClasses;
import io.pfabric.dataplane.pacer.EgressPacer;
import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.dataplane.queue.QueueDiscipline;
import io.pfabric.switchd.table.ForwardingTable;
import io.pfabric.switchd.table.MacTable;
import org.agrona.concurrent.NanoClock;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One switch of a topology, built: a raw-socket port ({@code AF_PACKET}, or AF_XDP where the port or the overrides
 * say {@code xdp}) or a VXLAN port, with its queue discipline and pacer, for each of the switch's ports, the
 * forwarding table from the topology's routes, and the {@link Forwarder} over them. The caller runs the
 * forwarder (on an {@code AgentRunner}, or by hand in tests) and closes the daemon to release the sockets.
 * <p>
 * A switch with two or more AF_XDP ports opens them on one UMEM ({@link XdpUmem}) of {@link XdpUmem#PORT_FRAMES}
 * frames per such port and as many as each one's buffer holds of the shortest frames (up to
 * {@link XdpUmem#PORT_FRAMES} more), so that forwarding between them moves a descriptor; a port whose socket cannot
 * share it has a UMEM of its own and copies ({@link XdpPort#umemDescription()}).
 */
public final class SwitchDaemon implements AutoCloseable
{
    /**
     * What the command line may impose on every port of the switch, over the topology file.
     *
     * @param rateBitsPerSec line rate, or -1 to keep each port's.
     * @param discipline     discipline name, or null to keep each port's.
     * @param bufferLength   buffer in bytes, or -1 to keep each port's.
     * @param udpTransport   Netty's transport for the UDP (VXLAN) ports.
     * @param classes        traffic classes for {@code pfabric-classes}, or null to keep each port's.
     * @param io             I/O of every port on an interface, or null to keep each port's ({@code PACKET} for a
     *                       learning switch).
     */
    public record Overrides(
        long rateBitsPerSec, String discipline, long bufferLength, NettyTransport udpTransport, TrafficClasses classes,
        PortIo io)
    {
        /**
         * Keep everything as the topology says; UDP ports over epoll.
         */
        public static final Overrides NONE = new Overrides(-1, null, -1);

        /**
         * Overrides with the UDP ports over epoll.
         *
         * @param rateBitsPerSec line rate, or -1 to keep each port's.
         * @param discipline     discipline name, or null to keep each port's.
         * @param bufferLength   buffer in bytes, or -1 to keep each port's.
         */
        public Overrides(final long rateBitsPerSec, final String discipline, final long bufferLength)
        {
            this(rateBitsPerSec, discipline, bufferLength, NettyTransport.EPOLL);
        }

        /**
         * Overrides that keep each port's traffic classes.
         *
         * @param rateBitsPerSec line rate, or -1 to keep each port's.
         * @param discipline     discipline name, or null to keep each port's.
         * @param bufferLength   buffer in bytes, or -1 to keep each port's.
         * @param udpTransport   Netty's transport for the UDP (VXLAN) ports.
         */
        public Overrides(
            final long rateBitsPerSec, final String discipline, final long bufferLength,
            final NettyTransport udpTransport)
        {
            this(rateBitsPerSec, discipline, bufferLength, udpTransport, null);
        }

        /**
         * Overrides that keep each port's I/O.
         *
         * @param rateBitsPerSec line rate, or -1 to keep each port's.
         * @param discipline     discipline name, or null to keep each port's.
         * @param bufferLength   buffer in bytes, or -1 to keep each port's.
         * @param udpTransport   Netty's transport for the UDP (VXLAN) ports.
         * @param classes        traffic classes for {@code pfabric-classes}, or null to keep each port's.
         */
        public Overrides(
            final long rateBitsPerSec, final String discipline, final long bufferLength,
            final NettyTransport udpTransport, final TrafficClasses classes)
        {
            this(rateBitsPerSec, discipline, bufferLength, udpTransport, classes, null);
        }

        /**
         * The same overrides with every port on an interface on the given I/O.
         *
         * @param portIo the ports' I/O, or null to keep each port's.
         * @return the overrides.
         */
        public Overrides withIo(final PortIo portIo)
        {
            return new Overrides(rateBitsPerSec, discipline, bufferLength, udpTransport, classes, portIo);
        }
    }

    /**
     * Most MAC addresses a learning switch learns.
     */
    public static final int MAC_TABLE_CAPACITY = 4096;

    private final String name;
    private final SwitchPort[] ports;
    private final Forwarder forwarder;
    private final XdpUmem umem;

    private SwitchDaemon(final String name, final SwitchPort[] ports, final Forwarder forwarder, final XdpUmem umem)
    {
        this.name = name;
        this.ports = ports;
        this.forwarder = forwarder;
        this.umem = umem;
        forwarder.noticesTo(line -> System.err.println("pfabric switchd " + name + ": " + line));
    }

    /**
     * Build a switch of a topology, opening its ports in the calling thread's network namespace.
     *
     * @param topology   the fabric.
     * @param switchName which switch this is.
     * @param overrides  what the command line imposes on every port.
     * @param clock      time source for the forwarder.
     * @return the switch, not yet running.
     * @throws PacketSocketException    if a port cannot be opened (missing interface, missing privilege).
     * @throws IllegalArgumentException if the switch is not in the topology or a setting is invalid.
     */
    public static SwitchDaemon open(
        final Topology topology, final String switchName, final Overrides overrides, final NanoClock clock)
        throws PacketSocketException
    {
        final SwitchSpec spec = topology.switchNamed(switchName);
        if (null == spec)
        {
            throw new IllegalArgumentException("no switch named '" + switchName + "' in the topology");
        }
        final List<PortSpec> portSpecs = spec.ports();
        final List<SwitchPort> opened = new ArrayList<>();
        final List<PortSpec> xdpPorts = new ArrayList<>();
        for (final PortSpec port : portSpecs)
        {
            if (!port.isUdp() && PortIo.XDP == (null != overrides.io() ? overrides.io() : port.io()))
            {
                xdpPorts.add(port);
            }
        }
        final XdpUmem umem = sharedUmem(xdpPorts, overrides);
        try
        {
            for (final PortSpec port : portSpecs)
            {
                if (port.isUdp())
                {
                    final FramePort io = VxlanPort.open(
                        new InetSocketAddress(port.udp().localHost(), port.udp().localPort()),
                        new InetSocketAddress(port.udp().remoteHost(), port.udp().remotePort()),
                        port.udp().vni(), QueueDiscipline.DEFAULT_MAX_FRAME_LENGTH, overrides.udpTransport());
                    opened.add(new SwitchPort(port.name(), io, queue(port, overrides), pacer(port, overrides)));
                }
                else
                {
                    opened.add(interfacePort(port.name(), port.interfaceName(),
                        null != overrides.io() ? overrides.io() : port.io(), queue(port, overrides),
                        pacer(port, overrides), umem));
                }
            }
            final SwitchPort[] ports = opened.toArray(new SwitchPort[0]);
            final Forwarder forwarder = new Forwarder(
                ports, table(topology, switchName, portSpecs), Multipath.SPRAY == spec.multipath(), clock);
            return new SwitchDaemon(switchName, ports, forwarder, umem);
        }
        catch (final PacketSocketException | RuntimeException ex)
        {
            opened.forEach(SwitchDaemon::close);
            if (null != umem)
            {
                umem.close();
            }
            throw ex;
        }
    }

    /**
     * Build a single switch in the learning mode on the given interfaces, with no topology: it learns where each MAC
     * address is and floods what it does not know. For ad-hoc use.
     *
     * @param name       the switch's name, for reports.
     * @param interfaces one port per interface, named as the interface.
     * @param overrides  rate (unpaced if not given), discipline (pfabric if not given) and buffer of every port.
     * @param clock      time source for the forwarder.
     * @return the switch, not yet running.
     * @throws PacketSocketException if a port cannot be opened.
     */
    public static SwitchDaemon openLearning(
        final String name, final List<String> interfaces, final Overrides overrides, final NanoClock clock)
        throws PacketSocketException
    {
        if (interfaces.size() < 2)
        {
            throw new IllegalArgumentException("a learning switch needs at least two interfaces");
        }
        final List<SwitchPort> opened = new ArrayList<>();
        final List<PortSpec> portSpecs = new ArrayList<>();
        for (final String interfaceName : interfaces)
        {
            portSpecs.add(PortSpec.ofInterface(
                interfaceName, interfaceName, Math.max(overrides.rateBitsPerSec(), 0),
                null == overrides.discipline() ? DisciplineKind.PFABRIC.cliName() : overrides.discipline(),
                (int)Math.max(overrides.bufferLength(), 0)));
        }
        final XdpUmem umem = PortIo.XDP == overrides.io() ? sharedUmem(portSpecs, overrides) : null;
        try
        {
            for (final PortSpec port : portSpecs)
            {
                opened.add(interfacePort(port.name(), port.interfaceName(),
                    null != overrides.io() ? overrides.io() : PortIo.PACKET, queue(port, overrides),
                    pacer(port, Overrides.NONE), umem));
            }
            final SwitchPort[] ports = opened.toArray(new SwitchPort[0]);
            return new SwitchDaemon(name, ports, new Forwarder(ports, new MacTable(MAC_TABLE_CAPACITY), clock),
                umem);
        }
        catch (final PacketSocketException | RuntimeException ex)
        {
            opened.forEach(SwitchDaemon::close);
            if (null != umem)
            {
                umem.close();
            }
            throw ex;
        }
    }

    /**
     * A port on an interface of the calling thread's namespace, which the forwarder opens again in that namespace, with
     * the same I/O, when the interface is deleted and one of the same name is up again.
     */
    private static SwitchPort interfacePort(
        final String name,
        final String interfaceName,
        final PortIo io,
        final QueueDiscipline queue,
        final EgressPacer pacer,
        final XdpUmem umem)
        throws PacketSocketException
    {
        final InterfaceWatch.Opener<FramePort> opener = PortIo.XDP != io ? PacketPort::open :
            null == umem ? XdpPort::open : named -> XdpPort.openShared(named, umem);
        final FramePort frames = opener.open(interfaceName);
        final InterfaceWatch watch;
        try
        {
            watch = InterfaceWatch.inCurrentNamespace(interfaceName);
        }
        catch (final PacketSocketException | RuntimeException ex)
        {
            frames.close();
            throw ex;
        }
        return new SwitchPort(name, frames, queue, pacer, watch, opener);
    }

    /**
     * The UMEM for a switch's AF_XDP ports, if it has two or more: each port's rings' frames and as many as its buffer
     * holds of the shortest frames, at most as many again. Null if it cannot be had (or a port's discipline is
     * invalid): each port then finds out why as it opens, or its queue as it is made.
     */
    private static XdpUmem sharedUmem(final List<PortSpec> xdpPorts, final Overrides overrides)
    {
        if (xdpPorts.size() < 2)
        {
            return null;
        }
        try
        {
            long frames = 0;
            for (final PortSpec port : xdpPorts)
            {
                final long bufferLength =
                    overrides.bufferLength() >= 0 ? overrides.bufferLength() : port.bufferLength();
                final String discipline = null != overrides.discipline() ? overrides.discipline() : port.discipline();
                final long capacityLength = bufferLength > 0 ? bufferLength :
                    DisciplineKind.byName(DisciplineSpec.parse(discipline).name()).defaultCapacityLength();
                frames += XdpUmem.PORT_FRAMES +
                    Math.min(capacityLength / QueueDiscipline.MIN_FRAME_LENGTH + 1, XdpUmem.PORT_FRAMES);
            }
            return XdpUmem.create((int)frames);
        }
        catch (final PacketSocketException | RuntimeException ex)
        {
            return null;
        }
    }

    private static void close(final SwitchPort port)
    {
        port.io().close();
        if (null != port.watch())
        {
            port.watch().close();
        }
    }

    private static QueueDiscipline queue(final PortSpec port, final Overrides overrides)
    {
        final DisciplineSpec spec = DisciplineSpec.parse(
            null != overrides.discipline() ? overrides.discipline() : port.discipline());
        final long bufferLength = overrides.bufferLength() >= 0 ? overrides.bufferLength() : port.bufferLength();
        final TrafficClasses classes = null != overrides.classes() ? overrides.classes() :
            null != port.classes() ? port.classes() : TrafficClasses.DEFAULT;
        return DisciplineKind.newQueue(spec, bufferLength, QueueDiscipline.DEFAULT_MAX_FRAME_LENGTH,
            QueueDiscipline.DEFAULT_MAX_FRAME_LENGTH, classes);
    }

    private static EgressPacer pacer(final PortSpec port, final Overrides overrides)
    {
        final long rate = overrides.rateBitsPerSec() >= 0 ? overrides.rateBitsPerSec() : port.rateBitsPerSec();
        return 0 == rate ? null : new EgressPacer(rate);
    }

    private static ForwardingTable table(
        final Topology topology, final String switchName, final List<PortSpec> portSpecs)
    {
        final ForwardingTable table = new ForwardingTable();
        for (final Map.Entry<String, List<String>> route : Routes.compute(topology, switchName).entrySet())
        {
            final HostSpec host = topology.host(route.getKey());
            final int[] indices = new int[route.getValue().size()];
            for (int i = 0; i < indices.length; i++)
            {
                indices[i] = indexOf(portSpecs, route.getValue().get(i));
            }
            table.addHost(host.ip(), host.mac(), indices);
        }
        return table;
    }

    private static int indexOf(final List<PortSpec> ports, final String portName)
    {
        for (int i = 0; i < ports.size(); i++)
        {
            if (ports.get(i).name().equals(portName))
            {
                return i;
            }
        }
        throw new IllegalStateException("route through unknown port " + portName);
    }

    /**
     * The switch's name.
     *
     * @return the name.
     */
    public String name()
    {
        return name;
    }

    /**
     * The data-path agent.
     *
     * @return the forwarder.
     */
    public Forwarder forwarder()
    {
        return forwarder;
    }

    /**
     * A port by its position in the topology.
     *
     * @param index from 0.
     * @return the port.
     */
    public SwitchPort port(final int index)
    {
        return ports[index];
    }

    /**
     * Number of ports.
     *
     * @return the count.
     */
    public int portCount()
    {
        return ports.length;
    }

    /**
     * Close every port's sockets. Call after the forwarder has stopped.
     */
    public void close()
    {
        forwarder.giveBackQueuedFrames();
        for (final SwitchPort port : ports)
        {
            close(port);
        }
        if (null != umem)
        {
            umem.close();
        }
    }
}
