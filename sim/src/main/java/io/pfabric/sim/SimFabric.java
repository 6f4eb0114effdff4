package io.pfabric.sim;

import io.pfabric.common.wire.PfabricHeaderFlyweight;
import io.pfabric.hostd.workload.FlowSizeDistribution;
import io.pfabric.dataplane.pacer.EgressPacer;

/**
 * The simulated fabric's shape and physics: a two-tier leaf-spine (a star is one leaf and no spine), each host on
 * its leaf by an edge link, each leaf linked to each spine by a core link, and every egress port of every switch a
 * queue of one discipline.
 *
 * @param leaves           leaf switches.
 * @param hostsPerLeaf     hosts under each leaf.
 * @param spines           spine switches; 0 for a star (then leaves must be 1).
 * @param edgeRateBitsPerSec host links.
 * @param coreRateBitsPerSec leaf-spine links.
 * @param edgeDelayNs      one-way latency of an edge link, the host's own delay included.
 * @param coreDelayNs      one-way latency of a core link.
 * @param bufferLength     bytes of every switch port's queue.
 * @param discipline       every switch port's queue discipline: pfabric, droptail, ecn or strict.
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
    String discipline)
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
        if (edgeRateBitsPerSec <= 0 || (spines > 0 && coreRateBitsPerSec <= 0) || edgeDelayNs < 0 ||
            coreDelayNs < 0 || bufferLength <= 0)
        {
            throw new IllegalArgumentException("rates and buffers must be positive, delays not negative");
        }
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
     * The same fabric with another shape.
     *
     * @param newLeaves       leaf switches.
     * @param newHostsPerLeaf hosts under each.
     * @param newSpines       spines.
     * @return the fabric.
     */
    public SimFabric withShape(final int newLeaves, final int newHostsPerLeaf, final int newSpines)
    {
        return new SimFabric(newLeaves, newHostsPerLeaf, newSpines, edgeRateBitsPerSec, coreRateBitsPerSec,
            edgeDelayNs, coreDelayNs, bufferLength, discipline);
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
            coreDelayNs, newBufferLength, newDiscipline);
    }

    /**
     * The same fabric with link delays that give it measured base RTTs (an emulated fabric's, whose latency is mostly
     * in its hosts' and switches' software): the edge links' from the round trip under one leaf, the core links' from
     * the rest of the round trip across a spine. A fabric of one host per leaf has no round trip under a leaf; its
     * edge and core links then share the delay. A measured RTT below what the rates alone give leaves the delay 0.
     *
     * @param sameLeafRttNs     the base RTT between two hosts of a leaf (ignored with one host per leaf).
     * @param acrossLeavesRttNs the base RTT across a spine (ignored without spines).
     * @return the fabric.
     */
    public SimFabric withBaseRtts(final long sameLeafRttNs, final long acrossLeavesRttNs)
    {
        final SimFabric idle = new SimFabric(leaves, hostsPerLeaf, spines, edgeRateBitsPerSec, coreRateBitsPerSec, 0,
            0, bufferLength, discipline);
        final int last = hosts() - 1;
        long edgeNs = 0;
        long coreNs = 0;
        if (hostsPerLeaf > 1)
        {
            edgeNs = Math.max(0, (sameLeafRttNs - idle.baseRttNs(0, 1)) / 4);
            if (spines > 0)
            {
                coreNs = Math.max(0, (acrossLeavesRttNs - idle.baseRttNs(0, last) - 4 * edgeNs) / 4);
            }
        }
        else if (spines > 0)
        {
            edgeNs = Math.max(0, (acrossLeavesRttNs - idle.baseRttNs(0, last)) / 8);
            coreNs = edgeNs;
        }
        return new SimFabric(leaves, hostsPerLeaf, spines, edgeRateBitsPerSec, coreRateBitsPerSec, edgeNs, coreNs,
            bufferLength, discipline);
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
        if (leafOf(source) != leafOf(destination))
        {
            final EgressPacer core = new EgressPacer(coreRateBitsPerSec, 1);
            rtt += 2 * (core.wireTimeNs(data) + core.wireTimeNs(ack)) + 4 * coreDelayNs;
        }
        return rtt;
    }
}
