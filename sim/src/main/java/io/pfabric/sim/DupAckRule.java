package io.pfabric.sim;

import java.util.Locale;

/**
 * When the simulator's TCP and DCTCP ({@link SimTcp}) take duplicate ACKs as a loss and fast-retransmit: never (the
 * pFabric paper's setting, §5.1: with packets sprayed, duplicate ACKs and fast retransmit are disabled for every
 * scheme, so only the RTO retransmits), or after max(minimum, fraction x cwnd) duplicate ACKs. The released ns-2
 * scripts for TCP and DCTCP set {@code dynamic_dupack_ 0.75} under spraying, which is {@link #SCRIPTS}: max(3, 0.75
 * cwnd); a fixed threshold N is (N, 0).
 *
 * @param minimum      the least number of duplicate ACKs that trigger a fast retransmit; 0 for never.
 * @param cwndFraction the fraction of the congestion window (in segments) that the threshold follows above the
 *                     minimum; 0 for a fixed threshold.
 */
public record DupAckRule(int minimum, double cwndFraction)
{
    /**
     * Never fast-retransmit: the paper's setting and the default.
     */
    public static final DupAckRule OFF = new DupAckRule(0, 0);

    /**
     * The released ns-2 TCP and DCTCP scripts' rule under spraying: max(3, 0.75 x cwnd) duplicate ACKs.
     */
    public static final DupAckRule SCRIPTS = new DupAckRule(3, 0.75);

    /**
     * Validate.
     */
    public DupAckRule
    {
        if (minimum < 0 || cwndFraction < 0 || Double.isNaN(cwndFraction) || (0 == minimum && cwndFraction > 0))
        {
            throw new IllegalArgumentException("a duplicate-ACK rule needs a positive minimum and a fraction of at " +
                "least 0, or neither: " + minimum + ", " + cwndFraction);
        }
    }

    /**
     * The rule a user names.
     *
     * @param text {@code off}, {@code scripts} or a positive whole number of duplicate ACKs.
     * @return the rule.
     * @throws IllegalArgumentException naming {@code --dupack-threshold} if the text is none of these.
     */
    public static DupAckRule parse(final String text)
    {
        switch (text)
        {
            case "off":
                return OFF;
            case "scripts":
                return SCRIPTS;
            default:
                break;
        }
        final int threshold;
        try
        {
            threshold = Integer.parseInt(text);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("--dupack-threshold must be off, scripts or a positive whole number, " +
                "not '" + text + "'", ex);
        }
        if (threshold < 1)
        {
            throw new IllegalArgumentException("--dupack-threshold must be off, scripts or a positive whole number, " +
                "not '" + text + "'");
        }
        return new DupAckRule(threshold, 0);
    }

    /**
     * Whether duplicate ACKs ever trigger a fast retransmit.
     *
     * @return false for {@link #OFF}.
     */
    public boolean enabled()
    {
        return minimum > 0;
    }

    /**
     * The duplicate ACKs that trigger a fast retransmit at a congestion window.
     *
     * @param cwndSegments the congestion window.
     * @return the threshold; {@link Integer#MAX_VALUE} when the rule is off.
     */
    public int threshold(final double cwndSegments)
    {
        return enabled() ? Math.max(minimum, (int)(cwndFraction * cwndSegments)) : Integer.MAX_VALUE;
    }

    /**
     * The rule in words, as the settings line prints it.
     *
     * @return such as {@code no fast retransmit} or {@code fast retransmit after max(3, 0.75 cwnd) duplicate ACKs}.
     */
    public String describe()
    {
        if (!enabled())
        {
            return "no fast retransmit";
        }
        if (0 == cwndFraction)
        {
            return String.format(Locale.ROOT, "fast retransmit after %d duplicate ACKs", minimum);
        }
        return String.format(Locale.ROOT, "fast retransmit after max(%d, %s cwnd) duplicate ACKs", minimum,
            Double.toString(cwndFraction));
    }
}
