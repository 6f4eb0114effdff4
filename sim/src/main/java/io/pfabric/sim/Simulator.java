package io.pfabric.sim;

import io.pfabric.common.wire.EthernetFlyweight;
import io.pfabric.common.wire.Ipv4Flyweight;
import io.pfabric.common.wire.PfabricHeaderFlyweight;
import io.pfabric.hostd.transport.Admission;
import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.hostd.transport.HostTransport;
import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.workload.WorkloadTrace;
import io.pfabric.dataplane.pacer.EgressPacer;
import io.pfabric.common.topology.DisciplineSpec;
import io.pfabric.dataplane.queue.EcnQueue;
import io.pfabric.dataplane.queue.PiasQueue;
import io.pfabric.dataplane.queue.QueueCounter;
import io.pfabric.dataplane.queue.QueueDiscipline;
import io.pfabric.hostd.transport.PiasThresholds;
import io.pfabric.sim.pdq.PdqSettings;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CancellationException;

/**
 * A packet-level discrete-event simulation of a leaf-spine or fat-tree fabric on virtual nanoseconds that runs the
 * project's own code: every host is hostd's {@link HostTransport} (its window, timeouts, SACK, probe mode, SRPT scheduler and NIC
 * pacer) on a virtual clock, and every switch port is switchd's {@link QueueDiscipline} drained at its line rate by
 * switchd's {@link EgressPacer}. Links are store-and-forward with a rate and a one-way delay; a leaf sprays each
 * packet for another leaf over a uniformly random spine, and a fat-tree's edge and aggregation switches each packet
 * going up over a uniformly random uplink (seeded, so a run is deterministic).
 * <p>
 * A packet on the wire is what hostd's raw IPv4 mode sends: Ethernet and IPv4 headers (34 bytes), the pFabric
 * header (32 bytes, more with SACK blocks) and the payload, plus 24 bytes of FCS, preamble and gap; a full 1460-byte
 * segment takes 1,550 bytes of wire time. In the buffer the Ethernet and IPv4 header bytes hold the simulator's
 * routing (destination and source host) and the frame's handle in the simulator's pool. A queue stores only the
 * handle ({@link QueueDiscipline#enqueue(DirectBuffer, int, int, int, long, long, int)}), or the Ethernet and IPv4
 * headers where it marks ECN, and accounts each frame at its real length, so that a hop costs the same whatever the
 * frame's length; the pFabric header's priority and flow id, and the DSCP the host marked the frame with, are read
 * once, when the host sends the frame, and a queue of pfabric-classes takes the frame's class from that DSCP.
 * <p>
 * A port's end of transmission is an event only when a frame waits for it: the port takes that event's place in the
 * order of events when its transmission starts, and schedules it there once a frame is queued behind. A frame that
 * finds its port idle and the queue empty passes through the queue ({@link QueueDiscipline#passThrough(int)}), which
 * would have buffered it and handed it straight back.
 */
public final class Simulator
{
    private static final int FLOW_START = 1;
    private static final int HOST_WAKE = 2;
    private static final int SWITCH_ARRIVAL = 3;
    private static final int PORT_FREE = 4;
    private static final int HOST_ARRIVAL = 5;
    private static final int QUEUE_SAMPLE = 6;
    private static final int CONTROL_TICK = 7;
    private static final int TIER_SAMPLE = 8;

    /**
     * Bytes before the pFabric header in a simulated frame: Ethernet and IPv4.
     */
    public static final int FRAME_OVERHEAD = EthernetFlyweight.HEADER_LENGTH + Ipv4Flyweight.HEADER_LENGTH;

    private static final int MAX_POLLS_PER_WAKE = 100_000;
    private static final long PROGRESS_CHECK_MASK = (1 << 16) - 1;

    /**
     * What a run produced.
     *
     * @param records         each flow's record by its index in the trace, null if it never completed.
     * @param endNs           virtual time at the end.
     * @param events          events processed.
     * @param droppedPackets  packets dropped by switch queues.
     * @param rankInversions  packets switch queues sent while a more urgent packet waited in the same queue.
     * @param sentPackets     packets the hosts sent (data, ACKs and probes).
     * @param receivedPackets packets that reached a host.
     * @param connectionsOpened TCP or DCTCP connections opened, with a handshake, because every connection of a pair
     *                          was busy (0 for the other schemes).
     */
    public record Result(FlowRecord[] records, long endNs, long events, long droppedPackets, long rankInversions,
        long sentPackets, long receivedPackets, long connectionsOpened)
    {
    }

