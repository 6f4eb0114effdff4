package io.pfabric.sim.pdq;

import java.util.List;

/**
 * A PDQ variant and its parameters: which of the PDQ paper's enhancements run (Early Start, Early Termination,
 * Suppressed Probing), how often a paused sender probes, and the constants of the paper and of the pFabric paper's
 * Table 1.
 *
 * @param name                the scheme's name, such as {@code pdq} or {@code pdq-full}.
 * @param earlyStart          Early Start (Algorithm 2 does not charge nearly completed flows).
 * @param earlyTermination    Early Termination (the sender ends a deadline flow that cannot meet its deadline).
 * @param suppressedProbing   Suppressed Probing (a link stretches a paused flow's probing interval by its place in
 *                            the list).
 * @param probeIntervalNs     a paused sender's base interval between probes; 0 for one RTT (the sender's RTT_S).
 * @param earlyStartK         K of Early Start, in RTTs.
 * @param suppressionX        X of Suppressed Probing, in RTTs.
 * @param dampeningRtts       after accepting a flow that was not sending, a link pauses other such flows for this many
 *                            of its average RTTs.
 * @param maxListFlows        M, the most flows a link's list may hold whatever κ is.
 * @param rtoNs               the sender's retransmission timeout.
 * @param initialRttNs        the RTT a sender and a link assume until they measure one.
 * @param spray               spray each packet over the equal-cost paths rather than keep a flow on one (ECMP).
 */
public record PdqSettings(
    String name,
    boolean earlyStart,
    boolean earlyTermination,
    boolean suppressedProbing,
    long probeIntervalNs,
    double earlyStartK,
    double suppressionX,
    double dampeningRtts,
    int maxListFlows,
    long rtoNs,
    long initialRttNs,
    boolean spray)
{
    /**
     * The scheme names, the pFabric paper's baseline first.
     */
    public static final List<String> VARIANTS = List.of("pdq", "pdq-basic", "pdq-es", "pdq-es-et", "pdq-full");

    /**
     * The pFabric paper's probing interval (Table 1).
     */
    public static final long PFABRIC_PROBE_INTERVAL_NS = 15_000;

    /**
     * The pFabric paper's retransmission timeout for PDQ (Table 1).
     */
    public static final long RTO_NS = 200_000;

    /**
     * K = 2, as in the PDQ authors' implementation (PDQ §3.3.2).
     */
    public static final double EARLY_START_K = 2;

    /**
     * X = 0.2 RTT (PDQ §3.3.3, "conservatively").
     */
    public static final double SUPPRESSION_X = 0.2;

    /**
     * A fifth of an average RTT. The PDQ paper gives no value. A link that accepts a flow not yet sending sees that
     * acceptance committed only when the flow's ACK comes back through it; until then its Availbw does not count the
     * new flow's rate, so accepting another such flow in that window can hand out the same bandwidth twice. The
     * longer the window, the longer new flows wait paused for their next probe: on 6,000 web-search flows at load 0.8
     * (small flows' mean normalized FCT and p99, packets dropped) 0 gave 2.86, 10.3 and 12,580 drops; 0.1 gave 3.05,
     * 11.0 and 1,320; 0.2 gave 3.06, 9.0 and 448; 0.5 gave 3.57, 11.6 and 70.
     */
    public static final double DAMPENING_RTTS = 0.2;

    /**
     * M: a bound on a link's list far above the 2κ it holds in practice.
     */
    public static final int MAX_LIST_FLOWS = 64;

    /**
     * Checks the values.
     */
    public PdqSettings
    {
        if (probeIntervalNs < 0 || earlyStartK <= 0 || suppressionX <= 0 || dampeningRtts < 0 || maxListFlows < 2 ||
            rtoNs <= 0 || initialRttNs <= 0)
        {
            throw new IllegalArgumentException("PDQ's intervals, K, X and list bound must be positive");
        }
    }

    /**
     * A named variant with the pFabric paper's timing (RTO 200 us, {@code pdq} probing every 15 us).
     *
     * @param name         the scheme.
     * @param initialRttNs the fabric's base RTT, assumed until measured.
     * @param spray        spray packets rather than keep a flow on one path.
     * @return the settings.
     * @throws IllegalArgumentException naming {@code --scheme} if the name is no variant.
     */
    public static PdqSettings forScheme(final String name, final long initialRttNs, final boolean spray)
    {
        return forScheme(name, initialRttNs, RTO_NS, spray);
    }

    /**
     * A named variant on a fabric: {@code pdq}, the pFabric paper's baseline (Early Start and Early Termination,
     * probing every 15 us on its fabric); {@code pdq-basic}, {@code pdq-es}, {@code pdq-es-et} and {@code pdq-full}
     * (all three enhancements) as the PDQ paper's §5 names them, probing every RTT before Suppressed Probing stretches
     * it. On another fabric the RTO follows the fabric as TCP's does, and {@code pdq}'s probing interval keeps its
     * ratio to the RTO (15 us to 200 us).
     *
     * @param name         the scheme.
     * @param initialRttNs the fabric's base RTT, assumed until measured.
     * @param rtoNs        the retransmission timeout, 200 us on the pFabric paper's fabric.
     * @param spray        spray packets rather than keep a flow on one path.
     * @return the settings.
     * @throws IllegalArgumentException naming {@code --scheme} if the name is no variant.
     */
    public static PdqSettings forScheme(final String name, final long initialRttNs, final long rtoNs,
        final boolean spray)
    {
        final long probeNs = Math.max(1, Math.round((double)PFABRIC_PROBE_INTERVAL_NS * rtoNs / RTO_NS));
        return switch (name)
        {
            case "pdq" -> of(name, true, true, false, probeNs, initialRttNs, rtoNs, spray);
            case "pdq-basic" -> of(name, false, false, false, 0, initialRttNs, rtoNs, spray);
            case "pdq-es" -> of(name, true, false, false, 0, initialRttNs, rtoNs, spray);
            case "pdq-es-et" -> of(name, true, true, false, 0, initialRttNs, rtoNs, spray);
            case "pdq-full" -> of(name, true, true, true, 0, initialRttNs, rtoNs, spray);
            default -> throw new IllegalArgumentException(
                "--scheme: unknown PDQ variant '" + name + "', give one of " + String.join(", ", VARIANTS));
        };
    }

    /**
     * Whether a scheme name asks for PDQ (a known variant or not).
     *
     * @param scheme the name.
     * @return true if it starts with {@code pdq}.
     */
    public static boolean isPdq(final String scheme)
    {
        return scheme.equals("pdq") || scheme.startsWith("pdq-");
    }

    private static PdqSettings of(final String name, final boolean es, final boolean et, final boolean sp,
        final long probeIntervalNs, final long initialRttNs, final long rtoNs, final boolean spray)
    {
        return new PdqSettings(name, es, et, sp, probeIntervalNs, EARLY_START_K, SUPPRESSION_X, DAMPENING_RTTS,
            MAX_LIST_FLOWS, rtoNs, initialRttNs, spray);
    }
}
