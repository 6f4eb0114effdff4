package io.pfabric.sim;

import io.pfabric.common.control.ControlMessageFlyweight;
import io.pfabric.common.control.Timeslots;
import io.pfabric.common.wire.PfabricHeaderFlyweight;
import io.pfabric.controllerd.syn.DemandTable;
import io.pfabric.controllerd.syn.GrantHandler;
import io.pfabric.controllerd.syn.LeafSpineFabric;
import io.pfabric.controllerd.syn.Metric;
import io.pfabric.controllerd.syn.TimeslotAllocator;
import io.pfabric.hostd.control.SynAdmission;
import io.pfabric.hostd.transport.HostTransport;
import io.pfabric.dataplane.pacer.EgressPacer;
import org.agrona.collections.LongArrayQueue;

/**
 * SYN on virtual time: controllerd's {@link DemandTable} and {@link TimeslotAllocator} as the central controller,
 * hostd's {@link SynAdmission} on every host.
 * <p>
 * Time is slotted; a slot is the wire time at the host link rate of one 1500-byte packet (1524 bytes with FCS,
 * preamble and gap, {@link Timeslots}) and of one ACK with the most SACK blocks ({@value #ACK_FRAME_LENGTH} bytes
 * framed), whatever the packet: a 40-byte packet leaves the rest of its slot empty. ACKs are not scheduled; a host
 * sends at most one data packet and receives at most one per slot, so each edge link carries at most one data packet
 * and, on average, one ACK per slot, and the ACK's room in the slot keeps its queue from growing (with slots of one
 * data packet, a host busy both ways gained about 90 bytes of queue per slot in its NIC and its leaf port until the
 * 36 KB buffer overflowed). A leaf-spine link is given as many packets per slot as data packets and their ACKs fit in
 * a slot at its rate, and the grants' spines rotate by one every slot, so that the colouring's first spine is not
 * the one that always runs full while the sprayed ACKs come on top. The controller ticks at
 * every slot boundary: it takes the hosts' reports that have arrived (each host reports, per destination, the cells it
 * has ever needed: grants used or expired plus segments waiting, and {@link DemandTable#request} adds the increase),
 * allocates the slot {@code lead} slots ahead, where {@code lead} covers the control delay, and hands the grants of
 * the current slot to their sources, which send one packet on each at once on the grant's spine (the leaf follows the
 * packet's path hint). A report reaches the controller one control delay after the host makes it; a grant is computed
 * at least one control delay before its slot begins. A grant not used within its slot expires and the cell is asked
 * for again. ACKs are not scheduled: they leave at once, at the highest priority.
 */
public final class SynControl implements SimControl
{
    /**
     * Bytes of the longest ACK frame without FCS: Ethernet and IPv4 headers and a pFabric header with
     * {@link PfabricHeaderFlyweight#MAX_SACK_BLOCKS} SACK blocks.
     */
    public static final int ACK_FRAME_LENGTH = Simulator.FRAME_OVERHEAD + PfabricHeaderFlyweight.ACK_MAX_HEADER_LENGTH;

    private final int hostCount;
    private final int spines;
    private final long slotNs;
    private final long delayNs;
    private final int lead;
    private final DemandTable demand;
    private final TimeslotAllocator allocator;
    private final Host[] hosts;
    private final LongArrayQueue reportTimes = new LongArrayQueue();
    private final LongArrayQueue reports = new LongArrayQueue();
    private final long[][] grantRing;
    private final int[] grantCount;
    private final GrantHandler onGrant;
    private Simulator simulator;
    private long grants;
    private long grantsUsed;

    /**
     * A SYN controller for a fabric.
     *
     * @param fabric  the simulated fabric.
     * @param metric  OCF, SRJF or MMF.
     * @param delayNs one-way control delay, host to controller and back.
     * @throws IllegalArgumentException on a fat-tree.
     */
    public SynControl(final SimFabric fabric, final Metric metric, final long delayNs)
    {
        if (fabric.isFatTree())
        {
            throw new IllegalArgumentException("SYN's path assignment colours leaf-spine paths; it does not run on a " +
                "fat-tree");
        }
        this.hostCount = fabric.hosts();
        this.spines = fabric.spines();
        final EgressPacer edge = new EgressPacer(fabric.edgeRateBitsPerSec(), 1);
        this.slotNs = Timeslots.slotNs(fabric.edgeRateBitsPerSec()) + edge.wireTimeNs(ACK_FRAME_LENGTH);
        this.delayNs = delayNs;
        this.lead = (int)((delayNs + slotNs - 1) / slotNs);
        int perLink = 1;
        if (fabric.spines() > 0)
        {
            final EgressPacer core = new EgressPacer(fabric.coreRateBitsPerSec(), 1);
            final long pairNs = core.wireTimeNs(Timeslots.SLOT_WIRE_LENGTH - EgressPacer.WIRE_OVERHEAD_LENGTH) + core.wireTimeNs(ACK_FRAME_LENGTH);
            perLink = (int)Math.max(1, slotNs / pairNs);
        }
        final LeafSpineFabric shape = new LeafSpineFabric(hostCount, fabric.hostsPerLeaf(), fabric.spines(), perLink);
        demand = new DemandTable(hostCount, hostCount * hostCount);
        allocator = new TimeslotAllocator(shape, demand, metric, 1, 0);
        hosts = new Host[hostCount];
        grantRing = new long[lead + 2][hostCount];
        grantCount = new int[lead + 2];
        onGrant = (slot, src, dst, spine) ->
        {
            final int at = (int)(slot % grantRing.length);
            grantRing[at][grantCount[at]++] = (long)src << 32 | (long)dst << 16 | (spine + 1);
            grants++;
        };
    }