    /**
     * What the hosts run.
     */
    public enum Scheme
    {
        /**
         * hostd's transport, windowed, on pFabric queues.
         */
        PFABRIC,
        /**
         * hostd's transport without a window, on pFabric queues.
         */
        LINERATE,
        /**
         * Modelled TCP NewReno with SACK on drop-tail queues, on connections as the paper's scripts keep them
         * ({@link SimTcp}): persistent, {@value SimTcp#SCRIPTS_CONNECTIONS_PER_PAIR} per pair, a new one opened with a
         * handshake when they are all busy.
         */
        TCP,
        /**
         * Modelled DCTCP on ECN-marking queues, on connections as for {@link #TCP}.
         */
        DCTCP,
        /**
         * {@link #TCP} with a fresh, open connection per flow.
         */
        TCP_PER_FLOW,
        /**
         * {@link #DCTCP} with a fresh, open connection per flow.
         */
        DCTCP_PER_FLOW,
        /**
         * PIAS: modelled DCTCP, on connections as for {@link #TCP}, whose data packets carry a DSCP chosen by the
         * bytes their flow has sent before them ({@link PiasThresholds}), on PIAS queues (strict priority by DSCP,
         * ECN marking per queue).
         */
        PIAS,
        /**
         * hostd's transport under a central controller: each host's transport gets an {@link Admission} from the
         * {@link SimControl} given to the constructor.
         */
        CONTROLLED,
        /**
         * PDQ ({@link PdqSettings}): each host's flows are {@link io.pfabric.sim.pdq.PdqSender}s and each link runs a
         * {@link io.pfabric.sim.pdq.PdqLinkController}, on drop-tail queues.
         */
        PDQ;

        /**
         * Whether the hosts run the modelled TCP or DCTCP rather than hostd's transport.
         *
         * @return true for TCP and DCTCP, on either connection model, and PIAS.
         */
        public boolean isTcp()
        {
            return TCP == this || DCTCP == this || TCP_PER_FLOW == this || DCTCP_PER_FLOW == this || PIAS == this;
        }
    }

    private final SimFabric fabric;
    private final long tcpMinRtoNs;
    private final DupAckRule tcpDupAckRule;
    private final boolean tcpSackOpensWindow;
    private final long ecnThresholdLength;
    private final EventQueue events = new EventQueue();
    private final SplittableRandom random;
    private final SimHost[] hosts;
    private final SimSwitch[] switches;
    private final PacketPool packets = new PacketPool();
    private final UnsafeBuffer departing = new UnsafeBuffer(new byte[FRAME_OVERHEAD]);
    private final boolean storeHeaders;
    private final int storedOffset;
    private final int storedLength;
    private final int handleOffsetInStored;
    private final QueueSampler sampler;
    private long currentOrder;
    private long nowNs;
    private long processed;
    private long sentPackets;
    private long receivedPackets;
    private long deliveredBytes;
    private final SimControl control;
    private TransmitObserver transmitObserver;
    private final PdqSettings pdqSettings;
    private final SimPdqLinks pdqLinks;
    private final Scheme scheme;
    private final SimPort.DropListener dropListener = this::onPortDrop;
    private HopLossMeter hopLossMeter;
    private final PiasThresholds piasThresholds;

    /**
     * A simulation of hostd's transport (pfabric, or linerate when the configuration says so) on pFabric queues.
     *
     * @param fabric        the fabric; its discipline and buffer apply to every switch port and host NIC.
     * @param configuration every host's transport settings.
     * @param seed          of the spraying.
     */
    public Simulator(final SimFabric fabric, final TransportConfiguration configuration, final long seed)
    {
        this(fabric, configuration.lineRate() ? Scheme.LINERATE : Scheme.PFABRIC, configuration, seed);
    }

    /**
     * A simulation of a scheme.
     *
     * @param fabric        the fabric; its discipline and buffer apply to every switch port and host NIC.
     * @param scheme        what the hosts run.
     * @param configuration hostd's settings, for pfabric and linerate.
     * @param seed          of the spraying.
     */
    public Simulator(
        final SimFabric fabric, final Scheme scheme, final TransportConfiguration configuration, final long seed)
    {
        this(fabric, scheme, configuration, seed, null, null);
    }

    /**
     * A simulation with a central controller, a packet-size mix, or both.
     *
     * @param fabric        the fabric; its discipline and buffer apply to every switch port and host NIC.
     * @param scheme        what the hosts run; {@link Scheme#CONTROLLED} needs a control.
     * @param configuration hostd's settings.
     * @param seed          of the spraying.
     * @param control       the controller, or null.
     * @param sizer         the packet-size mix, or null for the frames' own lengths; with one, the transport is
     *                      unpaced and the host NIC's queue paces it.
     */
    public Simulator(final SimFabric fabric, final Scheme scheme, final TransportConfiguration configuration,
        final long seed, final SimControl control, final PacketSizer sizer)
    {
        this(fabric, scheme, configuration, seed, control, sizer, SimSettings.PAPER_TCP_MIN_RTO_NS,
            SimSettings.PAPER_ECN_THRESHOLD_LENGTH, DupAckRule.OFF, false, null, null);
    }

