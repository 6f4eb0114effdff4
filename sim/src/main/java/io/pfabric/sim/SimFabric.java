package io.pfabric.sim;

import io.pfabric.analysis.StrictThresholds;
import io.pfabric.common.topology.DisciplineSpec;
import io.pfabric.common.topology.TrafficClasses;
import io.pfabric.common.wire.PfabricHeaderFlyweight;
import io.pfabric.hostd.workload.FlowSizeDistribution;
import io.pfabric.dataplane.pacer.EgressPacer;
import io.pfabric.dataplane.queue.AifoQueue;
import io.pfabric.dataplane.queue.PfabricClassQueue;
import io.pfabric.dataplane.queue.PiasQueue;
import io.pfabric.dataplane.queue.SpPifoQueue;
import io.pfabric.dataplane.queue.StrictPriorityQueue;

/**
 * The simulated fabric's shape and physics: a two-tier leaf-spine (a star is one leaf and no spine) or a three-tier
 * fat-tree, each host on its leaf by an edge link, switches linked by core links, and every egress port of every
 * switch a queue of one discipline.
 * <p>
 * A fat-tree of K-port switches ({@code pods} = K) has K<sup>2</sup>/2 leaves (its edge switches) of K/2 hosts,
 * K<sup>2</sup>/2 aggregation switches, K/2 per pod, and (K/2)<sup>2</sup> spines (its core switches); each edge
 * switch is linked to every aggregation switch of its pod, and the a-th aggregation switch of every pod to the core
 * switches a(K/2) to a(K/2) + K/2 - 1 (counting from 0), as {@code Topologies.fatTree} wires it.
 *
 * @param leaves           leaf (edge) switches.
 * @param hostsPerLeaf     hosts under each leaf.
 * @param spines           spine (core) switches; 0 for a star (then leaves must be 1).
 * @param edgeRateBitsPerSec host links.
 * @param coreRateBitsPerSec switch-to-switch links.
 * @param edgeDelayNs      one-way latency of an edge link, the host's own delay included.
 * @param coreDelayNs      one-way latency of a core link.
 * @param bufferLength     bytes of every switch port's queue.
 * @param discipline       every switch port's queue discipline as {@link DisciplineSpec} reads it: pfabric,
 *                         droptail, ecn, pfabric-classes, strict[:N[:...]], sp-pifo[:N[:shared]], aifo[:...] or
 *                         pias[:N[:K]].
 * @param pods             K for a fat-tree, 0 for a leaf-spine or a star.
 * @param classes          every port's traffic classes when the discipline is pfabric-classes (DSCP to class and
 *                         the classes' weights); the other disciplines ignore them.
 */