    /**
     * The simulator this controller drives, once built.
     *
     * @param simulator the simulator.
     */
    public void attach(final Simulator simulator)
    {
        this.simulator = simulator;
    }

    /**
     * @return the slot length.
     */
    public long slotNs()
    {
        return slotNs;
    }

    /**
     * @return grants made.
     */
    public long grants()
    {
        return grants;
    }

    /**
     * @return grants a packet left on.
     */
    public long grantsUsed()
    {
        long used = 0;
        for (final Host host : hosts)
        {
            used += null == host ? 0 : host.admission.grantsUsed();
        }
        return used;
    }

    /**
     * {@inheritDoc}
     */
    public SimAdmission admission(final int host, final HostTransport transport)
    {
        hosts[host] = new Host(host);
        return hosts[host];
    }

    /**
     * {@inheritDoc}
     */
    public long onTick(final long nowNs)
    {
        final long slot = nowNs / slotNs;
        while (!reportTimes.isEmpty() && reportTimes.peekLong() <= nowNs)
        {
            reportTimes.pollLong();
            final long report = reports.pollLong();
            demand.request((int)(report >>> 44), (int)(report >>> 32) & 0xFFF, (int)report, slot);
        }
        allocator.skipTo(slot + lead);
        while (allocator.nextSlot() <= slot + lead)
        {
            allocator.allocateBatch(onGrant);
        }
        final int at = (int)(slot % grantRing.length);
        final long[] due = grantRing[at];
        final int count = grantCount[at];
        grantCount[at] = 0;
        for (int i = 0; i < count; i++)
        {
            final int src = (int)(due[i] >>> 32);
            final int dst = (int)(due[i] >>> 16) & 0xFFFF;
            final int spine = (int)(due[i] & 0xFFFF) - 1;
            hosts[src].admission.onGrant(dst,
                spine < 0 ? ControlMessageFlyweight.NO_SPINE : (int)((spine + slot) % spines), nowNs);
            hosts[src].granted[dst]++;
        }
        for (int i = 0; i < count; i++)
        {
            simulator.wake((int)(due[i] >>> 32));
        }
        return (slot + 1) * slotNs;
    }

    private final class Host implements SimAdmission
    {
        private final int index;
        private final SynAdmission admission;
        private final int[] granted = new int[hostCount];
        private final int[] reported = new int[hostCount];
        private final int[] sendable = new int[hostCount];
        private final int[] active = new int[hostCount];

        Host(final int index)
        {
            this.index = index;
            this.admission = new SynAdmission(hostCount, slotNs - 1);
        }

        public int poll(final long nowNs, final HostTransport transport)
        {
            transport.destinationBacklog(sendable, active);
            for (int dst = 0; dst < hostCount; dst++)
            {
                if (0 == active[dst])
                {
                    continue;
                }
                admission.mayAdmit(dst, nowNs);
                final int needed = granted[dst] - admission.queued(dst) + sendable[dst];
                if (needed > reported[dst])
                {
                    reported[dst] = needed;
                    reportTimes.addLong(nowNs + delayNs);
                    reports.addLong((long)index << 44 | (long)dst << 32 | (needed & 0xFFFF_FFFFL));
                }
            }
            // Reports are not work that should make the transport poll again at once.
            return 0;
        }

        public boolean mayAdmit(final int destinationHost, final long nowNs)
        {
            return admission.mayAdmit(destinationHost, nowNs);
        }

        public int pathHint(final int destinationHost)
        {
            return admission.pathHint(destinationHost);
        }

        public void onAdmitted(final int destinationHost, final long nowNs, final int wireLength)
        {
            admission.onAdmitted(destinationHost);
        }

        public int awaitHeldBack(final long nowNs, final long timeoutNs)
        {
            return 0;
        }

        public long nextAdmitNs(final long nowNs)
        {
            return nowNs + slotNs;
        }
    }
}
