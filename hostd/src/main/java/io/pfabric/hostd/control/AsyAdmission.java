package io.pfabric.hostd.control;

import java.util.Arrays;

/**
 * ASY admission on the host: one leaky (token) bucket per destination at the rate the controller granted, counting
 * each packet's wire bytes plus 24 of FCS, preamble and gap as the switch's pacer does. A packet may leave while the
 * bucket is not in debt; it then takes its bytes, possibly into debt, so the long-run rate is the granted one and a
 * burst is at most {@code depthBytes} plus one packet. A destination with no rate granted (yet) admits nothing. Pure:
 * time is given.
 */
public final class AsyAdmission
{
    /**
     * Bytes a packet takes on the wire besides what the transport counts: FCS, preamble, inter-frame gap.
     */
    public static final int FRAME_OVERHEAD_LENGTH = 24;

    /**
     * Default bucket depth: two full frames.
     */
    public static final long DEFAULT_DEPTH_BYTES = 2 * (1_500 + FRAME_OVERHEAD_LENGTH);

    private final long depthBytes;
    private final long[] rateBitsPerSec;
    private final double[] tokens;
    private final long[] updatedNs;

    /**
     * Buckets for a fabric's hosts.
     *
     * @param hostCount  hosts, so destinations 0 to {@code hostCount - 1}.
     * @param depthBytes most bytes a bucket holds.
     * @param nowNs      the host's clock.
     */
    public AsyAdmission(final int hostCount, final long depthBytes, final long nowNs)
    {
        this.depthBytes = depthBytes;
        rateBitsPerSec = new long[hostCount];
        tokens = new double[hostCount];
        updatedNs = new long[hostCount];
        Arrays.fill(updatedNs, nowNs);
    }

    /**
     * The controller granted a rate toward a destination.
     *
     * @param destinationHost the receiving host.
     * @param bitsPerSec      the rate, 0 to stop.
     * @param nowNs           the host's clock.
     */
    public void rate(final int destinationHost, final long bitsPerSec, final long nowNs)
    {
        refill(destinationHost, nowNs);
        rateBitsPerSec[destinationHost] = Math.max(0, bitsPerSec);
    }

    /**
     * The rate granted toward a destination.
     *
     * @param destinationHost the receiving host.
     * @return bits per second.
     */
    public long rate(final int destinationHost)
    {
        return rateBitsPerSec[destinationHost];
    }

    /**
     * Whether a packet toward a destination may leave now.
     *
     * @param destinationHost the receiving host.
     * @param nowNs           the host's clock.
     * @return true if its bucket has a rate and is not in debt.
     */
    public boolean mayAdmit(final int destinationHost, final long nowNs)
    {
        refill(destinationHost, nowNs);
        return rateBitsPerSec[destinationHost] > 0 && tokens[destinationHost] >= 0;
    }

    /**
     * A packet toward a destination left.
     *
     * @param destinationHost the receiving host.
     * @param nowNs           the host's clock.
     * @param wireLength      its bytes, without FCS, preamble and gap.
     */
    public void onAdmitted(final int destinationHost, final long nowNs, final int wireLength)
    {
        refill(destinationHost, nowNs);
        tokens[destinationHost] -= wireLength + FRAME_OVERHEAD_LENGTH;
    }

    private void refill(final int destinationHost, final long nowNs)
    {
        final long elapsedNs = nowNs - updatedNs[destinationHost];
        if (elapsedNs > 0)
        {
            tokens[destinationHost] = Math.min(depthBytes,
                tokens[destinationHost] + elapsedNs * (rateBitsPerSec[destinationHost] / 8e9));
            updatedNs[destinationHost] = nowNs;
        }
    }
}
