package io.pfabric.sim;

import io.pfabric.dataplane.queue.EcnQueue;
import io.pfabric.hostd.transport.PiasThresholds;
import io.pfabric.hostd.transport.PriorityPolicy;
import io.pfabric.hostd.transport.TransportConfiguration;

import java.util.Locale;

/**
 * The settings of the simulated schemes on one fabric, derived from the fabric as hostd derives its own on an
 * emulated one. On the pFabric paper's fabric ({@link SimFabric#paper()}, any shape with spines) they are the paper's:
 * pFabric's window 12, cap 23 and fixed timeout 45 us ({@link TransportConfiguration#PAPER}); TCP's and DCTCP's
 * minimum RTO 200 us and DCTCP's marking threshold K of 15 full frames. On any other fabric, with R its largest base
 * RTT and B its bandwidth-delay product at the host rate: pFabric's window is B in full packets (rounded up), its cap
 * the buffer in full packets less one (or B, if larger), its timeout 3 R ({@link TransportConfiguration#forFabric});
 * TCP's and DCTCP's minimum RTO and K keep their ratio to the paper's fabric: 200 us x R / R<sub>paper</sub> and
 * 15 frames x B / B<sub>paper</sub>, at least one frame. On every fabric TCP and DCTCP never fast-retransmit
 * ({@link DupAckRule#OFF}), as the paper runs every scheme under packet spraying, and their window ends at the first
 * unacknowledged segment plus cwnd outside recovery, as ns-2's does.
 *
 * @param baseRttNs        the fabric's largest base RTT, R.
 * @param pfabric          pFabric's and LineRate's transport settings.
 * @param tcpMinRtoNs      TCP's and DCTCP's minimum retransmission timeout.
 * @param ecnThresholdLength DCTCP's marking threshold K in bytes.
 * @param tcpDupAckRule    when TCP and DCTCP take duplicate ACKs as a loss, if ever.
 * @param tcpSackOpensWindow whether TCP's and DCTCP's SACKed segments leave the window outside recovery too (new
 *                         data goes out past a hole); false for ns-2's window.
 * @param origin           where they come from, for {@link #describe()}.
 * @param pias             the demotion thresholds PIAS's hosts tag their packets by ({@link PiasThresholds#WEB_SEARCH}
 *                         unless given).
 */