public record SimFabric(
    int leaves,
    int hostsPerLeaf,
    int spines,
    long edgeRateBitsPerSec,
    long coreRateBitsPerSec,
    long edgeDelayNs,
    long coreDelayNs,
    long bufferLength,
    String discipline,
    int pods,
    TrafficClasses classes)
{
    /**
     * Checks the shape.
     */
    public SimFabric
    {
        if (leaves < 1 || hostsPerLeaf < 1 || spines < 0 || (0 == spines && 1 != leaves))
        {
            throw new IllegalArgumentException("need at least one leaf and one host per leaf, and spines unless " +
                "there is a single leaf: " + leaves + "x" + hostsPerLeaf + "x" + spines);
        }
        if (pods < 0 || (pods > 0 && (0 != pods % 2 || leaves != pods * (pods / 2) || hostsPerLeaf != pods / 2 ||
            spines != (pods / 2) * (pods / 2))))
        {
            throw new IllegalArgumentException("a fat-tree of K-port switches has K even, K^2/2 leaves of K/2 hosts " +
                "and (K/2)^2 spines: K " + pods + ", " + leaves + "x" + hostsPerLeaf + "x" + spines);
        }
        if (edgeRateBitsPerSec <= 0 || (spines > 0 && coreRateBitsPerSec <= 0) || edgeDelayNs < 0 ||
            coreDelayNs < 0 || bufferLength <= 0)
        {
            throw new IllegalArgumentException("rates and buffers must be positive, delays not negative");
        }
        if (null == classes)
        {
            throw new IllegalArgumentException("a fabric needs traffic classes, the default ones if none are given");
        }
        DisciplineSpec.parse(discipline);
    }

    /**
     * A fabric whose ports have the default traffic classes ({@link TrafficClasses#DEFAULT}), should their
     * discipline be pfabric-classes.
     *
     * @param leaves             leaf (edge) switches.
     * @param hostsPerLeaf       hosts under each leaf.
     * @param spines             spine (core) switches; 0 for a star (then leaves must be 1).
     * @param edgeRateBitsPerSec host links.
     * @param coreRateBitsPerSec switch-to-switch links.
     * @param edgeDelayNs        one-way latency of an edge link, the host's own delay included.
     * @param coreDelayNs        one-way latency of a core link.
     * @param bufferLength       bytes of every switch port's queue.
     * @param discipline         every switch port's queue discipline.
     * @param pods               K for a fat-tree, 0 for a leaf-spine or a star.
     */
    public SimFabric(
        final int leaves,
        final int hostsPerLeaf,
        final int spines,
        final long edgeRateBitsPerSec,
        final long coreRateBitsPerSec,
        final long edgeDelayNs,
        final long coreDelayNs,
        final long bufferLength,
        final String discipline,
        final int pods)
    {
        this(leaves, hostsPerLeaf, spines, edgeRateBitsPerSec, coreRateBitsPerSec, edgeDelayNs, coreDelayNs,
            bufferLength, discipline, pods, TrafficClasses.DEFAULT);
    }

    /**
     * A leaf-spine or a star.
     *
     * @param leaves             leaf switches.
     * @param hostsPerLeaf       hosts under each leaf.
     * @param spines             spine switches; 0 for a star (then leaves must be 1).
     * @param edgeRateBitsPerSec host links.
     * @param coreRateBitsPerSec leaf-spine links.
     * @param edgeDelayNs        one-way latency of an edge link, the host's own delay included.
     * @param coreDelayNs        one-way latency of a core link.
     * @param bufferLength       bytes of every switch port's queue.
     * @param discipline         every switch port's queue discipline: pfabric, droptail, ecn, strict or
     *                           pfabric-classes (with the default classes).
     */
    public SimFabric(
        final int leaves,
        final int hostsPerLeaf,
        final int spines,
        final long edgeRateBitsPerSec,
        final long coreRateBitsPerSec,
        final long edgeDelayNs,
        final long coreDelayNs,
        final long bufferLength,
        final String discipline)
    {
        this(leaves, hostsPerLeaf, spines, edgeRateBitsPerSec, coreRateBitsPerSec, edgeDelayNs, coreDelayNs,
            bufferLength, discipline, 0);
    }

    /**
     * The fat-tree of K-port switches.
     *
     * @param k                  ports per switch, even, at least 2.
     * @param edgeRateBitsPerSec host links.
     * @param coreRateBitsPerSec switch-to-switch links.
     * @param edgeDelayNs        one-way latency of an edge link, the host's own delay included.
     * @param coreDelayNs        one-way latency of a switch-to-switch link.
     * @param bufferLength       bytes of every switch port's queue.
     * @param discipline         every switch port's queue discipline.
     * @return the fabric.
     */
    public static SimFabric fatTree(
        final int k,
        final long edgeRateBitsPerSec,
        final long coreRateBitsPerSec,
        final long edgeDelayNs,
        final long coreDelayNs,
        final long bufferLength,
        final String discipline)
    {
        if (k < 2 || 0 != k % 2)
        {
            throw new IllegalArgumentException("a fat-tree's K must be even and at least 2, not " + k);
        }
        return new SimFabric(k * (k / 2), k / 2, (k / 2) * (k / 2), edgeRateBitsPerSec, coreRateBitsPerSec,
            edgeDelayNs, coreDelayNs, bufferLength, discipline, k);
    }

    /**
     * The fabric of the HotNets'12 paper ("Deconstructing Datacenter Packet Transport"): the fat-tree of 6-port
     * switches, 54 hosts, 10 Gb/s links everywhere, 22.5 KB pFabric queues, and link delays that make the base RTT
     * across pods (6 links each way) 12.0 us: 0.632 us on host links and 0.2 us on switch-to-switch links, on top of
     * 7.87 us of store-and-forward serialization of a full segment and its ACK.
     *
     * @return the fabric.
     */
    public static SimFabric hotNets()
    {
        return fatTree(6, 10_000_000_000L, 10_000_000_000L, 632, 200, 22_500, "pfabric");
    }

    /**
     * The pFabric paper's fabric: 9 leaves of 16 hosts at 10 Gb/s, 4 spines at 40 Gb/s, 2.7 us edge links (2.5 us
     * of host delay and 0.2 us of link), 0.2 us core links, 36 KB pFabric queues.
     *
     * @return the fabric.
     */
    public static SimFabric paper()
    {
        return new SimFabric(9, 16, 4, 10_000_000_000L, 40_000_000_000L, 2_700, 200, 36_000, "pfabric");
    }

    /**
     * The same fabric with another leaf-spine shape.
     *
     * @param newLeaves       leaf switches.
     * @param newHostsPerLeaf hosts under each.
     * @param newSpines       spines.
     * @return the fabric.
     */
    public SimFabric withShape(final int newLeaves, final int newHostsPerLeaf, final int newSpines)
    {
        return new SimFabric(newLeaves, newHostsPerLeaf, newSpines, edgeRateBitsPerSec, coreRateBitsPerSec,
            edgeDelayNs, coreDelayNs, bufferLength, discipline, 0, classes);
    }

    /**
     * The same fabric with other queues.
     *
     * @param newDiscipline   the discipline.
     * @param newBufferLength bytes per port.
     * @return the fabric.
     */
    public SimFabric withQueues(final String newDiscipline, final long newBufferLength)
    {
        return new SimFabric(leaves, hostsPerLeaf, spines, edgeRateBitsPerSec, coreRateBitsPerSec, edgeDelayNs,
            coreDelayNs, newBufferLength, newDiscipline, pods, classes);
    }

    /**
     * The same fabric with pFabric within traffic classes on every port: discipline pfabric-classes.
     *
     * @param newClasses DSCP to class and the classes' weights.
     * @return the fabric.
     */
    public SimFabric withClasses(final TrafficClasses newClasses)
    {
        return new SimFabric(leaves, hostsPerLeaf, spines, edgeRateBitsPerSec, coreRateBitsPerSec, edgeDelayNs,
            coreDelayNs, bufferLength, PfabricClassQueue.NAME, pods, newClasses);
    }

    /**
     * Whether every port runs one of the commodity-switch approximations of pFabric (strict priority with thresholds,
     * SP-PIFO, AIFO, PIAS), on which pFabric's transport runs unchanged.
     *
     * @return true for strict, sp-pifo, aifo and pias.
     */
    public boolean hasCommodityQueues()
    {
        return switch (DisciplineSpec.parse(discipline).name())
        {
            case StrictPriorityQueue.NAME, SpPifoQueue.NAME, AifoQueue.NAME, PiasQueue.NAME -> true;
            default -> false;
        };
    }

    /**
     * The same fabric with the thresholds of a {@code strict:N} or {@code strict:N:equal} discipline computed for a
     * run's workload and load (the pFabric paper's §6.1 model, {@link StrictThresholds}); any other discipline as it
     * is.
     *
     * @param sizes the run's flow sizes.
     * @param load  the run's offered load.
     * @return the fabric.
     */
    public SimFabric withThresholdsFor(final FlowSizeDistribution sizes, final double load)
    {
        final DisciplineSpec spec = DisciplineSpec.parse(discipline);
        return spec.needsWorkload() ?
            withQueues(StrictThresholds.resolve(spec, sizes, load).toString(), bufferLength) : this;
    }

    /**
     * Whether every port runs pFabric within traffic classes.
     *
     * @return true if the discipline is pfabric-classes.
     */
    public boolean hasClasses()
    {
        return PfabricClassQueue.NAME.equals(discipline);
    }

    /**
     * The same fabric with link delays that give it measured base RTTs (an emulated fabric's, whose latency is mostly
     * in its hosts' and switches' software): the edge links' from the round trip under one leaf, the core links' from
     * the rest of the round trip across the fabric's longest path (a spine, or a fat-tree's core). A fabric of one host
     * per leaf has no round trip under a leaf; its edge and core links then share the delay. A measured RTT below what
     * the rates alone give leaves the delay 0.
     *
     * @param sameLeafRttNs     the base RTT between two hosts of a leaf (ignored with one host per leaf).
     * @param acrossLeavesRttNs the base RTT of the longest path (ignored without spines).
     * @return the fabric.
     */
    public SimFabric withBaseRtts(final long sameLeafRttNs, final long acrossLeavesRttNs)
    {
        final SimFabric idle = new SimFabric(leaves, hostsPerLeaf, spines, edgeRateBitsPerSec, coreRateBitsPerSec, 0,
            0, bufferLength, discipline, pods, classes);
        final int last = hosts() - 1;
        final int coreTraversals = 2 * coreLinksBetween(0, last);
        long edgeNs = 0;
        long coreNs = 0;
        if (hostsPerLeaf > 1)
        {
            edgeNs = Math.max(0, (sameLeafRttNs - idle.baseRttNs(0, 1)) / 4);
            if (spines > 0)
            {
                coreNs = Math.max(0, (acrossLeavesRttNs - idle.baseRttNs(0, last) - 4 * edgeNs) / coreTraversals);
            }
        }
        else if (spines > 0)
        {
            edgeNs = Math.max(0, (acrossLeavesRttNs - idle.baseRttNs(0, last)) / (4 + coreTraversals));
            coreNs = edgeNs;
        }
        return new SimFabric(leaves, hostsPerLeaf, spines, edgeRateBitsPerSec, coreRateBitsPerSec, edgeNs, coreNs,
            bufferLength, discipline, pods, classes);
    }

    /**
     * Whether this is a fat-tree.
     *
     * @return true if {@link #pods()} is K.
     */
    public boolean isFatTree()
    {
        return pods > 0;
    }

    /**
     * A fat-tree's aggregation switches: K/2 in each of its K pods.
     *
     * @return the count; 0 for a leaf-spine or a star.
     */
    public int aggregations()
    {
        return isFatTree() ? leaves : 0;
    }

    /**
     * The uplinks of a leaf: one to each spine, or a fat-tree edge switch's K/2 to its pod's aggregation switches.
     *
     * @return the count.
     */
    public int leafUplinks()
    {
        return isFatTree() ? hostsPerLeaf : spines;
    }

    /**
     * The pod a leaf belongs to in a fat-tree.
     *
     * @param leaf the leaf's index.
     * @return the pod's index; the leaf's own index in a two-tier fabric.
     */
    public int podOfLeaf(final int leaf)
    {
        return isFatTree() ? leaf / (pods / 2) : leaf;
    }

    /**
     * Switch-to-switch links a packet crosses from one host to another, one way: none under one leaf, 2 across a
     * spine or within a fat-tree's pod, 4 between pods.
     *
     * @param source      host index.
     * @param destination host index.
     * @return the count.
     */
    public int coreLinksBetween(final int source, final int destination)
    {
        final int sourceLeaf = leafOf(source);
        final int destinationLeaf = leafOf(destination);
        if (sourceLeaf == destinationLeaf)
        {
            return 0;
        }
        return !isFatTree() || podOfLeaf(sourceLeaf) == podOfLeaf(destinationLeaf) ? 2 : 4;
    }

    /**
     * Hosts in the fabric.
     *
     * @return the count.
     */
    public int hosts()
    {
        return leaves * hostsPerLeaf;
    }

    /**
     * The leaf a host hangs on.
     *
     * @param host index.
     * @return the leaf's index.
     */
    public int leafOf(final int host)
    {
        return host / hostsPerLeaf;
    }

    /**
     * Bytes of wire time a full 1460-byte segment takes: Ethernet and IPv4 headers, the pFabric header, the payload,
     * FCS, preamble and gap.
     *
     * @return bytes.
     */
    public static int segmentWireLength()
    {
        return Simulator.FRAME_OVERHEAD + PfabricHeaderFlyweight.HEADER_LENGTH +
            FlowSizeDistribution.SEGMENT_PAYLOAD_BYTES + EgressPacer.WIRE_OVERHEAD_LENGTH;
    }

    /**
     * The idle fabric's round trip of one full segment and its ACK between two hosts, store and forward at every
     * hop: what a one-segment flow's FCT is on the idle fabric, and what normalized FCT divides by.
     *
     * @param source      host index.
     * @param destination host index.
     * @return nanoseconds.
     */
    public long baseRttNs(final int source, final int destination)
    {
        final int data = segmentWireLength() - EgressPacer.WIRE_OVERHEAD_LENGTH;
        final int ack = Simulator.FRAME_OVERHEAD + PfabricHeaderFlyweight.HEADER_LENGTH;
        final EgressPacer edge = new EgressPacer(edgeRateBitsPerSec, 1);
        long rtt = 2 * (edge.wireTimeNs(data) + edge.wireTimeNs(ack)) + 4 * edgeDelayNs;
        final int coreLinks = coreLinksBetween(source, destination);
        if (coreLinks > 0)
        {
            final EgressPacer core = new EgressPacer(coreRateBitsPerSec, 1);
            rtt += coreLinks * (core.wireTimeNs(data) + core.wireTimeNs(ack)) + 2L * coreLinks * coreDelayNs;
        }
        return rtt;
    }
}
