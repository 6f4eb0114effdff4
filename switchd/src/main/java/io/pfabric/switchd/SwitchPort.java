package io.pfabric.switchd;

import io.pfabric.common.packet.FramePort;
import io.pfabric.common.packet.InterfaceWatch;
import io.pfabric.common.status.CounterArray;
import io.pfabric.common.status.CounterSet;
import io.pfabric.common.topology.TrafficClasses;
import io.pfabric.dataplane.pacer.DepartureRateMonitor;
import io.pfabric.dataplane.pacer.EgressPacer;
import io.pfabric.dataplane.queue.QueueDiscipline;

/**
 * One port of the switch: its raw-socket I/O, its egress queue and, for a port with a line rate, its pacer; its
 * counters, and the frames, bytes and pFabric payload bytes it transmitted per IPv4 DSCP (whatever its discipline, so that a plain port's
 * split between applications can be set beside a port with traffic classes); and, for a paced port, whether it kept its
 * rate while backlogged ({@link DepartureRateMonitor}).
 */
public final class SwitchPort
{
    private final String name;
    private final InterfaceWatch watch;
    private final InterfaceWatch.Opener<FramePort> opener;
    private volatile FramePort io;
    private boolean interfaceGone;
    private long reopenDeadlineNs;
    private boolean reopenFailureSaid;
    private long oversizeDropsBefore;
    private long transmitRetriesBefore;
    private volatile QueueDiscipline queue;
    private volatile EgressPacer pacer;
    private final CounterSet<PortCounter> counters = new CounterSet<>(PortCounter.class);
    private final CounterArray transmittedByDscp = new CounterArray(3 * TrafficClasses.DSCP_COUNT);
    private final DepartureRateMonitor departures = new DepartureRateMonitor();
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
        this(name, io, queue, pacer, null, null);
    }

    /**
     * A port on an interface that the forwarder opens again, on a new interface of the same name, when its interface
     * is deleted ({@link Forwarder#checkLinks()}).
     *
     * @param name   the port's name in the topology.
     * @param io     its I/O, open on the watched interface.
     * @param queue  its egress queue.
     * @param pacer  its pacer, or null to send as fast as the interface takes frames.
     * @param watch  the interface, in the namespace the port was opened in; null for a port that is not reopened.
     * @param opener opens the port's I/O again on the interface; null if {@code watch} is.
     */
    public SwitchPort(
        final String name,
        final FramePort io,
        final QueueDiscipline queue,
        final EgressPacer pacer,
        final InterfaceWatch watch,
        final InterfaceWatch.Opener<FramePort> opener)
    {
        this.name = name;
        this.io = io;
        this.queue = queue;
        this.pacer = pacer;
        this.watch = watch;
        this.opener = opener;
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
     * The port's I/O: after its interface was deleted, a stand-in that neither receives nor sends until the port is
     * opened again on a new interface of the name.
     *
     * @return the frame port.
     */
    public FramePort io()
    {
        return io;
    }

    /**
     * Replace the port's I/O, counting what the old one dropped and retried into the port's counters first. Forwarder
     * thread only.
     *
     * @param newIo the new I/O.
     */
    void io(final FramePort newIo)
    {
        oversizeDropsBefore += io.oversizeDrops();
        transmitRetriesBefore += io.transmitRetries();
        io = newIo;
    }

    /**
     * Oversize drops of the port's I/O since the port was first opened, over every I/O it had.
     *
     * @return the count; forwarder thread only.
     */
    long oversizeDrops()
    {
        return oversizeDropsBefore + io.oversizeDrops();
    }

    /**
     * Transmit retries of the port's I/O since the port was first opened, over every I/O it had.
     *
     * @return the count; forwarder thread only.
     */
    long transmitRetries()
    {
        return transmitRetriesBefore + io.transmitRetries();
    }

    /**
     * The port's interface, watched by name, or null for a port that is not opened again when its interface goes.
     *
     * @return the watch.
     */
    InterfaceWatch watch()
    {
        return watch;
    }

    /**
     * Opens the port's I/O on its interface.
     *
     * @return the opener, or null with no watch.
     */
    InterfaceWatch.Opener<FramePort> opener()
    {
        return opener;
    }

    /**
     * Whether the port's interface was deleted and the port is not yet open on a new one. Forwarder thread only.
     *
     * @return true while it is gone.
     */
    boolean interfaceGone()
    {
        return interfaceGone;
    }

    /**
     * Record whether the port's interface is gone. Forwarder thread only.
     *
     * @param gone true once it is deleted, false once the port is open on a new one.
     */
    void interfaceGone(final boolean gone)
    {
        interfaceGone = gone;
    }

    /**
     * Earliest time the forwarder tries again to open the port after a failed attempt.
     *
     * @return nanoseconds on the forwarder's clock.
     */
    long reopenDeadlineNs()
    {
        return reopenDeadlineNs;
    }

    /**
     * Put off the next attempt to open the port; whether the last failure was said.
     *
     * @param deadlineNs earliest time of the next attempt.
     * @param failureSaid whether a failure to open it has been reported since the interface went.
     */
    void reopenAttempted(final long deadlineNs, final boolean failureSaid)
    {
        reopenDeadlineNs = deadlineNs;
        reopenFailureSaid = failureSaid;
    }

    /**
     * Whether a failure to open the port again has been reported since its interface went.
     *
     * @return true if one was.
     */
    boolean reopenFailureSaid()
    {
        return reopenFailureSaid;
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

    /**
     * Whether the port kept its configured rate while frames waited: its backlogged periods and the slow ones. Counts
     * only while the port is paced. Any thread may read its counters.
     *
     * @return the monitor.
     */
    public DepartureRateMonitor departures()
    {
        return departures;
    }

    /**
     * Frames of a DSCP the port transmitted; a frame that is not IPv4 counts as DSCP 0. Any thread.
     *
     * @param dscp 0 to 63.
     * @return the frames since the port was opened.
     */
    public long transmittedFrames(final int dscp)
    {
        return transmittedByDscp.get(dscp);
    }

    /**
     * Bytes of a DSCP the port transmitted, in frame lengths; a frame that is not IPv4 counts as DSCP 0. Any thread.
     *
     * @param dscp 0 to 63.
     * @return the bytes since the port was opened.
     */
    public long transmittedBytes(final int dscp)
    {
        return transmittedByDscp.get(TrafficClasses.DSCP_COUNT + dscp);
    }

    /**
     * Payload bytes of pFabric packets of a DSCP the port transmitted: the data their senders' applications gave,
     * without headers, ACKs or other frames. Any thread.
     *
     * @param dscp 0 to 63.
     * @return the bytes since the port was opened.
     */
    public long transmittedPayloadBytes(final int dscp)
    {
        return transmittedByDscp.get(2 * TrafficClasses.DSCP_COUNT + dscp);
    }

    /**
     * Count a transmitted frame. Forwarder thread only.
     *
     * @param dscp          the frame's DSCP, 0 to 63.
     * @param length        the frame's length.
     * @param payloadLength its pFabric payload's length, 0 for a frame without.
     */
    void transmitted(final int dscp, final int length, final int payloadLength)
    {
        counters.add(PortCounter.TRANSMITTED_FRAMES, 1);
        transmittedByDscp.add(dscp, 1);
        transmittedByDscp.add(TrafficClasses.DSCP_COUNT + dscp, length);
        if (0 != payloadLength)
        {
            transmittedByDscp.add(2 * TrafficClasses.DSCP_COUNT + dscp, payloadLength);
        }
    }
}