public record SimSettings(
    long baseRttNs,
    TransportConfiguration pfabric,
    long tcpMinRtoNs,
    long ecnThresholdLength,
    DupAckRule tcpDupAckRule,
    boolean tcpSackOpensWindow,
    String origin,
    PiasThresholds pias)
{
    /**
     * {@link #origin()} of the paper's settings.
     */
    public static final String PAPERS = "the paper's settings on the paper's fabric";

    /**
     * {@link #origin()} of settings derived from a fabric.
     */
    public static final String DERIVED = "derived from this fabric";

    /**
     * TCP's and DCTCP's minimum RTO in the paper's simulations.
     */
    public static final long PAPER_TCP_MIN_RTO_NS = 200_000;

    /**
     * DCTCP's marking threshold in the paper's simulations: 15 full frames.
     */
    public static final long PAPER_ECN_THRESHOLD_LENGTH = EcnQueue.DEFAULT_MARKING_THRESHOLD_LENGTH;

    /**
     * Validate.
     */
    public SimSettings
    {
        if (baseRttNs <= 0 || tcpMinRtoNs <= 0 || ecnThresholdLength <= 0 || null == pfabric || null == origin ||
            null == tcpDupAckRule || null == pias)
        {
            throw new IllegalArgumentException("settings need a positive base RTT, minimum RTO and threshold");
        }
    }

    /**
     * Settings with the paper's duplicate-ACK rule for TCP and DCTCP, never a fast retransmit, and ns-2's window.
     *
     * @param baseRttNs          the fabric's largest base RTT, R.
     * @param pfabric            pFabric's and LineRate's transport settings.
     * @param tcpMinRtoNs        TCP's and DCTCP's minimum retransmission timeout.
     * @param ecnThresholdLength DCTCP's marking threshold K in bytes.
     * @param origin             where they come from, for {@link #describe()}.
     */
    public SimSettings(final long baseRttNs, final TransportConfiguration pfabric, final long tcpMinRtoNs,
        final long ecnThresholdLength, final String origin)
    {
        this(baseRttNs, pfabric, tcpMinRtoNs, ecnThresholdLength, DupAckRule.OFF, false, origin,
            PiasThresholds.WEB_SEARCH);
    }

    /**
     * The settings a fabric gets.
     *
     * @param fabric the fabric, whatever its queues.
     * @return the paper's settings on the paper's fabric, else the derived ones.
     */
    public static SimSettings forFabric(final SimFabric fabric)
    {
        final long rttNs = largestBaseRttNs(fabric);
        if (isPapersFabric(fabric))
        {
            return new SimSettings(rttNs, TransportConfiguration.PAPER, PAPER_TCP_MIN_RTO_NS,
                PAPER_ECN_THRESHOLD_LENGTH, PAPERS);
        }
        final SimFabric paper = SimFabric.paper();
        final long paperRttNs = largestBaseRttNs(paper);
        final double bdpRatio = ((double)fabric.edgeRateBitsPerSec() * rttNs) /
            ((double)paper.edgeRateBitsPerSec() * paperRttNs);
        final long minRtoNs = Math.max(1, Math.round((double)PAPER_TCP_MIN_RTO_NS * rttNs / paperRttNs));
        final long frames = Math.max(1, Math.round(PAPER_ECN_THRESHOLD_LENGTH /
            (double)TransportConfiguration.FULL_PACKET_WIRE_LENGTH * bdpRatio));
        return new SimSettings(rttNs,
            TransportConfiguration.forFabric(fabric.edgeRateBitsPerSec(), rttNs, fabric.bufferLength()),
            minRtoNs, frames * TransportConfiguration.FULL_PACKET_WIRE_LENGTH, DERIVED);
    }

    /**
     * Whether a fabric is the paper's in everything but its shape and queues: host and core rates, link delays,
     * buffer, and spines (a leaf-spine, not a fat-tree).
     *
     * @param fabric the fabric.
     * @return true if it is.
     */
    public static boolean isPapersFabric(final SimFabric fabric)
    {
        final SimFabric paper = SimFabric.paper();
        return fabric.spines() > 0 && !fabric.isFatTree() && fabric.edgeRateBitsPerSec() == paper.edgeRateBitsPerSec() &&
            fabric.coreRateBitsPerSec() == paper.coreRateBitsPerSec() && fabric.edgeDelayNs() == paper.edgeDelayNs() &&
            fabric.coreDelayNs() == paper.coreDelayNs() && fabric.bufferLength() == paper.bufferLength();
    }

    /**
     * The largest base RTT between two hosts of a fabric: across a spine when there is one.
     *
     * @param fabric the fabric.
     * @return nanoseconds.
     */
    public static long largestBaseRttNs(final SimFabric fabric)
    {
        return fabric.baseRttNs(0, fabric.hosts() - 1);
    }

    /**
     * The same settings with pFabric's window, cap or timeout given by the user.
     *
     * @param initialWindowPackets a new flow's window, or 0 to keep it.
     * @param maxWindowPackets     the window's cap, or 0 to keep it.
     * @param timeoutNs            the fixed timeout, or 0 to keep it.
     * @return the settings.
     * @throws IllegalArgumentException if the window would exceed its cap.
     */
    public SimSettings withPfabric(final int initialWindowPackets, final int maxWindowPackets, final long timeoutNs)
    {
        if (0 == initialWindowPackets && 0 == maxWindowPackets && 0 == timeoutNs)
        {
            return this;
        }
        final TransportConfiguration p = pfabric;
        final int initial = 0 == initialWindowPackets ? p.initialWindowPackets() : initialWindowPackets;
        final int cap = 0 == maxWindowPackets ? Math.max(p.maxWindowPackets(), initial) : maxWindowPackets;
        final TransportConfiguration changed = new TransportConfiguration(p.segmentLength(), initial, cap,
            0 == timeoutNs ? p.timeoutNs() : timeoutNs, p.probeAfterTimeouts(), p.lineRate(), p.priorityPolicy(),
            p.segmentsPerAck());
        return new SimSettings(baseRttNs, changed, tcpMinRtoNs, ecnThresholdLength, tcpDupAckRule,
            tcpSackOpensWindow, origin + ", pfabric's overridden", pias);
    }

    /**
     * These settings with pFabric's probe mode after another number of consecutive timeouts, or never.
     *
     * @param timeouts consecutive timeouts after which a flow only probes; {@link Integer#MAX_VALUE} for never.
     * @return the settings.
     * @throws IllegalArgumentException if it is below 1.
     */
    public SimSettings withProbeAfterTimeouts(final int timeouts)
    {
        final TransportConfiguration p = pfabric;
        if (timeouts == p.probeAfterTimeouts())
        {
            return this;
        }
        final TransportConfiguration changed = new TransportConfiguration(p.segmentLength(),
            p.initialWindowPackets(), p.maxWindowPackets(), p.timeoutNs(), timeouts, p.lineRate(), p.priorityPolicy(),
            p.segmentsPerAck());
        return new SimSettings(baseRttNs, changed, tcpMinRtoNs, ecnThresholdLength, tcpDupAckRule,
            tcpSackOpensWindow, origin + (Integer.MAX_VALUE == timeouts ? ", no probe mode" :
            ", probe mode after " + timeouts + " timeouts"), pias);
    }

    /**
     * The same settings with TCP's and DCTCP's minimum RTO or DCTCP's marking threshold given by the user.
     *
     * @param minRtoNs        the minimum (and initial) RTO, or 0 to keep it.
     * @param thresholdLength K in bytes, or 0 to keep it.
     * @return the settings.
     */
    public SimSettings withTcp(final long minRtoNs, final long thresholdLength)
    {
        if (0 == minRtoNs && 0 == thresholdLength)
        {
            return this;
        }
        return new SimSettings(baseRttNs, pfabric, 0 == minRtoNs ? tcpMinRtoNs : minRtoNs,
            0 == thresholdLength ? ecnThresholdLength : thresholdLength, tcpDupAckRule, tcpSackOpensWindow,
            origin + ", tcp's overridden", pias);
    }

    /**
     * The same settings with TCP's and DCTCP's duplicate-ACK rule given by the user.
     *
     * @param rule when duplicate ACKs trigger a fast retransmit, or null to keep it.
     * @return the settings.
     */
    public SimSettings withTcpDupAckRule(final DupAckRule rule)
    {
        if (null == rule || rule.equals(tcpDupAckRule))
        {
            return this;
        }
        return new SimSettings(baseRttNs, pfabric, tcpMinRtoNs, ecnThresholdLength, rule, tcpSackOpensWindow,
            origin + ", tcp's duplicate-ACK rule overridden", pias);
    }

    /**
     * The same settings with TCP's and DCTCP's window outside recovery given by the user.
     *
     * @param sackOpensWindow true if SACKed segments leave the window outside recovery too; false for ns-2's window.
     * @return the settings.
     */
    public SimSettings withTcpSackOpensWindow(final boolean sackOpensWindow)
    {
        if (sackOpensWindow == tcpSackOpensWindow)
        {
            return this;
        }
        return new SimSettings(baseRttNs, pfabric, tcpMinRtoNs, ecnThresholdLength, tcpDupAckRule, sackOpensWindow,
            origin + ", tcp's window overridden", pias);
    }

    /**
     * The same settings with pFabric's packets carrying another priority.
     *
     * @param policy what a data packet's priority says.
     * @return the settings.
     */
    public SimSettings withPriority(final PriorityPolicy policy)
    {
        return policy == pfabric.priorityPolicy() ? this : new SimSettings(baseRttNs,
            pfabric.withPriorityPolicy(policy), tcpMinRtoNs, ecnThresholdLength, tcpDupAckRule, tcpSackOpensWindow,
            origin, pias);
    }

    /**
     * The same settings with PIAS's hosts tagging by other thresholds.
     *
     * @param thresholds the demotion thresholds.
     * @return the settings.
     */
    public SimSettings withPias(final PiasThresholds thresholds)
    {
        return thresholds.equals(pias) ? this : new SimSettings(baseRttNs, pfabric, tcpMinRtoNs, ecnThresholdLength,
            tcpDupAckRule, tcpSackOpensWindow, origin, thresholds);
    }

    /**
     * What a user should be told about these settings on their fabric, if anything: a timeout no longer than the
     * base RTT fires before any ACK can arrive.
     *
     * @return the warning, or null.
     */
    public String warning()
    {
        if (pfabric.timeoutNs() <= baseRttNs)
        {
            return String.format(Locale.ROOT, "pFabric's timeout %.1f us is not longer than the fabric's " +
                "base RTT %.1f us: every flow will time out before its first ACK can arrive", pfabric.timeoutNs() / 1e3,
                baseRttNs / 1e3);
        }
        return null;
    }

    /**
     * One line on the settings, as the demo prints them.
     *
     * @return the text.
     */
    public String describe()
    {
        return String.format(Locale.ROOT, "base RTT %.1f us; pfabric: initial window %d packets, cap %d, " +
            "timeout %.1f us, probe mode after %d timeouts; tcp/dctcp: minimum RTO %.1f us, %s, %s, dctcp K %,d B, " +
            "%d persistent connections per pair (%s)",
            baseRttNs / 1e3, pfabric.initialWindowPackets(), pfabric.maxWindowPackets(), pfabric.timeoutNs() / 1e3,
            pfabric.probeAfterTimeouts(), tcpMinRtoNs / 1e3, tcpDupAckRule.describe(),
            tcpSackOpensWindow ? "SACKs open the window past a hole" : "window from the first unacknowledged segment",
            ecnThresholdLength,
            SimTcp.SCRIPTS_CONNECTIONS_PER_PAIR, origin);
    }
}