    /**
     * A simulation of a scheme with the settings of its fabric ({@link SimSettings#forFabric}).
     *
     * @param fabric   the fabric; its discipline and buffer apply to every switch port and host NIC.
     * @param scheme   what the hosts run (not {@link Scheme#CONTROLLED}).
     * @param settings pFabric's transport settings (LineRate's, without the window, for {@link Scheme#LINERATE}),
     *                 TCP's minimum RTO and duplicate-ACK rule and DCTCP's marking threshold.
     * @param seed     of the spraying.
     */
    public Simulator(final SimFabric fabric, final Scheme scheme, final SimSettings settings, final long seed)
    {
        this(fabric, scheme, Scheme.LINERATE == scheme ? settings.pfabric().withLineRate() : settings.pfabric(), seed,
            null, null, settings.tcpMinRtoNs(), settings.ecnThresholdLength(), settings.tcpDupAckRule(),
            settings.tcpSackOpensWindow(), null, Scheme.PIAS == scheme ? settings.pias() : null);
    }

    /**
     * A simulation of PDQ.
     *
     * @param fabric   the fabric; its discipline (drop-tail for PDQ) and buffer apply to every switch port and NIC.
     * @param pdq      the PDQ variant.
     * @param settings the fabric's settings (pFabric's transport settings are not used).
     * @param seed     of the spraying.
     */
    public Simulator(final SimFabric fabric, final PdqSettings pdq, final SimSettings settings, final long seed)
    {
        this(fabric, Scheme.PDQ, settings.pfabric(), seed, null, null, settings.tcpMinRtoNs(),
            settings.ecnThresholdLength(), settings.tcpDupAckRule(), settings.tcpSackOpensWindow(), pdq, null);
    }

    private Simulator(final SimFabric fabric, final Scheme scheme, final TransportConfiguration configuration,
        final long seed, final SimControl control, final PacketSizer sizer, final long tcpMinRtoNs,
        final long ecnThresholdLength, final DupAckRule tcpDupAckRule, final boolean tcpSackOpensWindow,
        final PdqSettings pdqSettings, final PiasThresholds piasThresholds)
    {
        if ((Scheme.PDQ == scheme) != (null != pdqSettings))
        {
            throw new IllegalArgumentException("PDQ's settings go with the PDQ scheme, and only with it");
        }
        this.pdqSettings = pdqSettings;
        this.scheme = scheme;
        if ((Scheme.PIAS == scheme) != (null != piasThresholds))
        {
            throw new IllegalArgumentException("PIAS's thresholds go with the PIAS scheme, and only with it");
        }
        this.piasThresholds = piasThresholds;
        this.tcpMinRtoNs = tcpMinRtoNs;
        this.tcpDupAckRule = tcpDupAckRule;
        this.tcpSackOpensWindow = tcpSackOpensWindow;
        this.ecnThresholdLength = ecnThresholdLength;
        if ((Scheme.CONTROLLED == scheme) != (null != control))
        {
            throw new IllegalArgumentException("a control goes with the controlled scheme, and only with it");
        }
        this.control = control;
        this.fabric = fabric;
        this.random = new SplittableRandom(seed);
        final NanoClock clock = () -> nowNs;
        final PfabricHeaderFlyweight header = new PfabricHeaderFlyweight();
        final DisciplineSpec kind = DisciplineSpec.parse(fabric.discipline());
        storeHeaders = EcnQueue.NAME.equals(kind.name()) || PiasQueue.NAME.equals(kind.name());
        storedOffset = storeHeaders ? 0 : PacketPool.HANDLE_OFFSET;
        storedLength = storeHeaders ? FRAME_OVERHEAD : Long.BYTES;
        handleOffsetInStored = PacketPool.HANDLE_OFFSET - storedOffset;
        hosts = new SimHost[fabric.hosts()];
        switches = new SimSwitch[fabric.leaves() + fabric.aggregations() + fabric.spines() + 1];
        final SimSwitch nics = new SimSwitch(fabric.hosts());
        for (int h = 0; h < hosts.length; h++)
        {
            hosts[h] = new SimHost(this, h, scheme, configuration, clock, control, sizer, packets, header);
            nics.ports[h] = port(kind, fabric.edgeRateBitsPerSec(), fabric.edgeDelayNs(), false, fabric.leafOf(h),
                PortRole.NIC);
        }
        switches[switches.length - 1] = nics;
        if (fabric.isFatTree())
        {
            buildFatTree(kind);
        }
        else
        {
            buildLeafSpine(kind);
        }
        sampler = new QueueSampler(fabric, switches);
        pdqLinks = null == pdqSettings ? null : new SimPdqLinks(switches, pdqSettings, packets);
    }

    /**
     * The thresholds PIAS's hosts tag their packets by in this simulation.
     *
     * @return them, or null if it does not run PIAS.
     */
    PiasThresholds piasThresholds()
    {
        return piasThresholds;
    }

