package io.pfabric.experiment;

import io.pfabric.common.packet.NettyTransport;
import io.pfabric.common.packet.PacketSocketException;
import io.pfabric.common.topology.Topology;
import io.pfabric.common.topology.TrafficClasses;
import io.pfabric.switchd.SwitchDaemon;
import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.testbed.FabricRunner;
import io.pfabric.testbed.NetnsFabric;

import java.io.IOException;

/**
 * Fabrics of network namespaces on this machine, with every switch of the topology run in this process.
 */
final class NetnsTestbed implements EmulatedFabric.Testbed
{
    private final Topology topology;
    private final String prefix;

    /**
     * A testbed.
     *
     * @param topology the fabric.
     * @param prefix   of its namespace names.
     */
    NetnsTestbed(final Topology topology, final String prefix)
    {
        this.topology = topology;
        this.prefix = prefix;
    }

    /**
     * {@inheritDoc}
     */
    public EmulatedFabric up(final DisciplineKind discipline) throws IOException
    {
        return up(discipline, null);
    }

    /**
     * Bring the fabric up with one queue discipline, its default buffer and traffic classes on every switch port.
     *
     * @param discipline the discipline.
     * @param classes    the classes of a {@code pfabric-classes} discipline, or null for its default.
     * @return the running fabric.
     * @throws IOException if it cannot be built.
     */
    EmulatedFabric up(final DisciplineKind discipline, final TrafficClasses classes) throws IOException
    {
        return up(discipline.cliName(), discipline.defaultCapacityLength(), classes);
    }

    /**
     * {@inheritDoc}
     */
    public EmulatedFabric up(final String discipline, final long bufferLength) throws IOException
    {
        return up(discipline, bufferLength, null);
    }

    private EmulatedFabric up(final String discipline, final long bufferLength, final TrafficClasses classes)
        throws IOException
    {
        final NetnsFabric fabric = NetnsFabric.build(topology, prefix);
        final FabricRunner switches;
        try
        {
            switches = FabricRunner.start(fabric,
                new SwitchDaemon.Overrides(-1, discipline, bufferLength, NettyTransport.EPOLL, classes));
        }
        catch (final PacketSocketException | RuntimeException ex)
        {
            fabric.close();
            throw new IOException("switchd: " + ex.getMessage(), ex);
        }
        return new EmulatedFabric()
        {
            public String namespace(final String host)
            {
                return fabric.namespace(host);
            }

            public FabricRunner switches()
            {
                return switches;
            }

            public void close() throws IOException
            {
                try
                {
                    switches.close();
                }
                finally
                {
                    fabric.close();
                }
            }
        };
    }
}
