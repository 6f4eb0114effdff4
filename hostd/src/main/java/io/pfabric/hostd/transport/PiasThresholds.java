package io.pfabric.hostd.transport;

import java.util.Arrays;
import java.util.Locale;

/**
 * PIAS's host side (Bai et al., NSDI 2015): a flow's packets carry a DSCP chosen by the bytes the flow has sent before
 * them against N - 1 demotion thresholds, DSCP 0 (the most urgent) until the first threshold, then one lower per
 * threshold crossed, N - 1 beyond the last; control packets (ACKs, SYNs) carry DSCP 0. A PIAS switch port
 * ({@code pias} queues) serves DSCP 0 first. The host needs no flow sizes.
 * <p>
 * A packet that starts at byte b of its flow gets the first i with b &lt;= T(i+1), as PIAS's ns-2 agent tags its
 * segments by their sequence offset (a retransmission keeps its segment's tag). The default thresholds are those of
 * PIAS's released ns-2 scripts (HKUST-SING/PIAS-NS2, {@code scripts/run_pias_dctcp.py} for web search, one set for
 * every load, and {@code scripts/run_pias_vl2.py} for data mining, a set per load 0.5-0.9), in packets of 1,460
 * bytes.
 */
public final class PiasThresholds
{
    /**
     * Bytes per packet in which PIAS's scripts give their thresholds.
     */
    public static final long SCRIPTS_PACKET_BYTES = 1_460;

    /**
     * Most thresholds: a commodity port has eight queues.
     */
    public static final int MAX_THRESHOLDS = 7;

    /**
     * The web-search thresholds of PIAS's scripts: 46, 1084, 1717, 1943, 1989, 1999, 2001 packets.
     */
    public static final PiasThresholds WEB_SEARCH = packets(46, 1084, 1717, 1943, 1989, 1999, 2001);

    private static final double[] DATA_MINING_LOADS = { 0.5, 0.6, 0.7, 0.8, 0.9 };

    private static final PiasThresholds[] DATA_MINING = {
        packets(805, 1106, 1401, 10693, 11970, 21162, 22272),
        packets(840, 1232, 1617, 11950, 12238, 21494, 25720),
        packets(907, 1301, 1619, 12166, 12915, 21313, 26374),
        packets(745, 1083, 1391, 13689, 14936, 21149, 27245),
        packets(750, 1083, 1416, 13705, 14952, 21125, 28253),
    };

    private final long[] thresholdsBytes;

    private PiasThresholds(final long[] thresholdsBytes)
    {
        this.thresholdsBytes = thresholdsBytes;
    }

    /**
     * Thresholds in bytes.
     *
     * @param thresholdsBytes 1 to {@value #MAX_THRESHOLDS} of them, positive and strictly increasing.
     * @return the thresholds.
     * @throws IllegalArgumentException in one line if they are not.
     */
    public static PiasThresholds of(final long... thresholdsBytes)
    {
        if (thresholdsBytes.length < 1 || thresholdsBytes.length > MAX_THRESHOLDS)
        {
            throw new IllegalArgumentException("PIAS takes 1 to " + MAX_THRESHOLDS + " thresholds, got " +
                thresholdsBytes.length);
        }
        for (int i = 0; i < thresholdsBytes.length; i++)
        {
            if (thresholdsBytes[i] <= 0 || (i > 0 && thresholdsBytes[i] <= thresholdsBytes[i - 1]))
            {
                throw new IllegalArgumentException("PIAS's thresholds must be positive and strictly increasing: " +
                    Arrays.toString(thresholdsBytes));
            }
        }
        return new PiasThresholds(thresholdsBytes.clone());
    }

    /**
     * Parse {@code T1,T2,...} in bytes.
     *
     * @param text the thresholds as written.
     * @return the thresholds.
     * @throws IllegalArgumentException in one line if they are not whole, positive, increasing numbers.
     */
    public static PiasThresholds parse(final String text)
    {
        final String[] fields = text.trim().split(",", -1);
        final long[] bytes = new long[fields.length];
        for (int i = 0; i < fields.length; i++)
        {
            try
            {
                bytes[i] = Long.parseLong(fields[i].trim());
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException("PIAS's thresholds are whole numbers of bytes, not '" +
                    fields[i].trim() + "'");
            }
        }
        return of(bytes);
    }