    /**
     * PDQ's settings in this simulation.
     *
     * @return them, or null if it does not run PDQ.
     */
    PdqSettings pdqSettings()
    {
        return pdqSettings;
    }

    /**
     * The controller of a switch port's or NIC's link under PDQ, numbered as for {@link #queue(int, int)}.
     */
    io.pfabric.sim.pdq.PdqLinkController pdqController(final int switchIndex, final int port)
    {
        return pdqLinks.controller(switchIndex, port);
    }

    private void buildLeafSpine(final DisciplineSpec kind)
    {
        for (int leaf = 0; leaf < fabric.leaves(); leaf++)
        {
            final SimSwitch sw = new SimSwitch(fabric.hostsPerLeaf() + fabric.spines());
            for (int i = 0; i < fabric.hostsPerLeaf(); i++)
            {
                sw.ports[i] = port(kind, fabric.edgeRateBitsPerSec(), fabric.edgeDelayNs(), true,
                    leaf * fabric.hostsPerLeaf() + i);
            }
            for (int s = 0; s < fabric.spines(); s++)
            {
                sw.ports[fabric.hostsPerLeaf() + s] = port(kind, fabric.coreRateBitsPerSec(), fabric.coreDelayNs(),
                    false, fabric.leaves() + s);
            }
            switches[leaf] = sw;
        }
        for (int s = 0; s < fabric.spines(); s++)
        {
            final SimSwitch sw = new SimSwitch(fabric.leaves());
            for (int leaf = 0; leaf < fabric.leaves(); leaf++)
            {
                sw.ports[leaf] = port(kind, fabric.coreRateBitsPerSec(), fabric.coreDelayNs(), false, leaf);
            }
            switches[fabric.leaves() + s] = sw;
        }
    }

    /**
     * Edge switches first, then aggregation switches, then core switches, each pod's together. An edge or aggregation
     * switch has its K/2 ports down, then its K/2 ports up; the a-th uplink of an edge switch leads to its pod's a-th
     * aggregation switch, the c-th uplink of a pod's a-th aggregation switch to core switch a(K/2) + c; core port p
     * leads down to pod p.
     */
    private void buildFatTree(final DisciplineSpec kind)
    {
        final int half = fabric.hostsPerLeaf();
        final int firstAggregation = fabric.leaves();
        final int firstCore = firstAggregation + fabric.aggregations();
        final long coreRate = fabric.coreRateBitsPerSec();
        final long coreDelayNs = fabric.coreDelayNs();
        for (int edge = 0; edge < fabric.leaves(); edge++)
        {
            final int pod = edge / half;
            final SimSwitch sw = new SimSwitch(2 * half);
            for (int i = 0; i < half; i++)
            {
                sw.ports[i] = port(kind, fabric.edgeRateBitsPerSec(), fabric.edgeDelayNs(), true, edge * half + i);
                sw.ports[half + i] = port(kind, coreRate, coreDelayNs, false, firstAggregation + pod * half + i);
            }
            switches[edge] = sw;
        }
        for (int aggregation = 0; aggregation < fabric.aggregations(); aggregation++)
        {
            final int pod = aggregation / half;
            final int indexInPod = aggregation % half;
            final SimSwitch sw = new SimSwitch(2 * half);
            for (int i = 0; i < half; i++)
            {
                sw.ports[i] = port(kind, coreRate, coreDelayNs, false, pod * half + i);
                sw.ports[half + i] = port(kind, coreRate, coreDelayNs, false, firstCore + indexInPod * half + i);
            }
            switches[firstAggregation + aggregation] = sw;
        }
        for (int core = 0; core < fabric.spines(); core++)
        {
            final SimSwitch sw = new SimSwitch(fabric.pods());
            for (int pod = 0; pod < fabric.pods(); pod++)
            {
                sw.ports[pod] = port(kind, coreRate, coreDelayNs, false, firstAggregation + pod * half + core / half);
            }
            switches[firstCore + core] = sw;
        }
    }

    private SimPort port(final DisciplineSpec kind, final long rateBitsPerSec, final long delayNs,
        final boolean towardHost, final int peer)
    {
        return port(kind, rateBitsPerSec, delayNs, towardHost, peer, towardHost ? PortRole.LAST_HOP : PortRole.CORE);
    }

    private SimPort port(final DisciplineSpec kind, final long rateBitsPerSec, final long delayNs,
        final boolean towardHost, final int peer, final PortRole role)
    {
        return new SimPort(kind, fabric, ecnThresholdLength, rateBitsPerSec, delayNs, towardHost, peer, role, packets,
            storedLength, handleOffsetInStored, dropListener);
    }

    /**
     * Count the next run's data packets sent and dropped by flow size and port role.
     *
     * @param meter the meter, or null for none.
     * @throws IllegalStateException if the hosts do not run hostd's transport, whose headers carry the flow size.
     */
    public void hopLossMeter(final HopLossMeter meter)
    {
        if (null != meter && Scheme.PFABRIC != scheme && Scheme.LINERATE != scheme)
        {
            throw new IllegalStateException("the loss by hop is measured for pfabric and linerate, not " + scheme);
        }
        hopLossMeter = meter;
    }

