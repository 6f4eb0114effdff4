package io.pfabric.sim;

import io.pfabric.sim.pdq.PdqLinkController;
import io.pfabric.sim.pdq.PdqPacketFlyweight;
import io.pfabric.sim.pdq.PdqSettings;

/**
 * PDQ's controllers on a simulated fabric: one {@link PdqLinkController} per link (each switch port and host NIC,
 * the link it transmits on), and the routing of PDQ's ACKs back over the links their forward packet crossed, so that
 * Algorithm 3 runs at each of them in reverse order, when the ACK reaches the switch that owns the link.
 * <p>
 * A forward packet offered to a port runs Algorithm 1 at the port's link (a TERM removes the flow), then records the
 * link in its route; every frame offered to a port counts towards the link's rate controller. An ACK arriving at a
 * switch commits the last link it has not yet retraced, which that switch owns, and leaves over the reverse of the
 * link before it; the sender's NIC link commits when the ACK reaches the sender.
 */
final class SimPdqLinks
{
    private final SimSwitch[] switches;
    private final PacketPool packets;
    private final PdqLinkController[] controllers;
    private final int[][] linkIds;
    private final int[] ownerSwitch;
    private final int[] reversePort;
    private final PdqPacketFlyweight packet = new PdqPacketFlyweight();

    SimPdqLinks(final SimSwitch[] switches, final PdqSettings settings, final PacketPool packets)
    {
        this.switches = switches;
        this.packets = packets;
        int links = 0;
        for (final SimSwitch sw : switches)
        {
            links += sw.ports.length;
        }
        controllers = new PdqLinkController[links];
        linkIds = new int[switches.length][];
        ownerSwitch = new int[links];
        reversePort = new int[links];
        final int nics = switches.length - 1;
        int id = 0;
        for (int s = 0; s < switches.length; s++)
        {
            linkIds[s] = new int[switches[s].ports.length];
            for (int p = 0; p < switches[s].ports.length; p++)
            {
                final SimPort port = switches[s].ports[p];
                controllers[id] = new PdqLinkController(id, port.rateBitsPerSec, settings, s == nics);
                ownerSwitch[id] = s;
                linkIds[s][p] = id++;
            }
        }
        for (int s = 0; s < switches.length; s++)
        {
            for (int p = 0; p < switches[s].ports.length; p++)
            {
                final SimPort port = switches[s].ports[p];
                final int far = port.towardHost ? nics : port.peer;
                reversePort[linkIds[s][p]] = port.towardHost ? port.peer :
                    portTo(switches[far], s == nics ? p : s, s == nics);
            }
        }
    }

    private static int portTo(final SimSwitch sw, final int peer, final boolean towardHost)
    {
        for (int q = 0; q < sw.ports.length; q++)
        {
            if (sw.ports[q].peer == peer && sw.ports[q].towardHost == towardHost)
            {
                return q;
            }
        }
        throw new IllegalStateException("no port leads back to " + peer);
    }

    /**
     * A frame is offered to a port: count it, and run Algorithm 1 (or a TERM) if it is a forward PDQ packet.
     */
    void onOffer(final long nowNs, final int switchIndex, final int portIndex, final int frame)
    {
        final int id = linkIds[switchIndex][portIndex];
        final PdqLinkController controller = controllers[id];
        controller.onFrame(nowNs, packets.length(frame), switches[switchIndex].ports[portIndex].queue.byteCount());
        packet.wrap(packets.frame(frame), Simulator.FRAME_OVERHEAD);
        if (packet.isForward())
        {
            if (PdqPacketFlyweight.TYPE_TERM == packet.type())
            {
                controller.onTerm(packet.flowId());
            }
            else
            {
                controller.onForward(nowNs, packet);
            }
            packet.appendLink(id);
        }
    }

    /**
     * A frame arrives at a switch: if it is an ACK, commit at the link it retraces here and say where it goes next.
     *
     * @return the port it leaves by, or -1 if it is not an ACK (route it as any frame).
     */
    int onSwitchArrival(final long nowNs, final int switchIndex, final int frame)
    {
        packet.wrap(packets.frame(frame), Simulator.FRAME_OVERHEAD);
        if (packet.isForward())
        {
            return -1;
        }
        final int cursor = packet.routeCursor() - 1;
        final int link = packet.routeLink(cursor);
        if (ownerSwitch[link] != switchIndex)
        {
            throw new IllegalStateException("an ACK reached switch " + switchIndex + " off its route");
        }
        controllers[link].onReverse(nowNs, packet);
        packet.routeCursor(cursor);
        return reversePort[packet.routeLink(cursor - 1)];
    }

    /**
     * A frame reaches a host: if it is an ACK, commit at the sender's NIC link.
     */
    void onHostArrival(final long nowNs, final int frame)
    {
        packet.wrap(packets.frame(frame), Simulator.FRAME_OVERHEAD);
        if (!packet.isForward() && packet.routeCursor() == 1)
        {
            controllers[packet.routeLink(0)].onReverse(nowNs, packet);
            packet.routeCursor(0);
        }
    }

    /**
     * The controller of a switch port's or NIC's link, for tests.
     */
    PdqLinkController controller(final int switchIndex, final int portIndex)
    {
        return controllers[linkIds[switchIndex][portIndex]];
    }
}
