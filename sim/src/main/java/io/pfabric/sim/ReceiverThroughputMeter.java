package io.pfabric.sim;

import io.pfabric.common.topology.TrafficClasses;

import java.util.Arrays;

/**
 * Payload bytes the receivers' links carry, per DSCP and per time bin: counted as each frame starts to leave a leaf
 * (or edge switch) on a port down to a host, the last hop, after which nothing is dropped, so these are the bytes
 * delivered to the receivers, retransmitted copies included. Packets sent within one rack count too, as they leave
 * on the same ports. A run's time beyond the last bin counts in the last bin.
 */
public final class ReceiverThroughputMeter implements TransmitObserver
{
    private final int leaves;
    private final int hostsPerLeaf;
    private final long binNs;
    private final long[][] payloadBytesByDscp;

    /**
     * A meter over a fabric's receiver links.
     *
     * @param fabric the fabric.
     * @param binNs  the width of a time bin.
     * @param bins   how many bins, from time 0.
     */
    public ReceiverThroughputMeter(final SimFabric fabric, final long binNs, final int bins)
    {
        if (binNs <= 0 || bins <= 0)
        {
            throw new IllegalArgumentException("the bins' width and count must be positive");
        }
        this.leaves = fabric.leaves();
        this.hostsPerLeaf = fabric.hostsPerLeaf();
        this.binNs = binNs;
        this.payloadBytesByDscp = new long[TrafficClasses.DSCP_COUNT][bins];
    }

    /**
     * {@inheritDoc}
     */
    public void onTransmit(final int switchIndex, final int port, final long nowNs, final int payloadLength)
    {
        onTransmit(switchIndex, port, nowNs, payloadLength, 0, 0);
    }

    /**
     * {@inheritDoc}
     */
    public void onTransmit(
        final int switchIndex, final int port, final long nowNs, final int payloadLength, final int frameLength,
        final int dscp)
    {
        if (switchIndex < leaves && port < hostsPerLeaf && payloadLength > 0)
        {
            final long[] bins = payloadBytesByDscp[dscp];
            bins[(int)Math.min(bins.length - 1, nowNs / binNs)] += payloadLength;
        }
    }

    /**
     * The width of a bin.
     *
     * @return nanoseconds.
     */
    public long binNs()
    {
        return binNs;
    }

    /**
     * The number of bins.
     *
     * @return bins from time 0.
     */
    public int bins()
    {
        return payloadBytesByDscp[0].length;
    }

    /**
     * Payload bytes delivered in a bin to every receiver together.
     *
     * @param dscp the DSCP of the frames.
     * @param bin  the bin, from 0.
     * @return bytes.
     */
    public long payloadBytes(final int dscp, final int bin)
    {
        return payloadBytesByDscp[dscp][bin];
    }

    /**
     * Payload bytes of a DSCP delivered to every receiver over whole bins.
     *
     * @param dscp     the DSCP.
     * @param fromBin  the first bin counted.
     * @param toBin    the bin after the last counted.
     * @return bytes.
     */
    public long payloadBytes(final int dscp, final int fromBin, final int toBin)
    {
        return Arrays.stream(payloadBytesByDscp[dscp], fromBin, toBin).sum();
    }
}