    /**
     * Packets the ports of a role dropped, from their queues' counters.
     *
     * @param role the role.
     * @return packets, data and ACKs alike.
     */
    public long droppedPackets(final PortRole role)
    {
        long dropped = 0;
        for (final SimSwitch sw : switches)
        {
            for (final SimPort port : sw.ports)
            {
                dropped += role == port.role ? port.queue.counters().droppedPackets() : 0;
            }
        }
        return dropped;
    }

    private void onPortDrop(final PortRole role, final int packet)
    {
        if (null != hopLossMeter && packets.payloadLength(packet) > 0)
        {
            hopLossMeter.onDropped(role, flowSizeBytes(packet));
        }
    }

    private long flowSizeBytes(final int packet)
    {
        return packets.frame(packet).getInt(FRAME_OVERHEAD + PfabricHeaderFlyweight.FLOW_SIZE_FIELD_OFFSET,
            ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL;
    }

    /**
     * TCP's and DCTCP's minimum retransmission timeout in this simulation.
     *
     * @return nanoseconds.
     */
    long tcpMinRtoNs()
    {
        return tcpMinRtoNs;
    }

    /**
     * When TCP and DCTCP fast-retransmit in this simulation, if ever.
     *
     * @return the rule.
     */
    DupAckRule tcpDupAckRule()
    {
        return tcpDupAckRule;
    }

    /**
     * Whether TCP's and DCTCP's SACKed segments open their window outside recovery in this simulation.
     *
     * @return false for ns-2's window, which ends at the first unacknowledged segment plus cwnd.
     */
    boolean tcpSackOpensWindow()
    {
        return tcpSackOpensWindow;
    }

    /**
     * Record a switch port's queue occupancy every period while the next run lasts.
     *
     * @param switchIndex as for {@link #queue(int, int)}.
     * @param port        as for {@link #queue(int, int)}.
     * @param periodNs    how often.
     */
    public void sampleQueue(final int switchIndex, final int port, final long periodNs)
    {
        sampler.sampleQueue(queue(switchIndex, port), periodNs);
    }

    /**
     * The occupancies recorded since {@link #sampleQueue}, in bytes, oldest first.
     *
     * @return the samples.
     */
    public long[] queueSamples()
    {
        return sampler.queueSamples();
    }

    /**
     * Run a trace to the end: every flow completes, or nothing is left to happen, or the virtual time limit passes.
     *
     * @param trace   the flows; host indices are the fabric's.
     * @param limitNs virtual time at which to give up.
     * @return the records.
     */
    public Result run(final List<WorkloadTrace.FlowSpec> trace, final long limitNs)
    {
        return run(trace, limitNs, (completed, total, virtualNs, eventCount, deliveredBytes, totalBytes) ->
        {
        });
    }

    /**
     * {@link #run(List, long)}, reporting progress every five seconds of wall time. A run whose thread is
     * interrupted stops at its next progress check, every 65,536 events.
     *
     * @param trace    the flows; host indices are the fabric's.
     * @param limitNs  virtual time at which to give up.
     * @param progress told how the run is going.
     * @return the records.
     * @throws CancellationException if the thread was interrupted.
     */
    public Result run(final List<WorkloadTrace.FlowSpec> trace, final long limitNs, final Progress progress)
    {
        final ProgressReporter reporter = new ProgressReporter(progress);
        scheduleRecurring();
        final FlowRecord[] records = new FlowRecord[trace.size()];
        final WorkloadTrace.FlowSpec[] flows = trace.toArray(WorkloadTrace.FlowSpec[]::new);
        final int[] completed = { 0 };
        final long totalBytes = totalBytes(flows);
        final int[] startOrder = byStartTime(flows);
        final long firstStartOrder = events.reserveOrders(flows.length);
        int nextStart = 0;
        if (flows.length > 0)
        {
            scheduleStart(flows, startOrder[0], firstStartOrder);
        }
        while (!events.isEmpty() && completed[0] < flows.length)
        {
            events.poll();
            if (events.timeNs() > limitNs)
            {
                break;
            }
            nowNs = events.timeNs();
            currentOrder = events.order();
            if (0 == (++processed & PROGRESS_CHECK_MASK))
            {
                if (Thread.currentThread().isInterrupted())
                {
                    throw new CancellationException("the run was interrupted at " + nowNs + " ns virtual");
                }
                reporter.check(completed[0], flows.length, nowNs, processed, deliveredBytes, totalBytes);
            }
            final int node = events.node();
            final int arg = events.arg();
            switch (events.kind())
            {
                case FLOW_START ->
                {
                    if (++nextStart < flows.length)
                    {
                        scheduleStart(flows, startOrder[nextStart], firstStartOrder);
                    }
                    startFlow(node, flows[arg], arg, records, completed);
                }
                case HOST_WAKE -> onHostWake(node);
                case HOST_ARRIVAL -> onHostArrival(node, arg);
                case SWITCH_ARRIVAL -> onSwitchArrival(node, arg);
                case PORT_FREE -> startTransmission(node, arg);
                case QUEUE_SAMPLE -> onQueueSample();
                case CONTROL_TICK -> onControlTick();
                case TIER_SAMPLE -> onTierSample();
                default -> throw new IllegalStateException("unknown event " + events.kind());
            }
        }
        drainInFlight(limitNs);
        return new Result(records, nowNs, processed, droppedPackets(), rankInversions(), sentPackets, receivedPackets,
            connectionsOpened());
    }

    /**
     * Sum every port's queue occupancy by tier every period while the next run lasts: host NICs, leaves, spines.
     *
     * @param periodNs how often.
     */
    public void sampleTiers(final long periodNs)
    {
        sampler.sampleTiers(periodNs);
    }

    /**
     * Mean bytes queued per port of a tier over the samples taken.
     *
     * @param tier 0 host NICs, 1 leaf ports, 2 spine ports.
     * @return bytes.
     */
    public double meanTierQueueBytes(final int tier)
    {
        return sampler.meanTierQueueBytes(tier);
    }

    /**
     * Tell an observer of every frame a port starts to transmit.
     *
     * @param observer the observer, or null.
     */
    public void transmitObserver(final TransmitObserver observer)
    {
        transmitObserver = observer;
        if (null != observer)
        {
            observer.onAttach(this);
        }
    }

    /**
     * How many switches {@link #queue(int, int)} numbers, the hosts' NICs last.
     *
     * @return the switches.
     */
    public int switchCount()
    {
        return switches.length;
    }

    /**
     * How many ports a switch has, as {@link #queue(int, int)} numbers them.
     *
     * @param switchIndex the switch.
     * @return the ports.
     */
    public int portCount(final int switchIndex)
    {
        return switches[switchIndex].ports.length;
    }

    /**
     * Let a host's transport act now: a control delivered it a grant or a rate.
     *
     * @param host the host.
     */
    public void wake(final int host)
    {
        drive(host);
    }

    /**
     * The length the last frame a host sent is accounted at (its packet-size mix length for data): what an
     * admission told of that frame counts against its bucket.
     *
     * @param host the host.
     * @return bytes, without FCS, preamble and gap.
     */
    public int lastFrameLength(final int host)
    {
        return hosts[host].lastFrameLength;
    }

    /**
     * The fabric simulated.
     *
     * @return it.
     */
    public SimFabric fabric()
    {
        return fabric;
    }

    /**
     * The events that recur while a run lasts, each first due now: the samples asked for and the control's ticks.
     */
    private void scheduleRecurring()
    {
        if (sampler.samplesQueue())
        {
            events.schedule(nowNs, QUEUE_SAMPLE, 0, 0);
        }
        if (null != control)
        {
            events.schedule(nowNs, CONTROL_TICK, 0, 0);
        }
        if (sampler.samplesTiers())
        {
            events.schedule(nowNs, TIER_SAMPLE, 0, 0);
        }
    }

    /**
     * The bytes of every flow in a trace, once each flow is known to name only the fabric's hosts.
     */
    private long totalBytes(final WorkloadTrace.FlowSpec[] flows)
    {
        long totalBytes = 0;
        for (final WorkloadTrace.FlowSpec flow : flows)
        {
            totalBytes += flow.sizeBytes();
            if (flow.sourceHost() >= hosts.length || flow.destinationHost() >= hosts.length)
            {
                throw new IllegalArgumentException("flow " + flow.flowIndex() + " names a host the fabric lacks");
            }
        }
        return totalBytes;
    }

    /**
     * Flow indices by start time, in the trace's order among equal times (the sort is stable).
     */
    private static int[] byStartTime(final WorkloadTrace.FlowSpec[] flows)
    {
        final Integer[] indices = new Integer[flows.length];
        Arrays.setAll(indices, i -> i);
        Arrays.sort(indices, Comparator.comparingLong(i -> flows[i].startNs()));
        return Arrays.stream(indices).mapToInt(Integer::intValue).toArray();
    }

    /**
     * A flow's start, at the place in the order it had when every start was scheduled before the run: the starts
     * are scheduled one at a time, so that the event heap holds only what is in flight.
     */
    private void scheduleStart(final WorkloadTrace.FlowSpec[] flows, final int index, final long firstStartOrder)
    {
        final WorkloadTrace.FlowSpec flow = flows[index];
        events.schedule(flow.startNs(), firstStartOrder + index, FLOW_START, flow.sourceHost(), index);
    }

    /**
     * Hand a flow to its source's endpoint, which records it and counts it completed when its last byte is
     * acknowledged, and let the source act.
     */
    private void startFlow(final int host, final WorkloadTrace.FlowSpec flow, final int index,
        final FlowRecord[] records, final int[] completed)
    {
        hosts[host].endpoint.send(flow.destinationHost(), flow.sizeBytes(), flow.dscp(), flow.deadlineNs())
            .whenComplete((record, error) ->
            {
                if (null != record)
                {
                    records[index] = record;
                    completed[0]++;
                }
            });
        drive(host);
    }

    private void onHostWake(final int host)
    {
        if (hosts[host].wakeNs == nowNs)
        {
            hosts[host].wakeNs = Long.MAX_VALUE;
            drive(host);
        }
    }

    private void onHostArrival(final int host, final int packet)
    {
        receivedPackets++;
        deliveredBytes += packets.payloadLength(packet);
        if (null != pdqLinks)
        {
            pdqLinks.onHostArrival(nowNs, packet);
        }
        hosts[host].inbox.addInt(packet);
        drive(host);
    }

    private void onQueueSample()
    {
        sampler.recordQueue();
        events.schedule(nowNs + sampler.queuePeriodNs(), QUEUE_SAMPLE, 0, 0);
    }

    private void onControlTick()
    {
        final long next = control.onTick(nowNs);
        if (Long.MAX_VALUE != next)
        {
            events.schedule(Math.max(next, nowNs + 1), CONTROL_TICK, 0, 0);
        }
    }

    private void onTierSample()
    {
        sampler.recordTiers();
        events.schedule(nowNs + sampler.tierPeriodNs(), TIER_SAMPLE, 0, 0);
    }

    /**
     * Once every flow has completed, let the packets still on the wire or in queues (the last ACKs) arrive, so that
     * every packet sent is accounted for as received or dropped; nothing new starts.
     */
    private void drainInFlight(final long limitNs)
    {
        while (!events.isEmpty())
        {
            events.poll();
            if (events.timeNs() > limitNs)
            {
                return;
            }
            nowNs = events.timeNs();
            currentOrder = events.order();
            processed++;
            switch (events.kind())
            {
                case HOST_ARRIVAL ->
                {
                    receivedPackets++;
                    packets.release(events.arg());
                }
                case SWITCH_ARRIVAL -> onSwitchArrival(events.node(), events.arg());
                case PORT_FREE -> startTransmission(events.node(), events.arg());
                default ->
                {
                    // Flow starts and host wake-ups: the run is over.
                }
            }
        }
    }

    private long connectionsOpened()
    {
        long opened = 0;
        for (final SimHost host : hosts)
        {
            opened += host.endpoint instanceof SimTcp tcp ? tcp.connectionsOpened() : 0;
        }
        return opened;
    }

    private long rankInversions()
    {
        long inversions = 0;
        for (final SimSwitch sw : switches)
        {
            for (final SimPort port : sw.ports)
            {
                inversions += port.queue.counters().get(QueueCounter.RANK_INVERSION_PACKETS);
            }
        }
        return inversions;
    }

    private long droppedPackets()
    {
        long dropped = 0;
        for (final SimSwitch sw : switches)
        {
            for (final SimPort port : sw.ports)
            {
                dropped += port.queue.counters().droppedPackets();
            }
        }
        return dropped;
    }

    /**
     * Virtual time now.
     *
     * @return nanoseconds.
     */
    public long nowNs()
    {
        return nowNs;
    }

    /**
     * A switch port's queue, for counters: leaves first, then spines, then one more holding the hosts' NICs by host
     * index; a leaf's host ports first, then its uplinks. In a fat-tree: edge switches (the leaves), then aggregation
     * switches, then core switches (the spines), then the NICs; an edge or aggregation switch's ports down first, then
     * its uplinks, and a core switch's port p down to pod p.
     *
     * @param switchIndex the switch.
     * @param port        the port.
     * @return the queue.
     */
    public QueueDiscipline queue(final int switchIndex, final int port)
    {
        return switches[switchIndex].ports[port].queue;
    }

    /**
     * A frame a host sends, described in the pool: into the host's NIC.
     */
    void onHostSend(final int host, final int packet)
    {
        sentPackets++;
        if (null != hopLossMeter && packets.payloadLength(packet) > 0)
        {
            hopLossMeter.onSent(flowSizeBytes(packet));
        }
        offer(switches.length - 1, host, packet);
    }

    /**
     * Let a host do everything due at this instant: poll its transport until nothing is left to do now (a poll
     * handles a bounded batch, so an overdue deadline means poll again), then wake it at its next deadline.
     */
    private void drive(final int host)
    {
        final SimHost h = hosts[host];
        long next;
        int polls = 0;
        while (true)
        {
            if (h.endpoint.poll() > 0 && ++polls < MAX_POLLS_PER_WAKE)
            {
                continue;
            }
            next = h.endpoint.nextDeadlineNs();
            if (next > nowNs || ++polls >= MAX_POLLS_PER_WAKE)
            {
                break;
            }
        }
        if (Long.MAX_VALUE == next)
        {
            return;
        }
        final long wake = next > nowNs ? next : nowNs + 1;
        if (wake < h.wakeNs)
        {
            h.wakeNs = wake;
            events.schedule(wake, HOST_WAKE, host, 0);
        }
    }

    private void onSwitchArrival(final int switchIndex, final int packet)
    {
        if (null != pdqLinks)
        {
            final int back = pdqLinks.onSwitchArrival(nowNs, switchIndex, packet);
            if (back >= 0)
            {
                offer(switchIndex, back, packet);
                return;
            }
        }
        final int destination = packets.destination(packet);
        final int leafOfDestination = fabric.leafOf(destination);
        final int port;
        if (fabric.isFatTree())
        {
            port = fatTreePort(switchIndex, destination, leafOfDestination, packets.pathHint(packet));
        }
        else if (switchIndex < fabric.leaves())
        {
            final int hint = packets.pathHint(packet);
            port = switchIndex == leafOfDestination ? destination % fabric.hostsPerLeaf() :
                fabric.hostsPerLeaf() + (hint >= 0 ? hint % fabric.spines() : random.nextInt(fabric.spines()));
        }
        else
        {
            port = leafOfDestination;
        }
        offer(switchIndex, port, packet);
    }

    /**
     * A fat-tree switch's port toward a host: down when the host is below it, else one of its K/2 uplinks, uniformly
     * at random (or the one that leads to the core switch a path hint names).
     */
    private int fatTreePort(final int switchIndex, final int destination, final int leafOfDestination, final int hint)
    {
        final int half = fabric.hostsPerLeaf();
        final int firstCore = fabric.leaves() + fabric.aggregations();
        if (switchIndex < fabric.leaves())
        {
            return switchIndex == leafOfDestination ? destination % half :
                half + (hint >= 0 ? (hint / half) % half : random.nextInt(half));
        }
        if (switchIndex < firstCore)
        {
            final int aggregation = switchIndex - fabric.leaves();
            return aggregation / half == leafOfDestination / half ? leafOfDestination % half :
                half + (hint >= 0 ? hint % half : random.nextInt(half));
        }
        return leafOfDestination / half;
    }

    private void offer(final int switchIndex, final int portIndex, final int packet)
    {
        final SimPort port = switches[switchIndex].ports[portIndex];
        if (null != pdqLinks)
        {
            pdqLinks.onOffer(nowNs, switchIndex, portIndex, packet);
        }
        final long freeAtNs = port.freeAtNs;
        final boolean busy = freeAtNs > nowNs || (freeAtNs == nowNs && port.freeOrder > currentOrder);
        if (!busy && port.queue.passThrough(packets.length(packet)))
        {
            transmit(switchIndex, portIndex, port, packet, packets.length(packet));
            return;
        }
        port.queue.enqueue(packets.frame(packet), storedOffset, storedLength, packets.length(packet),
            packets.priority(packet), packets.flowId(packet), packets.dscp(packet), packets.pfabricFlags(packet));
        if (!busy)
        {
            startTransmission(switchIndex, portIndex);
        }
        else if (!port.freePending && !port.queue.isEmpty())
        {
            port.freePending = true;
            events.schedule(freeAtNs, port.freeOrder, PORT_FREE, switchIndex, portIndex);
        }
    }

    private void startTransmission(final int switchIndex, final int portIndex)
    {
        final SimPort port = switches[switchIndex].ports[portIndex];
        port.freePending = false;
        if (port.queue.isEmpty())
        {
            return;
        }
        final int length = port.queue.dequeue(departing, 0);
        final int packet = departing.getInt(handleOffsetInStored);
        if (storeHeaders)
        {
            packets.frame(packet).putBytes(0, departing, 0, FRAME_OVERHEAD);
        }
        transmit(switchIndex, portIndex, port, packet, length);
    }

    private void transmit(final int switchIndex, final int portIndex, final SimPort port, final int packet,
        final int length)
    {
        if (null != transmitObserver)
        {
            transmitObserver.onTransmit(switchIndex, portIndex, nowNs, packets.payloadLength(packet), length,
                packets.dscp(packet));
        }
        port.pacer.onRelease(nowNs, length);
        final long doneNs = port.pacer.nextDepartureNs();
        port.freeAtNs = doneNs;
        port.freeOrder = events.reserveOrder();
        if (!port.queue.isEmpty())
        {
            port.freePending = true;
            events.schedule(doneNs, port.freeOrder, PORT_FREE, switchIndex, portIndex);
        }
        events.schedule(doneNs + port.delayNs, port.towardHost ? HOST_ARRIVAL : SWITCH_ARRIVAL, port.peer, packet);
    }
}
