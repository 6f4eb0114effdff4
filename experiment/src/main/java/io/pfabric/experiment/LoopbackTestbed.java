package io.pfabric.experiment;

import io.pfabric.common.packet.PacketSocketException;
import io.pfabric.common.topology.Topology;
import io.pfabric.hostd.io.PacketIos;
import io.pfabric.switchd.SwitchDaemon;
import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.testbed.FabricRunner;

import java.io.IOException;

/**
 * Fabrics that need no privilege: every switch port a VXLAN-over-UDP tunnel on loopback
 * ({@link io.pfabric.common.topology.Topologies#starOverUdp}), the switches in this process, and the hosts' pFabric
 * frames carried in those tunnels ({@link PacketIos#VXLAN}). Kernel TCP cannot be routed through such a switch.
 */
final class LoopbackTestbed implements EmulatedFabric.Testbed
{
    private final Topology topology;

    /**
     * A testbed.
     *
     * @param topology whose host ports are all UDP ports on loopback.
     */
    LoopbackTestbed(final Topology topology)
    {
        this.topology = topology;
    }

    /**
     * {@inheritDoc}
     */
    public EmulatedFabric up(final DisciplineKind discipline) throws IOException
    {
        return up(discipline.cliName(), discipline.defaultCapacityLength());
    }

    /**
     * {@inheritDoc}
     */
    public EmulatedFabric up(final String discipline, final long bufferLength) throws IOException
    {
        final FabricRunner switches;
        try
        {
            switches = FabricRunner.start(topology, name -> null,
                new SwitchDaemon.Overrides(-1, discipline, bufferLength));
        }
        catch (final PacketSocketException ex)
        {
            throw new IOException("switchd: " + ex.getMessage(), ex);
        }
        return new EmulatedFabric()
        {
            public String namespace(final String host)
            {
                return null;
            }

            public String hostIo()
            {
                return PacketIos.VXLAN;
            }

            public FabricRunner switches()
            {
                return switches;
            }

            public void close()
            {
                switches.close();
            }
        };
    }
}