    /**
     * Parse thresholds given either as {@code T1,T2,...} in bytes or by a workload whose thresholds PIAS's scripts
     * give, {@code websearch} or {@code datamining:LOAD}.
     *
     * @param text the thresholds as written.
     * @return the thresholds.
     * @throws IllegalArgumentException in one line if they are neither.
     */
    public static PiasThresholds parseOrNamed(final String text)
    {
        final String trimmed = text.trim();
        if (trimmed.isEmpty() || !Character.isLetter(trimmed.charAt(0)))
        {
            return parse(trimmed);
        }
        final int colon = trimmed.indexOf(':');
        final String workload = colon < 0 ? trimmed : trimmed.substring(0, colon);
        double load = 0.5;
        if (colon >= 0)
        {
            try
            {
                load = Double.parseDouble(trimmed.substring(colon + 1));
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException("'" + trimmed + "': the load after the workload is a number");
            }
        }
        final PiasThresholds named = forWorkload(workload, load);
        if (null == named)
        {
            throw new IllegalArgumentException("'" + trimmed + "': PIAS's scripts give thresholds for websearch and " +
                "datamining[:LOAD]; else give T1,T2,... in bytes");
        }
        return named;
    }

    /**
     * The thresholds PIAS's scripts use for a workload at a load: web search's one set; data mining's set for the
     * nearest of the loads 0.5-0.9 they give (0.5's below it).
     *
     * @param workload the workload's name, {@code websearch} or {@code datamining}.
     * @param load     the run's load.
     * @return the thresholds, or null for a workload the scripts do not cover.
     */
    public static PiasThresholds forWorkload(final String workload, final double load)
    {
        return switch (workload.toLowerCase(Locale.ROOT))
        {
            case "websearch" -> WEB_SEARCH;
            case "datamining" ->
            {
                int nearest = 0;
                for (int i = 1; i < DATA_MINING_LOADS.length; i++)
                {
                    if (Math.abs(DATA_MINING_LOADS[i] - load) < Math.abs(DATA_MINING_LOADS[nearest] - load) - 1e-9)
                    {
                        nearest = i;
                    }
                }
                yield DATA_MINING[nearest];
            }
            default -> null;
        };
    }

    private static PiasThresholds packets(final long... packets)
    {
        final long[] bytes = new long[packets.length];
        for (int i = 0; i < packets.length; i++)
        {
            bytes[i] = packets[i] * SCRIPTS_PACKET_BYTES;
        }
        return of(bytes);
    }

    /**
     * The DSCP of a data packet that starts a given number of bytes into its flow.
     *
     * @param bytesSentBefore the packet's offset in its flow.
     * @return 0 (most urgent) to the number of thresholds.
     */
    public int dscpOf(final long bytesSentBefore)
    {
        for (int i = 0; i < thresholdsBytes.length; i++)
        {
            if (bytesSentBefore <= thresholdsBytes[i])
            {
                return i;
            }
        }
        return thresholdsBytes.length;
    }

    /**
     * How many priorities the thresholds make: one more than there are thresholds.
     *
     * @return the count.
     */
    public int priorities()
    {
        return thresholdsBytes.length + 1;
    }

    /**
     * The thresholds.
     *
     * @return a copy, in bytes.
     */
    public long[] thresholdsBytes()
    {
        return thresholdsBytes.clone();
    }

    /**
     * The thresholds as {@link #parse} reads them.
     *
     * @return {@code T1,T2,...} in bytes.
     */
    public String toString()
    {
        final StringBuilder text = new StringBuilder();
        for (int i = 0; i < thresholdsBytes.length; i++)
        {
            text.append(i > 0 ? "," : "").append(thresholdsBytes[i]);
        }
        return text.toString();
    }

    /**
     * {@inheritDoc}
     */
    public boolean equals(final Object other)
    {
        return other instanceof PiasThresholds that && Arrays.equals(thresholdsBytes, that.thresholdsBytes);
    }

    /**
     * {@inheritDoc}
     */
    public int hashCode()
    {
        return Arrays.hashCode(thresholdsBytes);
    }
}
