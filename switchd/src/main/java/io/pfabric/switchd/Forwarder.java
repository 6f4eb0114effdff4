package io.pfabric.switchd;

import io.pfabric.common.packet.FramePort;
import io.pfabric.common.packet.DataPathPlacement;
import io.pfabric.common.packet.DataPathScheduling;
import io.pfabric.common.packet.InterfaceWatch;
import io.pfabric.common.packet.PacketSocketException;
import io.pfabric.common.packet.UmemFramePool;
import io.pfabric.common.packet.XdpPort;
import io.pfabric.common.packet.XdpUmem;
import io.pfabric.common.packet.TimerSlack;
import io.pfabric.common.packet.PacketHandler;
import io.pfabric.common.status.CounterSet;
import io.pfabric.common.wire.ArpFlyweight;
import io.pfabric.common.wire.EthernetFlyweight;
import io.pfabric.common.wire.FrameKind;
import io.pfabric.common.wire.FrameParser;
import io.pfabric.common.wire.ParseReason;
import io.pfabric.dataplane.pacer.EgressPacer;
import io.pfabric.dataplane.queue.DropHandler;
import io.pfabric.dataplane.queue.FrameHandler;
import io.pfabric.dataplane.queue.QueueDiscipline;
import io.pfabric.switchd.table.ForwardingTable;
import io.pfabric.switchd.table.MacTable;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The switch's data path, run to completion on one thread: each port's receive ring → parse → forwarding lookup →
 * the egress port's queue discipline → its pacer → its transmit ring.
 * <p>
 * ARP requests for a known host are answered from the host table and sent back ahead of data (priority 0). Other
 * IPv4 traffic than pFabric's gets the least urgent priority, so a pFabric queue of such traffic behaves as a FIFO.
 * Every frame reaches its queue with the DSCP of its IPv4 header (0 if it has none), by which a queue with traffic
 * classes picks the frame's class.
 * Multipath: per-packet spraying over the equal-cost ports, or per-flow hashing (ECMP); a pFabric packet whose PATH
 * flag is set takes the equal-cost port its path hint names (hint modulo their number, in the switch's port order:
 * on a generated leaf-spine leaf, hint i is the uplink to spine i + 1), as hosts under SYN control ask.
 * <p>
 * While any queue holds frames waiting for its pacer, {@link #doWork()} reports work, so a generic idle strategy keeps
 * polling instead of sleeping past the next departure. {@link ForwarderIdleStrategy} instead asks
 * {@link #idleWaitNs(long)} how long the forwarder may sleep, and sleeps in its ports until then unless a frame comes
 * first: a paced switch then spins only while its next departure is too close to sleep for.
 * <p>
 * AF_XDP ports on the switch's shared UMEM ({@link XdpPort#openShared}) queue frames by their address in the UMEM:
 * their queues hold the eight bytes of the address, and the frame's length, priority and class as any other's. A frame
 * received on such a port and queued at one is kept where the kernel placed it and later sent from there, so forwarding
 * between them copies nothing; a frame from a port of another kind, one flooded to several ports, or an ARP reply is
 * copied into a free UMEM frame once, where the queue of a port of the UMEM takes it. Every frame such a queue drops
 * goes back to the UMEM's pool at once, and so do those it holds when its interface goes or the switch closes. A
 * discipline that marks the frames it holds ({@link QueueDiscipline#marksFrames()}: ECN, PIAS) holds copies instead,
 * at any port.
 */
public final class Forwarder implements Agent, PacketHandler, FrameHandler
{
    /**
     * Most frames taken from one port's receive ring, or released to its transmit ring, per duty cycle.
     */
    public static final int BATCH_FRAMES = 32;

    private static final long CONTROL_PRIORITY = 0;
    private static final long DEFAULT_IP_PRIORITY = QueueDiscipline.MAX_PRIORITY;
    private static final int ARP_FRAME_LENGTH = EthernetFlyweight.HEADER_LENGTH + ArpFlyweight.HEADER_LENGTH;
    private static final long STATISTICS_INTERVAL_NS = 1_000_000_000L;

    /**
     * How often the forwarder asks the kernel whether each port's link is up.
     */
    public static final long LINK_CHECK_INTERVAL_NS = 10_000_000L;

    /**
     * How long the forwarder waits after failing to open a port again on a new interface before it tries again.
     */
    public static final long REOPEN_RETRY_INTERVAL_NS = 1_000_000_000L;
    private static final long MULTICAST_BIT = 0x0100_0000_0000L;

    /**
     * Whether paced ports watch their departure rate ({@link SwitchPort#departures()}); on unless the system property
     * {@code pfabric.switchd.monitorDepartures} is {@code false}, which is there to measure what watching costs.
     */
    public static final boolean MONITOR_DEPARTURES =
        !"false".equals(System.getProperty("pfabric.switchd.monitorDepartures"));

    /**
     * Most commands waiting for the forwarder at once.
     */
    public static final int COMMAND_QUEUE_CAPACITY = 64;

    private final ManyToOneConcurrentArrayQueue<Runnable> commands =
        new ManyToOneConcurrentArrayQueue<>(COMMAND_QUEUE_CAPACITY);
    private final SwitchPort[] ports;
    private final ForwardingTable table;
    private final MacTable macTable;
    private final boolean spray;
    private final NanoClock clock;
    private final FrameParser parser = new FrameParser();
    private final FrameParser departing = new FrameParser();
    private final ArpFlyweight arp = new ArpFlyweight();
    private final EthernetFlyweight ethernet = new EthernetFlyweight();
    private final UnsafeBuffer reply = new UnsafeBuffer(new byte[64]);
    private final FrameHandler discard = (buffer, offset, length) -> { };
    private final XdpUmem umem;
    private final XdpPort[] umemPorts;
    private final boolean[] queuesAddresses;
    private final UnsafeBuffer frameAddress = new UnsafeBuffer(new byte[Long.BYTES]);
    private final DropHandler giveBackDropped;
    private final FrameHandler giveBack;
    private boolean keepable;
    private boolean requeueFromHeld;
    private boolean requeueToHeld;
    private int requeuePort;
    private final long[] malformedByReason = new long[ParseReason.COUNT];
    private final long[] backlogStartNs;
    private final int[] releasedThisCycle;
    private long receiveNs;
    private long arrivalNs;
    private int ingress;
    private int transmitting;
    private QueueDiscipline requeueTarget;
    private int sprayCursor;
    private long statisticsDeadlineNs;
    private boolean statisticsStarted;
    private long linkCheckDeadlineNs;
    private final CounterSet<ForwarderCounter> counters = new CounterSet<>(ForwarderCounter.class);
    private long lastDutyCycleNs;
    private boolean dutyCycleSeen;
    private boolean backloggedAtLastCycle;
    private boolean serving;
    private int lastDutyCycleWork;
    private volatile Runnable waker;
    private volatile Consumer<String> notices = line -> System.err.println("pfabric switchd: " + line);
    private int portsVersion;
    private volatile String realtimeRefusal = "not started";
    private volatile DataPathPlacement placement;
    private final CountDownLatch firstDutyCycle = new CountDownLatch(1);

    /**
     * A forwarder over ports.
     *
     * @param ports the switch's ports, indexed as in the table.
     * @param table where each host is.
     * @param spray true to spray packets over equal-cost ports, false to hash flows (ECMP).
     * @param clock time source, read once per duty cycle.
     */
    public Forwarder(final SwitchPort[] ports, final ForwardingTable table, final boolean spray, final NanoClock clock)
    {
        this(ports, table, null, spray, clock);
    }

    /**
     * A forwarder in the single-switch learning mode: destinations are found by the source MAC addresses seen on each
     * port; broadcast, multicast and unknown destinations are flooded to every other port.
     *
     * @param ports    the switch's ports.
     * @param macTable learned addresses.
     * @param clock    time source, read once per duty cycle.
     */
    public Forwarder(final SwitchPort[] ports, final MacTable macTable, final NanoClock clock)
    {
        this(ports, null, macTable, false, clock);
    }

    private Forwarder(
        final SwitchPort[] ports,
        final ForwardingTable table,
        final MacTable macTable,
        final boolean spray,
        final NanoClock clock)
    {
        this.ports = ports.clone();
        XdpUmem shared = null;
        for (final SwitchPort port : ports)
        {
            if (null == shared && port.io() instanceof XdpPort xdp)
            {
                shared = xdp.sharedUmem();
            }
        }
        this.umem = shared;
        this.umemPorts = new XdpPort[ports.length];
        this.queuesAddresses = new boolean[ports.length];
        final XdpUmem frames = shared;
        this.giveBack = null == frames ? discard : (buffer, offset, length) -> frames.give(buffer.getLong(offset));
        this.giveBackDropped = null == frames ? DropHandler.NONE : (buffer, offset, length, reason) ->
        {
            final long address = buffer.getLong(offset);
            if (UmemFramePool.NO_FRAME != address)
            {
                frames.give(address);
            }
        };
        for (int i = 0; i < ports.length; i++)
        {
            attachToUmem(i);
        }
        this.backlogStartNs = new long[ports.length];
        this.releasedThisCycle = new int[ports.length];
        this.table = table;
        this.macTable = macTable;
        this.spray = spray;
        this.clock = clock;
    }

    /**
     * Whether a port is on the switch's shared UMEM (its I/O is an AF_XDP port on it), and whether its queue then holds
     * frames by their address, with the queue's drops going back to the UMEM's pool: unless its discipline marks
     * frames. Called when the port's I/O is set, its queue empty.
     */
    private void attachToUmem(final int index)
    {
        final boolean onUmem = null != umem && ports[index].io() instanceof XdpPort xdp && umem == xdp.sharedUmem();
        umemPorts[index] = onUmem ? (XdpPort)ports[index].io() : null;
        final boolean held = onUmem && !ports[index].queue().marksFrames();
        final boolean wasHeld = queuesAddresses[index];
        queuesAddresses[index] = held;
        if (held)
        {
            ports[index].queue().dropHandler(giveBackDropped);
        }
        else if (wasHeld)
        {
            ports[index].queue().dropHandler(DropHandler.NONE);
        }
    }

    /**
     * The UMEM the switch's AF_XDP ports share.
     *
     * @return the UMEM, or null if no port is on a shared one.
     */
    public XdpUmem sharedUmem()
    {
        return umem;
    }

    /**
     * Whether a port's queue holds its frames in the switch's shared UMEM, by their address.
     *
     * @param index of the port.
     * @return true if it does.
     */
    public boolean queuesUmemFrames(final int index)
    {
        return queuesAddresses[index];
    }

    /**
     * Give every frame the queues hold in the shared UMEM back to its pool, emptying those queues: when the switch
     * closes. Forwarder thread, or any thread once the forwarder has stopped.
     */
    public void giveBackQueuedFrames()
    {
        for (int i = 0; i < ports.length; i++)
        {
            if (queuesAddresses[i])
            {
                final QueueDiscipline queue = ports[i].queue();
                while (!queue.isEmpty())
                {
                    queue.dequeue(giveBack);
                }
            }
        }
    }

    /**
     * The forwarder's own counters: duty cycles and the longest gap between two. Readable from any thread.
     *
     * @return the counters.
     */
    public CounterSet<ForwarderCounter> counters()
    {
        return counters;
    }

    /**
     * Ask Linux to wake this thread on time from its short idle parks (timer slack 1 ns instead of 50 µs), give it a
     * core of its own ({@link DataPathPlacement}) and, once it has one or if asked for, run it as soon as it wakes
     * ({@link DataPathScheduling}), and have every port receiving from this thread before the first duty cycle
     * ({@link FramePort#claim()}).
     */
    public void onStart()
    {
        TimerSlack.setForCurrentThread(1);
        placement = DataPathPlacement.placeForwarder();
        realtimeRefusal = DataPathScheduling.raiseCurrentThread(placement.apart());
        for (final SwitchPort port : ports)
        {
            port.io().claim();
        }
    }

    /**
     * Why the forwarder's thread does not run real-time ({@link DataPathScheduling}), or null if it does.
     *
     * @return the reason, or null.
     */
    public String realtimeRefusal()
    {
        return realtimeRefusal;
    }

    /**
     * Where the forwarder's thread runs and at what weight ({@link DataPathPlacement}), once it has started.
     *
     * @return the description, or null before the thread started.
     */
    public String placement()
    {
        final DataPathPlacement placed = placement;
        return null == placed ? null : placed.description(realtimeRefusal);
    }

    /**
     * Close every port's I/O on the data path's thread, which owns the event loops of its UDP ports.
     */
    public void onClose()
    {
        giveBackQueuedFrames();
        for (final SwitchPort port : ports)
        {
            port.io().close();
        }
        final DataPathPlacement placed = placement;
        if (null != placed)
        {
            placed.close();
        }
    }

    /**
     * {@inheritDoc}
     */
    public String roleName()
    {
        return "forwarder";
    }

    /**
     * {@inheritDoc}
     */
    public int doWork()
    {
        final long nowNs = clock.nanoTime();
        if (dutyCycleSeen)
        {
            counters.raiseTo(ForwarderCounter.LONGEST_DUTY_CYCLE_GAP_NS, nowNs - lastDutyCycleNs);
            if (backloggedAtLastCycle)
            {
                counters.raiseTo(ForwarderCounter.LONGEST_BACKLOGGED_GAP_NS, nowNs - lastDutyCycleNs);
            }
        }
        dutyCycleSeen = true;
        lastDutyCycleNs = nowNs;
        counters.add(ForwarderCounter.DUTY_CYCLES, 1);
        int work = 0;
        final Runnable command = commands.poll();
        if (null != command)
        {
            command.run();
            work++;
        }
        receiveNs = nowNs;
        Arrays.fill(releasedThisCycle, 0);
        for (int i = 0; i < ports.length; i++)
        {
            ingress = i;
            final int received = ports[i].io().receive(this, BATCH_FRAMES);
            if (received > 0)
            {
                ports[i].counters().add(PortCounter.RECEIVED_FRAMES, received);
                work += received;
            }
        }
        boolean backlogged = false;
        final long transmitNs = clock.nanoTime();
        for (int i = 0; i < ports.length; i++)
        {
            work += transmit(i, transmitNs);
            backlogged |= !ports[i].queue().isEmpty();
        }
        lastDutyCycleWork = work;
        backloggedAtLastCycle = backlogged;
        if (0 == work && backlogged)
        {
            work = 1;
        }
        if (linkCheckDeadlineNs - nowNs < 0)
        {
            linkCheckDeadlineNs = nowNs + LINK_CHECK_INTERVAL_NS;
            checkLinks(nowNs);
        }
        if (!statisticsStarted || statisticsDeadlineNs - nowNs < 0)
        {
            statisticsStarted = true;
            statisticsDeadlineNs = nowNs + STATISTICS_INTERVAL_NS;
            updateStatistics();
        }
        if (!serving)
        {
            serving = true;
            firstDutyCycle.countDown();
        }
        return work;
    }

    /**
     * How long the forwarder may sleep after its last duty cycle unless a frame arrives or a command is offered: not
     * at all if that cycle did any work (more may wait) or a command waits, or a port holds frames it may send now;
     * else until the earliest departure a paced port's pacer allows for its queued frames, or the next check of the
     * links or of the statistics. Owner thread only.
     *
     * @param nowNs the clock's time.
     * @return nanoseconds, 0 or less for none.
     */
    public long idleWaitNs(final long nowNs)
    {
        if (lastDutyCycleWork > 0 || !commands.isEmpty())
        {
            return 0;
        }
        long waitNs = Math.min(linkCheckDeadlineNs - nowNs, statisticsDeadlineNs - nowNs);
        for (final SwitchPort port : ports)
        {
            if (!port.queue().isEmpty())
            {
                final EgressPacer pacer = port.pacer();
                if (null == pacer || !port.io().canTransmit())
                {
                    return 0;
                }
                waitNs = Math.min(waitNs, pacer.nextDepartureNs() - nowNs);
            }
        }
        return waitNs;
    }

    /**
     * Start a new window of {@link ForwarderCounter#LONGEST_BACKLOGGED_GAP_NS}: from the forwarder's next duty cycle
     * it counts from zero, so that one run's stalls are told from an earlier run's on the same switch.
     *
     * @return false if the command queue is full.
     */
    public boolean restartBackloggedGap()
    {
        return offer(() -> counters.set(ForwarderCounter.LONGEST_BACKLOGGED_GAP_NS, 0));
    }

    /**
     * Have {@link #offer(Runnable)} end the forwarder's idle wait: the idle strategy that waits in the ports gives
     * the way to wake it.
     *
     * @param wake run after each command offered, from the offering thread; null for none.
     */
    public void wakeOnOffer(final Runnable wake)
    {
        waker = wake;
    }

    /**
     * Where the forwarder says, in one line each, that a port's interface went and that the port was opened again
     * (standard error unless told otherwise).
     *
     * @param sink given each line, on the forwarder's thread.
     */
    public void noticesTo(final Consumer<String> sink)
    {
        notices = sink;
    }

    /**
     * How many times a port's I/O was replaced (its interface went, or it was opened again): an idle strategy that
     * waits in the ports' sockets builds its wait again when this changes. Owner thread only.
     *
     * @return the count since start.
     */
    int portsVersion()
    {
        return portsVersion;
    }

    /**
     * The forwarder's ports, in the table's order.
     *
     * @return a copy of the array.
     */
    public SwitchPort[] ports()
    {
        return ports.clone();
    }

    /**
     * Ask the kernel whether each port's link is up and count the changes; {@link #forward} sprays around a port whose
     * link is down. A port on an interface whose interface was deleted (none of its name now, or one with another
     * index) is closed, the frames it held are dropped and so are frames for it until, once an interface of the name is
     * up again, the port is opened again on it in its namespace (for AF_XDP, the redirect program attached again),
     * each said in one line; a failed attempt is tried again after {@link #REOPEN_RETRY_INTERVAL_NS}. Opening a port
     * takes the forwarder's thread for as long as it takes (tens of milliseconds).
     * Every {@link #LINK_CHECK_INTERVAL_NS} from {@link #doWork()}; owner thread only.
     */
    public void checkLinks()
    {
        checkLinks(clock.nanoTime());
    }

    private void checkLinks(final long nowNs)
    {
        for (int i = 0; i < ports.length; i++)
        {
            final SwitchPort port = ports[i];
            final InterfaceWatch watch = port.watch();
            if (null != watch)
            {
                if (!port.interfaceGone() && watch.index() != port.io().interfaceIndex())
                {
                    loseInterface(i, nowNs);
                }
                if (port.interfaceGone() && !reopen(i, nowNs))
                {
                    continue;
                }
            }
            final boolean up = port.io().linkUp();
            if (up != port.linkUp())
            {
                port.counters().add(up ? PortCounter.LINK_UPS : PortCounter.LINK_DOWNS, 1);
                port.linkUp(up);
            }
        }
    }

    private void loseInterface(final int index, final long nowNs)
    {
        final SwitchPort port = ports[index];
        final FramePort lost = port.io();
        updateStatistics(port);
        lost.close();
        port.io(new GonePort(lost.interfaceName()));
        port.interfaceGone(true);
        port.reopenAttempted(nowNs, false);
        final QueueDiscipline queue = port.queue();
        final FrameHandler drain = queuesAddresses[index] ? giveBack : discard;
        long dropped = 0;
        while (!queue.isEmpty())
        {
            queue.dequeue(drain);
            dropped++;
        }
        attachToUmem(index);
        port.counters().add(PortCounter.DROPPED_INTERFACE_GONE, dropped);
        port.counters().add(PortCounter.INTERFACE_LOSSES, 1);
        if (port.linkUp())
        {
            port.counters().add(PortCounter.LINK_DOWNS, 1);
            port.linkUp(false);
        }
        portsVersion++;
        notices.accept("port " + port.name() + ": interface " + lost.interfaceName() + " is gone; the port is " +
            "closed until an interface of that name is up again");
    }

    /**
     * Open a port whose interface went again, if an interface of its name is up and no failed attempt is too recent.
     *
     * @return true if the port is open again.
     */
    private boolean reopen(final int index, final long nowNs)
    {
        final SwitchPort port = ports[index];
        final InterfaceWatch watch = port.watch();
        if (port.reopenDeadlineNs() - nowNs > 0 || !watch.up())
        {
            return false;
        }
        final FramePort io;
        final long openStartNs = clock.nanoTime();
        try
        {
            io = watch.open(port.opener());
        }
        catch (final PacketSocketException | RuntimeException ex)
        {
            final boolean said = port.reopenFailureSaid();
            port.reopenAttempted(nowNs + REOPEN_RETRY_INTERVAL_NS, true);
            if (!said)
            {
                notices.accept("port " + port.name() + ": cannot open it again on the new " + watch.interfaceName() +
                    " (" + ex.getMessage() + "); trying again every second");
            }
            return false;
        }
        io.claim();
        final long openNs = clock.nanoTime() - openStartNs;
        port.io(io);
        attachToUmem(index);
        port.interfaceGone(false);
        port.counters().add(PortCounter.REOPENS, 1);
        portsVersion++;
        notices.accept("port " + port.name() + ": opened again on the new " + io.interfaceName() + " (index " +
            io.interfaceIndex() + (io instanceof XdpPort xdp ? ", AF_XDP, " + xdp.attachMode() + ", " +
            xdp.umemDescription() : ", AF_PACKET") +
            ") in " + String.format(Locale.ROOT, "%.1f", openNs / 1e6) + " ms");
        return true;
    }

    /**
     * Read each port's socket statistics into its counters: frames the kernel dropped because the receive ring was
     * full, and frames the ring dropped as oversize. Done once a second from {@link #doWork()}; owner thread only.
     */
    public void updateStatistics()
    {
        for (final SwitchPort port : ports)
        {
            updateStatistics(port);
        }
    }

    private static void updateStatistics(final SwitchPort port)
    {
        final long ringFullBefore = port.io().kernelDrops();
        port.io().updateKernelStatistics();
        port.counters().add(PortCounter.DROPPED_RING_FULL, port.io().kernelDrops() - ringFullBefore);
        port.counters().add(PortCounter.DROPPED_OVERSIZE,
            port.oversizeDrops() - port.counters().get(PortCounter.DROPPED_OVERSIZE));
        port.counters().add(PortCounter.TRANSMIT_RETRIES,
            port.transmitRetries() - port.counters().get(PortCounter.TRANSMIT_RETRIES));
    }

    /**
     * Wait until the forwarder has run its first duty cycle: every port has then been read once, so a port that
     * binds its socket on first use (VXLAN) is bound, and frames sent to the switch from now on are forwarded.
     *
     * @param timeout longest wait.
     * @param unit    of the timeout.
     * @return false if the wait timed out.
     * @throws InterruptedException if interrupted.
     */
    public boolean awaitServing(final long timeout, final TimeUnit unit) throws InterruptedException
    {
        return firstDutyCycle.await(timeout, unit);
    }

    /**
     * Hand the forwarder a command to run on its own thread, one per duty cycle: the way other threads change a
     * port (its rate, say) without sharing mutable state with the data path.
     *
     * @param command to run.
     * @return false if the queue is full.
     */
    public boolean offer(final Runnable command)
    {
        final boolean accepted = commands.offer(command);
        final Runnable wake = waker;
        if (accepted && null != wake)
        {
            wake.run();
        }
        return accepted;
    }

    /**
     * Give a port a new queue, moving the frames it holds into it with their priorities read again from the frames
     * (those that do not fit are dropped and counted by the new queue). Forwarder thread only: call it from a command
     * passed to {@link #offer(Runnable)}.
     *
     * @param port     the port.
     * @param newQueue its new queue.
     */
    public void replaceQueue(final SwitchPort port, final QueueDiscipline newQueue)
    {
        final QueueDiscipline oldQueue = port.queue();
        int index = -1;
        for (int i = 0; i < ports.length; i++)
        {
            if (port == ports[i])
            {
                index = i;
            }
        }
        requeuePort = index;
        requeueFromHeld = index >= 0 && queuesAddresses[index];
        requeueToHeld = index >= 0 && null != umemPorts[index] && !newQueue.marksFrames();
        if (requeueToHeld)
        {
            newQueue.dropHandler(giveBackDropped);
        }
        port.queue(newQueue);
        if (index >= 0)
        {
            queuesAddresses[index] = requeueToHeld;
        }
        requeueTarget = newQueue;
        while (!oldQueue.isEmpty())
        {
            oldQueue.dequeue(this::requeue);
        }
        requeueTarget = null;
    }

    /**
     * Offer a frame of the old queue to the new one, with its priority read again from the frame: by its UMEM address
     * from and to queues that hold addresses, else copied into the new queue, or into a free UMEM frame for it.
     */
    private void requeue(final DirectBuffer buffer, final int offset, final int length)
    {
        if (requeueFromHeld || requeueToHeld)
        {
            final DirectBuffer frame = requeueFromHeld ? umem.frames() : buffer;
            final int frameOffset = requeueFromHeld ? (int)buffer.getLong(offset) : offset;
            final int kind = parser.parse(frame, frameOffset, length);
            final boolean pfabric = FrameKind.PFABRIC_IP == kind || FrameKind.PFABRIC_UDP == kind;
            final long priority = pfabric ? parser.priority() :
                FrameKind.IPV4_OTHER == kind ? DEFAULT_IP_PRIORITY : CONTROL_PRIORITY;
            final long flowId = pfabric ? parser.flowId() : parser.flowHash();
            if (requeueFromHeld && requeueToHeld)
            {
                requeueTarget.enqueue(buffer, offset, Long.BYTES, length, priority, flowId, parser.dscp(),
                    parser.pfabricFlags());
            }
            else if (requeueToHeld)
            {
                final long address = umem.copyIn(buffer, offset, length);
                if (UmemFramePool.NO_FRAME == address)
                {
                    ports[requeuePort].counters().add(PortCounter.DROPPED_NO_UMEM_FRAME, 1);
                    return;
                }
                frameAddress.putLong(0, address);
                requeueTarget.enqueue(frameAddress, 0, Long.BYTES, length, priority, flowId, parser.dscp(),
                    parser.pfabricFlags());
            }
            else
            {
                requeueTarget.enqueue(frame, frameOffset, length, length, priority, flowId, parser.dscp(),
                    parser.pfabricFlags());
                umem.give(frameOffset);
            }
            return;
        }
        final int kind = parser.parse(buffer, offset, length);
        final boolean pfabric = FrameKind.PFABRIC_IP == kind || FrameKind.PFABRIC_UDP == kind;
        final long priority = pfabric ? parser.priority() :
            FrameKind.IPV4_OTHER == kind ? DEFAULT_IP_PRIORITY : CONTROL_PRIORITY;
        final long flowId = pfabric ? parser.flowId() : parser.flowHash();
        requeueTarget.enqueue(buffer, offset, length, length, priority, flowId, parser.dscp(), parser.pfabricFlags());
    }

    /**
     * Frames received that did not parse, for one reason.
     *
     * @param reason a {@link ParseReason} code.
     * @return the count since start; owner thread only.
     */
    public long malformed(final int reason)
    {
        return malformedByReason[reason];
    }

    /**
     * {@inheritDoc}
     */
    public void onPacket(final MutableDirectBuffer buffer, final int offset, final int length)
    {
        final SwitchPort port = ports[ingress];
        final long stampedNs = port.io().arrivalNs();
        arrivalNs = FramePort.UNKNOWN_ARRIVAL == stampedNs || stampedNs - receiveNs > 0 ? receiveNs : stampedNs;
        keepable = null != umemPorts[ingress];
        if (null != macTable)
        {
            learnAndSwitch(buffer, offset, length);
            return;
        }
        switch (parser.parse(buffer, offset, length))
        {
            case FrameKind.PFABRIC_IP, FrameKind.PFABRIC_UDP ->
                forward(buffer, offset, length, parser.priority(), parser.flowId());
            case FrameKind.IPV4_OTHER -> forward(buffer, offset, length, DEFAULT_IP_PRIORITY, parser.flowHash());
            case FrameKind.ARP -> answerArp(port, buffer, offset);
            case FrameKind.MALFORMED ->
            {
                malformedByReason[parser.reason()]++;
                port.counters().add(PortCounter.DROPPED_MALFORMED, 1);
            }
            default -> port.counters().add(PortCounter.DROPPED_UNSUPPORTED, 1);
        }
    }

    /**
     * {@inheritDoc}
     */
    public void onFrame(final DirectBuffer buffer, final int offset, final int length)
    {
        final SwitchPort port = ports[transmitting];
        if (queuesAddresses[transmitting])
        {
            final long address = buffer.getLong(offset);
            departing.parse(umem.frames(), (int)address, length);
            umemPorts[transmitting].transmitHeld(address, length);
        }
        else
        {
            port.io().transmit(buffer, offset, length);
            departing.parse(buffer, offset, length);
        }
        port.transmitted(departing.dscp(), length, departing.pfabricPayloadLength());
    }

    private void forward(
        final MutableDirectBuffer buffer, final int offset, final int length, final long priority, final long flowId)
    {
        final int route = table.route(parser.destinationAddress());
        if (ForwardingTable.NO_ROUTE == route)
        {
            ports[ingress].counters().add(PortCounter.DROPPED_NO_ROUTE, 1);
            return;
        }
        final int[] egress = table.ports(route);
        final int at;
        final int pathHint;
        if (1 == egress.length)
        {
            at = 0;
        }
        else if ((pathHint = parser.pathHint()) >= 0)
        {
            at = pathHint % egress.length;
        }
        else if (spray)
        {
            sprayCursor = sprayCursor + 1 == Integer.MAX_VALUE ? 0 : sprayCursor + 1;
            at = sprayCursor % egress.length;
        }
        else
        {
            final long mixed = flowId * 0x9E37_79B9_7F4A_7C15L;
            at = (int)((mixed >>> 33) % egress.length);
        }
        final int choice = egress[at];
        admit(ports[choice].linkUp() ? choice : upAlternative(egress, at), buffer, offset, length, priority, flowId);
    }

    /**
     * Queue a frame at a port, after releasing what the port's link would have sent by the time the frame arrived: when
     * the forwarder comes late, the frames that arrived meanwhile wait in the receive rings, and a port that had a
     * backlog would have kept sending while they arrived. So its pacer first makes up the time its queue waited until
     * the frame's arrival ({@link EgressPacer#onBackloggedRelease}; the arrival as the port's kernel stamped it, else
     * the duty cycle's start), and only then does the frame meet the queue's limit, which it would otherwise meet with
     * all of the late cycle's frames in the queue at once. A frame that finds the queue empty starts its backlog.
     */
    private void admit(
        final int index,
        final MutableDirectBuffer buffer,
        final int offset,
        final int length,
        final long priority,
        final long flowId)
    {
        if (ports[index].interfaceGone())
        {
            ports[index].counters().add(PortCounter.DROPPED_INTERFACE_GONE, 1);
            return;
        }
        final QueueDiscipline queue = ports[index].queue();
        if (!queue.isEmpty() && null != ports[index].pacer())
        {
            release(index, arrivalNs, receiveNs, true);
        }
        if (queue.isEmpty())
        {
            backlogStartNs[index] = arrivalNs;
        }
        if (queuesAddresses[index])
        {
            enqueueHeld(index, buffer, offset, length, priority, flowId, parser.dscp(), parser.pfabricFlags());
        }
        else
        {
            queue.enqueue(buffer, offset, length, length, priority, flowId, parser.dscp(), parser.pfabricFlags());
        }
    }

    /**
     * Queue a frame at a port of the shared UMEM by its address: the frame being received, as it is, if it is in the
     * UMEM and not yet queued elsewhere; else a copy in a free UMEM frame. A frame too long for the queue is offered
     * without a frame, for the queue to count as dropped.
     */
    private void enqueueHeld(
        final int index,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final long priority,
        final long flowId,
        final int dscp,
        final int pfabricFlags)
    {
        final QueueDiscipline queue = ports[index].queue();
        final long address;
        if (length > queue.maxFrameLength())
        {
            address = UmemFramePool.NO_FRAME;
        }
        else if (keepable)
        {
            keepable = false;
            address = umemPorts[ingress].keepReceived();
            ports[ingress].counters().add(PortCounter.FORWARDED_WITHOUT_COPY, 1);
        }
        else
        {
            address = umem.copyIn(buffer, offset, length);
            if (UmemFramePool.NO_FRAME == address)
            {
                ports[index].counters().add(PortCounter.DROPPED_NO_UMEM_FRAME, 1);
                return;
            }
        }
        frameAddress.putLong(0, address);
        queue.enqueue(frameAddress, 0, Long.BYTES, length, priority, flowId, dscp, pfabricFlags);
    }

    /**
     * The next equal-cost port after the chosen one (whose link is down) that has its link up, or the chosen one if
     * none has.
     */
    private int upAlternative(final int[] egress, final int at)
    {
        final int choice = egress[at];
        for (int step = 1; step < egress.length; step++)
        {
            final int candidate = egress[(at + step) % egress.length];
            if (ports[candidate].linkUp())
            {
                ports[choice].counters().add(PortCounter.REROUTED_AROUND_DOWN_LINK, 1);
                return candidate;
            }
        }
        return choice;
    }

    private void learnAndSwitch(final MutableDirectBuffer buffer, final int offset, final int length)
    {
        final int kind = parser.parse(buffer, offset, length);
        final long priority;
        final long flowId;
        switch (kind)
        {
            case FrameKind.PFABRIC_IP, FrameKind.PFABRIC_UDP ->
            {
                priority = parser.priority();
                flowId = parser.flowId();
            }
            case FrameKind.IPV4_OTHER ->
            {
                priority = DEFAULT_IP_PRIORITY;
                flowId = parser.flowHash();
            }
            case FrameKind.MALFORMED ->
            {
                malformedByReason[parser.reason()]++;
                ports[ingress].counters().add(PortCounter.DROPPED_MALFORMED, 1);
                return;
            }
            default ->
            {
                priority = CONTROL_PRIORITY;
                flowId = 0;
            }
        }
        macTable.learn(EthernetFlyweight.readMac(buffer, offset + EthernetFlyweight.SOURCE_MAC_FIELD_OFFSET), ingress);
        final long destination = EthernetFlyweight.readMac(buffer, offset);
        final int egress = 0 != (destination & MULTICAST_BIT) ? MacTable.UNKNOWN : macTable.port(destination);
        if (MacTable.UNKNOWN == egress)
        {
            keepable = false;
            for (int i = 0; i < ports.length; i++)
            {
                if (i != ingress)
                {
                    admit(i, buffer, offset, length, priority, flowId);
                }
            }
            ports[ingress].counters().add(PortCounter.FLOODED_FRAMES, 1);
        }
        else if (egress != ingress)
        {
            admit(egress, buffer, offset, length, priority, flowId);
        }
    }

    private void answerArp(final SwitchPort port, final MutableDirectBuffer buffer, final int offset)
    {
        arp.wrap(buffer, offset + EthernetFlyweight.HEADER_LENGTH);
        final int route = ArpFlyweight.OPERATION_REQUEST == arp.operation() && arp.isIpv4OverEthernet() ?
            table.route(arp.targetAddress()) : ForwardingTable.NO_ROUTE;
        if (ForwardingTable.NO_ROUTE == route)
        {
            port.counters().add(PortCounter.ARP_IGNORED, 1);
            return;
        }
        final long requesterMac = arp.senderMac();
        final int requesterAddress = arp.senderAddress();
        final int targetAddress = arp.targetAddress();
        final long hostMac = table.mac(route);
        reply.setMemory(0, reply.capacity(), (byte)0);
        ethernet.wrap(reply, 0)
            .destinationMac(requesterMac)
            .sourceMac(hostMac)
            .etherType(EthernetFlyweight.ETHERTYPE_ARP);
        arp.wrap(reply, EthernetFlyweight.HEADER_LENGTH)
            .ipv4OverEthernet()
            .operation(ArpFlyweight.OPERATION_REPLY)
            .senderMac(hostMac)
            .senderAddress(targetAddress)
            .targetMac(requesterMac)
            .targetAddress(requesterAddress);
        if (port.queue().isEmpty())
        {
            backlogStartNs[ingress] = arrivalNs;
        }
        final int replyLength = Math.max(ARP_FRAME_LENGTH, QueueDiscipline.MIN_FRAME_LENGTH);
        if (queuesAddresses[ingress])
        {
            keepable = false;
            enqueueHeld(ingress, reply, 0, replyLength, CONTROL_PRIORITY, 0, 0, 0);
        }
        else
        {
            port.queue().enqueue(reply, 0, replyLength, CONTROL_PRIORITY, 0);
        }
        port.counters().add(PortCounter.ARP_REPLIES, 1);
    }

    private int transmit(final int index, final long nowNs)
    {
        final int sent = release(index, nowNs, nowNs, false);
        ports[index].io().flush();
        return sent;
    }

    /**
     * Hand the transmit ring the frames a port's pacer lets go by {@code pacerNowNs} (an arriving frame's time when
     * making room for it, else now); they leave at the port's next flush, and its departure monitor counts them as
     * leaving at {@code nowNs}, which only moves forward, with a backlog behind them while a frame waits to be queued
     * ({@code frameArriving}) or the queue holds one. At most
     * {@link #BATCH_FRAMES} in a duty cycle, counting those released to make room for arriving frames: a port paced
     * faster than the forwarder can send then keeps a backlog, which its departures show, instead of passing frames
     * straight from the receive rings to the transmit ring.
     */
    private int release(final int index, final long pacerNowNs, final long nowNs, final boolean frameArriving)
    {
        final SwitchPort port = ports[index];
        final QueueDiscipline queue = port.queue();
        final EgressPacer pacer = port.pacer();
        transmitting = index;
        int sent = 0;
        while (releasedThisCycle[index] < BATCH_FRAMES && !queue.isEmpty() && port.io().canTransmit() &&
            (null == pacer || pacer.mayRelease(pacerNowNs)))
        {
            final int length = queue.dequeue(this);
            if (null != pacer)
            {
                pacer.onBackloggedRelease(pacerNowNs, length, backlogStartNs[index]);
                if (MONITOR_DEPARTURES)
                {
                    port.departures()
                        .onDeparture(nowNs, pacer.wireTimeNs(length), frameArriving || !queue.isEmpty());
                }
            }
            sent++;
            releasedThisCycle[index]++;
        }
        return sent;
    }
}
