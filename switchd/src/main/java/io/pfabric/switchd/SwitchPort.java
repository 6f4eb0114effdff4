package io.pfabric.switchd;

import io.pfabric.common.packet.FramePort;
import io.pfabric.common.status.CounterSet;
import io.pfabric.dataplane.pacer.EgressPacer;
import io.pfabric.dataplane.queue.QueueDiscipline;

/**
 * One port of the switch: its raw-socket I/O, its egress queue and, for a port with a line rate, its pacer.
 */
public final class SwitchPort
{
    private final String name;
    private final FramePort io;
    private volatile QueueDiscipline queue;
    private volatile EgressPacer pacer;
    private final CounterSet<PortCounter> counters = new CounterSet<>(PortCounter.class);
    private volatile boolean linkUp = true;

    /**
     * A port.
     *
     * @param name  the port's name in the topology.
     * @param io    its I/O: a raw socket or a VXLAN port.
     * @param queue its egress queue.
     * @param pacer its pacer, or null to send as fast as the interface takes frames.
     */
    public SwitchPort(final String name, final FramePort io, final QueueDiscipline queue, final EgressPacer pacer)
    {
        this.name = name;
        this.io = io;
        this.queue = queue;
        this.pacer = pacer;
    }

    /**
     * The port's name.
     *
     * @return the name.
     */
    public String name()
    {
        return name;
    }

    /**
     * Whether the port's link was up when the forwarder last looked (every few milliseconds).
     *
     * @return true if up.
     */
    public boolean linkUp()
    {
        return linkUp;
    }

    /**
     * Record the link's state; from the forwarder's thread.
     *
     * @param up whether it is up.
     */
    void linkUp(final boolean up)
    {
        linkUp = up;
    }

    /**
     * The port's I/O.
     *
     * @return the frame port.
     */
    public FramePort io()
    {
        return io;
    }

    /**
     * The port's egress queue.
     *
     * @return the queue.
     */
    public QueueDiscipline queue()
    {
        return queue;
    }

    /**
     * The port's pacer.
     *
     * @return the pacer, or null when unpaced.
     */
    public EgressPacer pacer()
    {
        return pacer;
    }

    /**
     * Replace the port's queue. Forwarder thread only (see {@link Forwarder#replaceQueue}).
     *
     * @param queue the new queue.
     */
    void queue(final QueueDiscipline queue)
    {
        this.queue = queue;
    }

    /**
     * Replace the port's pacer. Forwarder thread only (see {@link Forwarder#offer(Runnable)}).
     *
     * @param pacer the new pacer, or null to send as fast as the interface takes frames.
     */
    public void pacer(final EgressPacer pacer)
    {
        this.pacer = pacer;
    }

    /**
     * The port's counters.
     *
     * @return the counters.
     */
    public CounterSet<PortCounter> counters()
    {
        return counters;
    }
}
