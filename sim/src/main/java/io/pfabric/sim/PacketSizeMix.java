package io.pfabric.sim;

import io.pfabric.hostd.transport.TransportConfiguration;

import java.util.Locale;

/**
 * The packet sizes of the sync-versus-async scenario (Sviridov, Bianco, Giaccone, Globecom 2018): every data packet's
 * length on the wire is drawn from a mix, as a pure function of its flow and segment, so that a retransmission has
 * the length of the original and a run is the same for every scheme. The transport still carries fixed 1460-byte
 * segments; the simulator accounts each data frame at its drawn length in every queue and pacer
 * ({@link PacketSizer}). Lengths are frame bytes without FCS, preamble and gap (24 more on the wire).
 */
public enum PacketSizeMix implements PacketSizer
{
    /**
     * Every packet 1500 bytes.
     */
    FIXED(new int[]{ 1500 }, new double[]{ 1.0 }),

    /**
     * 40% of packets 40 bytes, 60% 1500 bytes.
     */
    BIMODAL(new int[]{ 40, 1500 }, new double[]{ 0.4, 0.6 }),

    /**
     * A web-server mix: 15% of packets at 1500 bytes, the median at 150 bytes (30% 40 B, 25% 150 B, 15% 300 B,
     * 15% 576 B, 15% 1500 B).
     */
    WEB(new int[]{ 40, 150, 300, 576, 1500 }, new double[]{ 0.30, 0.25, 0.15, 0.15, 0.15 });

    private final int[] lengths;
    private final double[] cumulative;
    private final double meanFrameLength;

    PacketSizeMix(final int[] lengths, final double[] probabilities)
    {
        this.lengths = lengths;
        this.cumulative = new double[probabilities.length];
        double sum = 0;
        double mean = 0;
        for (int i = 0; i < probabilities.length; i++)
        {
            sum += probabilities[i];
            cumulative[i] = sum;
            mean += probabilities[i] * lengths[i];
        }
        cumulative[cumulative.length - 1] = 1.0;
        this.meanFrameLength = mean;
    }

    /**
     * The mix by its command-line name.
     *
     * @param name fixed, bimodal or web.
     * @return the mix.
     */
    public static PacketSizeMix byName(final String name)
    {
        return valueOf(name.trim().toUpperCase(Locale.ROOT));
    }

    /**
     * @return the command-line name.
     */
    public String label()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @return mean frame bytes per packet.
     */
    public double meanFrameLength()
    {
        return meanFrameLength;
    }

    /**
     * {@inheritDoc}
     */
    public int frameLength(final long flowId, final long offsetBytes)
    {
        return frameLengthOfSegment(flowId, offsetBytes / TransportConfiguration.DEFAULT_SEGMENT_LENGTH);
    }

    /**
     * The frame length of a flow's segment.
     *
     * @param flowId  the transport's flow id.
     * @param segment the segment's index.
     * @return bytes, without FCS, preamble and gap.
     */
    public int frameLengthOfSegment(final long flowId, final long segment)
    {
        if (1 == lengths.length)
        {
            return lengths[0];
        }
        final double u = (mix(flowId * 0x9E3779B97F4A7C15L + segment) >>> 11) * 0x1.0p-53;
        for (int i = 0; i < cumulative.length; i++)
        {
            if (u < cumulative[i])
            {
                return lengths[i];
            }
        }
        return lengths[lengths.length - 1];
    }

    private static long mix(final long value)
    {
        long z = value + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
