package io.pfabric.hostd.transport;

import io.pfabric.common.topology.TrafficClasses;
import io.pfabric.common.wire.PfabricHeaderFlyweight;
import io.pfabric.hostd.io.PacketIo;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * One host's pFabric transport, run to completion on one thread as an Agrona {@link Agent}: it takes new flows from
 * the application, packets from its {@link PacketIo} and expired timeouts from a heap of deadlines, and among the flows
 * whose window has room sends the next packet of the one with the smallest priority number (SRPT at the source, ties
 * in arrival order; with {@link #trafficClasses traffic classes}, within the class whose turn it is), paced at the
 * host's link rate so that the NIC's queue stays short and the priority order is real. Every data packet is
 * answered at once with an ACK (priority 0) carrying the cumulative ack, SACK blocks and this host's
 * {@link #incarnation()} (unless {@link TransportConfiguration#segmentsPerAck()}, an option, lets in-order packets
 * share one). A flow whose ACKs change incarnation after some of its bytes were acknowledged fails
 * with {@link IncompleteFlowException#RECEIVER_RESTARTED}: the receiver restarted and its new start never gets those
 * bytes.
 * While a flow waits only for the pacer, {@link #doWork()} reports work so that an idle strategy keeps polling.
 * <p>
 * {@link #send(int, long)} and {@link #send(int, byte[])} may be called from any thread; the returned future is
 * completed on the transport's thread (use the {@code ...Async} methods to leave it). Everything else belongs to the
 * transport's thread.
 * <p>
 * Its parts do one job each and the transport wires them and runs the duty cycle: a {@code CommandQueue} (sends and
 * settings from other threads), a {@code FlowTable} (the flows being sent, by slot), a {@code SendScheduler} (their
 * SRPT order and their timeouts), a {@code Transmitter} (a round of sending, under the {@link Admission}), a
 * {@code PacketWriter} and an {@code Egress} (each packet written, then handed to the I/O at the link's pace), an
 * {@code InboundReader} (each packet received, checked) and a {@code ReceiverDemux} (data to its flow's receiver,
 * answered with an ACK).
 */
public final class HostTransport implements Agent, PacketIo.InboundHandler
{
    /**
     * Most packets taken from the I/O, and most timeouts handled, per duty cycle.
     */
    public static final int BATCH = 32;

    /**
     * Most sends waiting for the transport's thread.
     */
    public static final int COMMAND_QUEUE_CAPACITY = 1 << 16;

    /**
     * Completed flows remembered, so that a late retransmission is still acknowledged.
     */
    public static final int COMPLETED_FLOWS_REMEMBERED = 1 << 16;

    /**
     * How long, by default, a flow this host receives may go without a packet, not complete, before its state is
     * given up ({@link #receiverIdleTimeoutNs(long)}).
     */
    public static final long RECEIVER_IDLE_TIMEOUT_NS = 600_000_000_000L;

    private TransportConfiguration configuration;
    private final int localHost;
    private final PacketIo io;
    private final NanoClock clock;
    private final TransportListener listener;
    private final TransportCounters counters = new TransportCounters();
    private final CommandQueue commands = new CommandQueue();
    private final FlowTable flows = new FlowTable();
    private final SendScheduler scheduler = new SendScheduler();
    private final InboundReader inbound = new InboundReader();
    private final Egress egress;
    private final Transmitter transmitter;
    private final ReceiverDemux receivers;
    private Admission admission;
    private long flowCounter;
    private int incarnation;
    private long nowNs;
    private long deadlineEpochNs;
    private final long linkRateBitsPerSec;
    private boolean closed;

    /**
     * How far ahead of the wire a host on a real network may hand packets to the kernel ({@code HostDaemon}'s
     * transports): they leave in micro-batches, one thread wake-up per half of it rather than one per packet. A model
     * on virtual time (the simulator) paces exactly, with none.
     * <p>
     * Half of it is how late the thread may wake before its link goes idle, so it is set by how late a sleeping thread
     * wakes: on the 2-core VM the project is measured on, 26 µs at the median and 44 µs at the 99th percentile after
     * a 100 µs sleep. With 50 µs a sending host at 1 Gb/s woke later than its 25 µs of slack in 57% of its waits and
     * left its link idle for about half of a 10 MB flow; with 150 µs (12 full frames at 1 Gb/s, one at 100 Mb/s) it
     * rarely does (hostd's README, "A lone flow").
     */
    public static final long PACING_LEAD_NS = 150_000;

    /**
     * The largest host index a flow id holds (16 bits).
     */
    public static final int MAX_HOST_INDEX = 0xFFFF;

    /**
     * A transport for one host that paces exactly: each packet leaves when the previous one has left the wire.
     *
     * @param configuration      window, timeout and priority settings.
     * @param localHost          this host's index in the topology (the high 16 bits of its flow ids).
     * @param linkRateBitsPerSec the host link's rate, at which data leaves; 0 for unpaced.
     * @param wireOverheadLength bytes each packet takes on the wire besides the pFabric header and payload (Ethernet,
     *                           IPv4 and, over UDP, the UDP header; not the FCS).
     * @param io                 carries the packets.
     * @param clock              time source.
     * @param listener           told of messages and finished flows.
     * @param keepPayload        whether received messages are assembled and handed to the listener.
     */
    public HostTransport(
        final TransportConfiguration configuration,
        final int localHost,
        final long linkRateBitsPerSec,
        final int wireOverheadLength,
        final PacketIo io,
        final NanoClock clock,
        final TransportListener listener,
        final boolean keepPayload)
    {
        this(configuration, localHost, linkRateBitsPerSec, 0, wireOverheadLength, io, clock, listener, keepPayload);
    }

    /**
     * A transport for one host.
     *
     * @param configuration      window, timeout and priority settings.
     * @param localHost          this host's index in the topology (the high 16 bits of its flow ids).
     * @param linkRateBitsPerSec the host link's rate, at which data leaves; 0 for unpaced.
     * @param pacingLeadNs       how far ahead of the wire packets may be handed to the I/O, such as
     *                           {@link #PACING_LEAD_NS}; 0 to pace exactly.
     * @param wireOverheadLength bytes each packet takes on the wire besides the pFabric header and payload (Ethernet,
     *                           IPv4 and, over UDP, the UDP header; not the FCS).
     * @param io                 carries the packets.
     * @param clock              time source.
     * @param listener           told of messages and finished flows.
     * @param keepPayload        whether received messages are assembled and handed to the listener.
     */
    public HostTransport(
        final TransportConfiguration configuration,
        final int localHost,
        final long linkRateBitsPerSec,
        final long pacingLeadNs,
        final int wireOverheadLength,
        final PacketIo io,
        final NanoClock clock,
        final TransportListener listener,
        final boolean keepPayload)
    {
        if (localHost < 0 || localHost > MAX_HOST_INDEX)
        {
            throw new IllegalArgumentException("host index must be 0 to " + MAX_HOST_INDEX + ": " + localHost);
        }
        this.configuration = configuration;
        this.localHost = localHost;
        this.io = io;
        this.clock = clock;
        this.listener = listener;
        final PacketWriter writer = new PacketWriter();
        this.egress = new Egress(io, writer.buffer(), linkRateBitsPerSec, pacingLeadNs, wireOverheadLength, counters);
        this.linkRateBitsPerSec = linkRateBitsPerSec;
        this.transmitter = new Transmitter(flows, scheduler, writer, egress, counters);
        this.receivers = new ReceiverDemux(writer, egress, listener, counters, keepPayload);
        this.receivers.idleTimeoutNs(RECEIVER_IDLE_TIMEOUT_NS);
        this.nowNs = clock.nanoTime();
        this.deadlineEpochNs = nowNs;
    }

    /**
     * Send a message of a given size whose content does not matter (a workload's flow): zeros on the wire.
     *
     * @param destinationHost index of the receiving host.
     * @param sizeBytes       1 to 2^32 - 1.
     * @return completed with the flow's record when its last byte is acknowledged.
     */
    public CompletableFuture<FlowRecord> send(final int destinationHost, final long sizeBytes)
    {
        return enqueue(destinationHost, sizeBytes, null, 0, 0);
    }

    /**
     * Send a message of a given size whose content does not matter, its packets marked with a DSCP: at switches with
     * traffic classes the DSCP chooses the flow's class.
     *
     * @param destinationHost index of the receiving host.
     * @param sizeBytes       1 to 2^32 - 1.
     * @param dscp            IPv4 DSCP of the flow's data packets, 0 to 63.
     * @return completed with the flow's record when its last byte is acknowledged.
     */
    public CompletableFuture<FlowRecord> send(final int destinationHost, final long sizeBytes, final int dscp)
    {
        return enqueue(destinationHost, sizeBytes, null, 0, dscp);
    }

    /**
     * Send a message, its packets marked with a DSCP.
     *
     * @param destinationHost index of the receiving host.
     * @param payload         the message, 1 byte or more; not to be changed until the future completes.
     * @param dscp            IPv4 DSCP of the flow's data packets, 0 to 63.
     * @return completed with the flow's record when its last byte is acknowledged.
     */
    public CompletableFuture<FlowRecord> send(final int destinationHost, final byte[] payload, final int dscp)
    {
        return enqueue(destinationHost, payload.length, payload, 0, dscp);
    }

    /**
     * Send a message.
     *
     * @param destinationHost index of the receiving host.
     * @param payload         the message, 1 byte or more; not to be changed until the future completes.
     * @return completed with the flow's record when its last byte is acknowledged.
     */
    public CompletableFuture<FlowRecord> send(final int destinationHost, final byte[] payload)
    {
        return enqueue(destinationHost, payload.length, payload, 0, 0);
    }

    /**
     * Send a message of a given size whose content does not matter, with a DSCP and a deadline: the time it has to
     * complete from now. Under {@link PriorityPolicy#DEADLINE} its packets carry the deadline (pFabric-EDF); under
     * every policy its record says whether it met it.
     *
     * @param destinationHost index of the receiving host.
     * @param sizeBytes       1 to 2^32 - 1.
     * @param dscp            IPv4 DSCP of the flow's data packets, 0 to 63.
     * @param deadlineNs      the time it has to complete from now; 0 for none.
     * @return completed with the flow's record when its last byte is acknowledged.
     */
    public CompletableFuture<FlowRecord> send(
        final int destinationHost, final long sizeBytes, final int dscp, final long deadlineNs)
    {
        return enqueue(destinationHost, sizeBytes, null, deadlineNs, dscp);
    }

    /**
     * Send a message with a DSCP and a deadline: the time it has to complete from now.
     *
     * @param destinationHost index of the receiving host.
     * @param payload         the message, 1 byte or more; not to be changed until the future completes.
     * @param dscp            IPv4 DSCP of the flow's data packets, 0 to 63.
     * @param deadlineNs      the time it has to complete from now; 0 for none.
     * @return completed with the flow's record when its last byte is acknowledged.
     */
    public CompletableFuture<FlowRecord> send(
        final int destinationHost, final byte[] payload, final int dscp, final long deadlineNs)
    {
        return enqueue(destinationHost, payload.length, payload, deadlineNs, dscp);
    }

    /**
     * Set the deadline epoch: the time deadlines count their microseconds from in packets. Switches compare the
     * deadlines of different hosts, so the hosts of one fabric must share it (the start of a workload run, on a
     * clock they share); by default it is the transport's start. Any thread; flows started after it use it.
     *
     * @param epochNs a time on the transport's clock.
     * @return false if the command queue is full.
     */
    public boolean deadlineEpochNs(final long epochNs)
    {
        return commands.offer(() -> deadlineEpochNs = epochNs);
    }

    /**
     * Use other settings for flows started from now on (flows in progress keep theirs): for instance the timeout
     * once the base RTT has been measured. Any thread.
     *
     * @param newConfiguration the settings.
     * @return false if the command queue is full.
     */
    public boolean reconfigure(final TransportConfiguration newConfiguration)
    {
        return commands.offer(() -> configuration = newConfiguration);
    }

    /**
     * Put sending under a controller's admission, or back to plain pFabric with null. Transport thread only, before
     * or between duty cycles.
     *
     * @param admission consulted before each data packet, or null.
     */
    public void admission(final Admission admission)
    {
        this.admission = admission;
    }

    /**
     * The admission in force.
     *
     * @return it, or null for plain pFabric.
     */
    public Admission admission()
    {
        return admission;
    }

    /**
     * Per destination, the packets the flows toward it could send now (their window's room, see
     * {@link FlowSender#sendablePackets()}) and the flows toward it not yet complete. Scans every flow: for reports,
     * not the data path. Transport thread only.
     *
     * @param sendablePackets filled, indexed by host; at least as long as the topology's host count.
     * @param activeFlows     filled, indexed by host; same length.
     */
    public void destinationBacklog(final int[] sendablePackets, final int[] activeFlows)
    {
        flows.destinationBacklog(sendablePackets, activeFlows);
    }

    /**
     * The settings new flows get.
     *
     * @return the settings; transport thread only.
     */
    public TransportConfiguration configuration()
    {
        return configuration;
    }

    /**
     * Give up a flow its application no longer waits for: unless it has completed, it stops sending, the listener is
     * told of it as incomplete and its future fails with {@link IncompleteFlowException#ABANDONED}. Any thread.
     *
     * @param future what a {@code send} of this transport returned for the flow.
     * @return false if the command could not be queued (too many commands waiting).
     */
    public boolean abandon(final CompletableFuture<FlowRecord> future)
    {
        if (future.isDone())
        {
            return true;
        }
        final boolean queued = commands.offer(() -> giveUp(future));
        io.wakeup();
        return queued;
    }

    private void giveUp(final CompletableFuture<FlowRecord> future)
    {
        final int slot = flows.slotOf(future);
        if (FlowTable.NO_SLOT != slot)
        {
            finish(slot, -1, IncompleteFlowException.ABANDONED);
        }
    }

    private CompletableFuture<FlowRecord> enqueue(
        final int destinationHost, final long sizeBytes, final byte[] payload, final long deadlineNs, final int dscp)
    {
        final CompletableFuture<FlowRecord> future = new CompletableFuture<>();
        if (destinationHost < 0 || destinationHost == localHost)
        {
            future.completeExceptionally(
                new IllegalArgumentException("cannot send to host " + destinationHost + " from host " + localHost));
            return future;
        }
        if (sizeBytes < 1 || sizeBytes > PfabricHeaderFlyweight.MAX_PRIORITY)
        {
            future.completeExceptionally(new IllegalArgumentException("message size out of range: " + sizeBytes));
            return future;
        }
        if (dscp < 0 || dscp > FlowSender.MAX_DSCP)
        {
            future.completeExceptionally(new IllegalArgumentException("DSCP out of range (0 to 63): " + dscp));
            return future;
        }
        if (deadlineNs < 0)
        {
            future.completeExceptionally(new IllegalArgumentException("a deadline is positive, or 0 for none: " +
                deadlineNs));
            return future;
        }
        final long arrivalNs = clock.nanoTime();
        if (!commands.offer(() -> start(destinationHost, sizeBytes, payload, deadlineNs, dscp, arrivalNs, future)))
        {
            future.completeExceptionally(new IllegalStateException("too many sends waiting for the transport"));
        }
        io.wakeup();
        return future;
    }

    private void start(
        final int destinationHost,
        final long sizeBytes,
        final byte[] payload,
        final long deadlineNs,
        final int dscp,
        final long arrivalNs,
        final CompletableFuture<FlowRecord> future)
    {
        if (closed)
        {
            future.completeExceptionally(new IllegalStateException("the transport is closed"));
            return;
        }
        final long flowId = PfabricHeaderFlyweight.flowId(localHost, incarnation, flowCounter++);
        final FlowSender sender = new FlowSender(configuration, flowId, destinationHost, sizeBytes, arrivalNs, 0, dscp)
            .deadline(deadlineNs, deadlineEpochNs, linkRateBitsPerSec);
        final int slot = flows.add(sender, payload, future);
        scheduler.refresh(slot, sender);
        counters.flowsStarted++;
    }

    /**
     * Set the transport's incarnation: the 16 bits of its flow ids that tell its flows from those of an earlier start
     * of the same host ({@link PfabricHeaderFlyweight#flowId(int, int, long)}), so that a receiver that still
     * remembers a flow of the earlier start never takes a new flow for it. Before the first flow; 0 unless set (the
     * simulator, and tests that run one start of each host).
     *
     * @param newIncarnation its low 16 bits are used.
     * @return this.
     */
    public HostTransport incarnation(final int newIncarnation)
    {
        incarnation = newIncarnation & 0xFFFF;
        receivers.incarnation(incarnation);
        return this;
    }

    /**
     * Share the host's link between traffic classes as a {@code pfabric-classes} switch port shares its own: among
     * the flows that may send, deficit round robin over bytes between their classes (a flow's class is its DSCP's),
     * each class's quantum its weight times the longest packet the I/O carries, and SRPT within the class. Without
     * classes (null, or a single class: the default) the host sends by SRPT over all its flows. Transport thread
     * only, before the first flow.
     *
     * @param classes DSCP to class and the classes' weights, or null.
     * @return this.
     */
    public HostTransport trafficClasses(final TrafficClasses classes)
    {
        scheduler.trafficClasses(classes, egress.wireLength(io.maxPacketLength()));
        return this;
    }

    /**
     * Number of traffic classes the host's link is shared between.
     *
     * @return 1 without traffic classes.
     */
    public int trafficClassCount()
    {
        return scheduler.classCount();
    }

    /**
     * Set how long a flow this host receives may go without a packet, not complete, before its state is given up
     * and a late packet of it is dropped ({@link TransportCounters#receiversExpired()}); a sender keeps sending at
     * least a probe per timeout while its flow is in progress, so only a flow its sender gave up (or that its sender
     * has starved for that long) is given up. {@link #RECEIVER_IDLE_TIMEOUT_NS} unless set. Transport thread only,
     * before the first duty cycle.
     *
     * @param idleTimeoutNs positive.
     * @return this.
     */
    public HostTransport receiverIdleTimeoutNs(final long idleTimeoutNs)
    {
        if (idleTimeoutNs <= 0)
        {
            throw new IllegalArgumentException("receiver idle timeout must be positive: " + idleTimeoutNs + " ns");
        }
        receivers.idleTimeoutNs(idleTimeoutNs);
        return this;
    }

    /**
     * The transport's incarnation.
     *
     * @return 0 to 65,535.
     */
    public int incarnation()
    {
        return incarnation;
    }

    /**
     * {@inheritDoc}
     */
    public String roleName()
    {
        return "hostd-transport";
    }

    /**
     * {@inheritDoc}
     */
    public int doWork()
    {
        int work = poll();
        if (0 == work && maySendNow(nowNs))
        {
            work = 1;
        }
        return work;
    }

    /**
     * One round of duties at the clock's time: commands, inbound packets, expired timers, paced transmissions.
     * Unlike {@link #doWork()} it counts only what was done, so that a driver on virtual time (the simulator) can
     * tell when to move the clock on to {@link #nextDeadlineNs()}. Transport thread only.
     *
     * @return commands, packets and timers handled and packets sent.
     */
    public int poll()
    {
        nowNs = clock.nanoTime();
        int work = commands.run(BATCH);
        work += io.poll(this, BATCH);
        return work + sendDue();
    }

    /**
     * Send the ACKs that wait for the end of the receive batch, expire timers, let the admission control act and
     * send what may go, then flush the I/O.
     *
     * @return ACKs, timers handled, admission work and packets sent.
     */
    private int sendDue()
    {
        int work = receivers.sendOwedAcks(nowNs);
        work += receivers.expireIdle(nowNs);
        work += expireTimeouts();
        if (null != admission)
        {
            work += admission.poll(nowNs, this);
        }
        work += transmitter.transmit(nowNs, admission);
        io.flush();
        return work;
    }

    private boolean maySendNow(final long timeNs)
    {
        return scheduler.hasReady() && !transmitter.heldBack() && egress.waitNs(timeNs) <= 0;
    }

    /**
     * One step of a dedicated transport thread, with one I/O system call: {@link #step()}, then, if more may go at
     * once, a look at the I/O without waiting, else a wait in it (handling the packets that arrive) until a packet, a
     * send, the pacer or the earliest timeout, at most the given time. What the packets handled call for (ACKs, the
     * next data) leaves at the next step. Transport thread only.
     *
     * @param maxWaitNs longest wait.
     */
    public void runOnce(final long maxWaitNs)
    {
        final long waitNs = step();
        if (0 == waitNs)
        {
            io.poll(this, BATCH);
        }
        else if (transmitter.heldBack())
        {
            admission.awaitHeldBack(nowNs, maxWaitNs);
        }
        else
        {
            io.await(this, Math.min(waitNs, maxWaitNs));
        }
    }

    /**
     * The part of a step that needs no I/O wait: commands, expired timers and the packets that may go now, flushed;
     * when a timer has expired, the I/O is looked at without waiting first, so that an ACK that arrived in time is
     * not taken for lost because the thread came late. A thread that serves several transports runs this for each of
     * them and then waits once in their shared I/O for the shortest of the times returned. Transport thread only.
     *
     * @return 0 if more is to be done at once (look at the I/O without waiting); else how long this transport may
     *         wait for a packet or a command: until the pacer lets the next packet go or the earliest timeout, or
     *         {@link Long#MAX_VALUE} if nothing is due (or, under an admission that holds sending back, until the
     *         admission's own wait, see {@link Admission#awaitHeldBack}).
     */
    public long step()
    {
        nowNs = clock.nanoTime();
        commands.run(BATCH);
        if (timeoutDue())
        {
            io.poll(this, BATCH);
        }
        sendDue();
        if (!commands.isEmpty() || maySendNow(clock.nanoTime()))
        {
            return 0;
        }
        final long nextNs = deadlineNs(scheduler.hasReady() && !transmitter.heldBack());
        return Long.MAX_VALUE == nextNs ? Long.MAX_VALUE : Math.max(1, nextNs - nowNs);
    }

    /**
     * Whether a retransmission deadline has passed. A thread that comes back late (descheduled, or woken late from its
     * wait) reads the packets that arrived meanwhile before it expires timers, so that its own lateness, with the ACKs
     * waiting in its socket, does not time its flows out.
     */
    private boolean timeoutDue()
    {
        return scheduler.hasTimers() && scheduler.earliestDeadlineNs() - nowNs <= 0;
    }

    /**
     * The earliest time at which this transport has something to do unless a packet or a command comes first: the
     * pacer's next departure while a flow may send, or the earliest retransmission deadline. Transport thread only.
     *
     * @return nanoseconds on the transport's clock, or {@link Long#MAX_VALUE} if nothing is due.
     */
    public long nextDeadlineNs()
    {
        return deadlineNs(scheduler.hasReady());
    }

    private long deadlineNs(final boolean pacerDue)
    {
        long next = Long.MAX_VALUE;
        if (pacerDue)
        {
            next = egress.nextDepartureNs(nowNs);
        }
        if (scheduler.hasTimers())
        {
            next = Math.min(next, scheduler.earliestDeadlineNs());
        }
        return next;
    }

    /**
     * {@inheritDoc}
     */
    public void onPacket(final int sourceHost, final DirectBuffer buffer, final int offset, final int length)
    {
        nowNs = clock.nanoTime();
        counters.packetsReceived++;
        if (!inbound.read(buffer, offset, length))
        {
            counters.malformedPackets++;
            return;
        }
        switch (inbound.header().type())
        {
            case PfabricHeaderFlyweight.TYPE_DATA, PfabricHeaderFlyweight.TYPE_PROBE ->
                receivers.onDataOrProbe(sourceHost, inbound, configuration, nowNs);
            case PfabricHeaderFlyweight.TYPE_ACK -> onAck();
            default -> counters.malformedPackets++;
        }
    }

    private void onAck()
    {
        final PfabricHeaderFlyweight header = inbound.header();
        final int slot = flows.slotOf(header.flowId());
        if (FlowTable.NO_SLOT == slot)
        {
            counters.staleAcks++;
            return;
        }
        final FlowSender sender = flows.sender(slot);
        final int sackCount = inbound.readSackBlocks();
        if (InboundReader.MALFORMED == sackCount)
        {
            counters.malformedPackets++;
            return;
        }
        counters.acksReceived++;
        if (header.incarnationFlag() && sender.receiverRestarted(header.receiverIncarnation()))
        {
            counters.receiverRestarts++;
            finish(slot, -1, IncompleteFlowException.RECEIVER_RESTARTED);
            return;
        }
        sender.onAck(nowNs, header.ack(), sackCount, inbound.sackStarts(), inbound.sackEnds());
        if (sender.isComplete())
        {
            finish(slot, sender.completedNs(), null);
        }
        else
        {
            scheduler.refresh(slot, sender);
        }
    }

    /**
     * Handle the retransmission timeouts that are due, earliest first: each flow's deadline is in a heap, so a
     * deadline is met at the first duty cycle at or after it, however far the clock moved since the last one.
     */
    private int expireTimeouts()
    {
        int expired = 0;
        while (expired < BATCH)
        {
            final int slot = scheduler.takeExpired(nowNs);
            if (SendScheduler.NONE == slot)
            {
                break;
            }
            final FlowSender sender = flows.sender(slot);
            if (sender.isTimerArmed() && sender.timeoutDeadlineNs() - nowNs <= 0)
            {
                sender.onTimeout(nowNs);
                counters.timeouts++;
            }
            scheduler.refresh(slot, sender);
            expired++;
        }
        return expired;
    }

    private void finish(final int slot, final long endNs, final String reason)
    {
        final FlowSender sender = flows.sender(slot);
        scheduler.remove(slot);
        final FlowRecord record = new FlowRecord(sender.flowId(), localHost, sender.destinationHost(),
            sender.sizeBytes(), sender.startNs(), endNs, sender.timeouts(), sender.retransmittedBytes(),
            sender.deadlineNs());
        final CompletableFuture<FlowRecord> future = flows.remove(slot);
        if (record.isComplete())
        {
            counters.flowsCompleted++;
        }
        listener.onFlowFinished(record);
        if (record.isComplete())
        {
            future.complete(record);
        }
        else
        {
            future.completeExceptionally(new IncompleteFlowException(record, reason));
        }
    }

    /**
     * Stop: every flow not yet complete is reported to the listener as incomplete and its future fails with an
     * {@link IncompleteFlowException} ({@link IncompleteFlowException#TRANSPORT_CLOSED}); sends still waiting fail
     * too. Transport thread only, after the last duty
     * cycle.
     */
    public void onClose()
    {
        closed = true;
        for (final int slot : flows.occupiedSlots())
        {
            finish(slot, -1, IncompleteFlowException.TRANSPORT_CLOSED);
        }
        commands.runAll();
    }

    /**
     * Flows this host is sending.
     *
     * @return the count; transport thread only.
     */
    public int activeFlows()
    {
        return flows.size();
    }

    /**
     * Flows this host is receiving and holds state for (not yet complete, not given up).
     *
     * @return the count; transport thread only.
     */
    public int activeReceivers()
    {
        return receivers.activeFlows();
    }

    /**
     * Visit each active sender, for reports; transport thread only.
     *
     * @param visitor given each one.
     */
    public void forEachSender(final Consumer<FlowSender> visitor)
    {
        flows.forEach(visitor);
    }

    /**
     * The transport's counters.
     *
     * @return the counters, written by the transport's thread.
     */
    public TransportCounters counters()
    {
        return counters;
    }

    /**
     * This host's index.
     *
     * @return the index.
     */
    public int localHost()
    {
        return localHost;
    }
}
