package io.pfabric.sim;

import java.util.List;

/**
 * Where a run's data packets are lost, by the size of their flow: counts the data packets the hosts send (first
 * transmissions and retransmissions) and those a port of each {@link PortRole} drops, in bins of flow size
 * (0, e1], (e1, e2], ..., (en, ∞). A bin's loss rate at a role is the packets dropped there over the packets sent.
 * Reads a packet's flow size from its pFabric header, so it measures hostd's transport (pfabric, linerate).
 */
public final class HopLossMeter
{
    private final long[] upperBytes;
    private final long[] sentPackets;
    private final long[][] droppedPackets;

    /**
     * A meter with the given bin edges.
     *
     * @param edgesBytes the upper bounds of every bin but the last, increasing, positive.
     */
    public HopLossMeter(final List<Long> edgesBytes)
    {
        upperBytes = new long[edgesBytes.size() + 1];
        for (int i = 0; i < edgesBytes.size(); i++)
        {
            final long edge = edgesBytes.get(i);
            if (edge <= 0 || (i > 0 && edge <= upperBytes[i - 1]))
            {
                throw new IllegalArgumentException("the bins' edges must be positive and increasing: " + edgesBytes);
            }
            upperBytes[i] = edge;
        }
        upperBytes[edgesBytes.size()] = Long.MAX_VALUE;
        sentPackets = new long[upperBytes.length];
        droppedPackets = new long[PortRole.values().length][upperBytes.length];
    }

    /**
     * The bin of a flow size.
     *
     * @param sizeBytes the flow's size.
     * @return its bin, from 0.
     */
    public int bin(final long sizeBytes)
    {
        int bin = 0;
        while (sizeBytes > upperBytes[bin])
        {
            bin++;
        }
        return bin;
    }

    /**
     * How many bins.
     *
     * @return the count.
     */
    public int bins()
    {
        return upperBytes.length;
    }

    /**
     * A bin's lower bound, exclusive.
     *
     * @param bin the bin.
     * @return bytes.
     */
    public long lowerBytes(final int bin)
    {
        return 0 == bin ? 0 : upperBytes[bin - 1];
    }

    /**
     * A bin's upper bound, inclusive.
     *
     * @param bin the bin.
     * @return bytes, {@link Long#MAX_VALUE} for the last.
     */
    public long upperBytes(final int bin)
    {
        return upperBytes[bin];
    }

    /**
     * Data packets of a bin's flows the hosts sent.
     *
     * @param bin the bin.
     * @return packets.
     */
    public long sentPackets(final int bin)
    {
        return sentPackets[bin];
    }

    /**
     * Data packets of a bin's flows the ports of a role dropped.
     *
     * @param role the role.
     * @param bin  the bin.
     * @return packets.
     */
    public long droppedPackets(final PortRole role, final int bin)
    {
        return droppedPackets[role.ordinal()][bin];
    }

    /**
     * The fraction of a bin's data packets sent that the ports of a role dropped.
     *
     * @param role the role.
     * @param bin  the bin.
     * @return the loss rate, 0 if none was sent.
     */
    public double lossRate(final PortRole role, final int bin)
    {
        return 0 == sentPackets[bin] ? 0 : (double)droppedPackets[role.ordinal()][bin] / sentPackets[bin];
    }

    /**
     * Data packets the hosts sent, every bin.
     *
     * @return packets.
     */
    public long sentPackets()
    {
        long sent = 0;
        for (final long packets : sentPackets)
        {
            sent += packets;
        }
        return sent;
    }

    /**
     * Data packets the ports of a role dropped, every bin.
     *
     * @param role the role.
     * @return packets.
     */
    public long droppedPackets(final PortRole role)
    {
        long dropped = 0;
        for (final long packets : droppedPackets[role.ordinal()])
        {
            dropped += packets;
        }
        return dropped;
    }

    void onSent(final long flowSizeBytes)
    {
        sentPackets[bin(flowSizeBytes)]++;
    }

    void onDropped(final PortRole role, final long flowSizeBytes)
    {
        droppedPackets[role.ordinal()][bin(flowSizeBytes)]++;
    }
}
