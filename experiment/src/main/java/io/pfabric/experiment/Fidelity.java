package io.pfabric.experiment;

import io.pfabric.analysis.ResultsTable;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Whether an emulated run measured the network or the machine: the invariants an emulated fabric must keep for its
 * figures to describe the network (Handigol et al., CoNEXT 2012, mark Mininet-HiFi runs by the same test), as they
 * held during one run.
 * <ul>
 * <li>{@code port-rate}: every switch port departs at its configured rate while frames wait
 * ({@code DepartureRateMonitor}); broken when more than {@link #MAX_SLOW_SHARE} of the ports' backlogged time was in
 * periods below 95% of the rate.</li>
 * <li>{@code host-lag}: every host sends when its transport means to (hostd's runs only); broken when more than
 * {@link #MAX_LATE_SEND_SHARE} of the sends that waited for the host's pacer left so late that the host's link sat
 * idle meanwhile.</li>
 * </ul>
 * The machine's idle CPU, the load average and the forwarders' longest stall while backlogged are reported beside
 * them, not judged: what matters is whether the fabric's threads got the CPU when they needed it, which the two
 * invariants measure; a busy machine whose ports and hosts keep time is still a faithful fabric.
 *
 * @param backloggedNs           time every switch port together spent in measured backlogged periods.
 * @param backloggedWireNs       the wire time, at the ports' rates, of the frames those periods sent.
 * @param slowNs                 of which in periods below 95% of the port's rate.
 * @param worstPort              the port with the largest slow share, {@code switch/port}, or null.
 * @param worstPortSlowShare     its slow share of its backlogged time.
 * @param pacerWaits             hostd's sends that waited for their pacer (0 for kernel TCP).
 * @param lateSends              of which late enough that the host's link sat idle.
 * @param longestSendLagNs       the longest lag of such a send.
 * @param longestBackloggedGapNs the longest gap between two duty cycles of a forwarder while a port held frames.
 * @param idleCpuMin             the machine's smallest idle share over a sample interval, NaN if none was sampled.
 * @param idleCpuMean            its idle share over the run.
 * @param loadAverage            the one-minute load average at the end of the run, NaN if unknown.
 * @param switchesWatched        whether the switches' departures were watched (they ran in this process).
 * @param hostsWatched           whether hostd's sends were watched.
 */
public record Fidelity(long backloggedNs, long backloggedWireNs, long slowNs, String worstPort,
    double worstPortSlowShare, long pacerWaits, long lateSends, long longestSendLagNs, long longestBackloggedGapNs,
    double idleCpuMin, double idleCpuMean, double loadAverage, boolean switchesWatched, boolean hostsWatched)
{
    /**
     * Largest share of the ports' backlogged time that may be spent below 95% of their rate in a faithful run: one
     * slow period in twenty. More means the queues the run measured drained slower than the links they stand for, so
     * they were longer and dropped more than the configured fabric's would.
     */
    public static final double MAX_SLOW_SHARE = 0.05;

    /**
     * Largest share of hostd's paced sends that may leave after the host's link went idle: one in twenty. More means
     * the hosts' threads, not their transport, set when packets left, so flows' windows and timeouts ran on the
     * scheduler's time.
     */
    public static final double MAX_LATE_SEND_SHARE = 0.05;

    /**
     * The verdict of a run whose invariants all held.
     */
    public static final String OK = "ok";

    /**
     * The verdict of a run nothing was watched in (switches in other processes, kernel TCP hosts).
     */
    public static final String UNCHECKED = "unchecked";

    /**
     * The verdict of the run a line of a results table comes from.
     *
     * @param runs each emulated run's figures, by {@code scheme,load}.
     * @param line a line of the table; a {@code SCHEME:dscpN} line takes its scheme's verdict.
     * @return {@link #label()}, or {@code -} for a scheme that was not emulated (Ideal, the simulator).
     */
    public static String labelOf(final Map<String, Fidelity> runs, final ResultsTable.Line line)
    {
        final int dscp = line.scheme().indexOf(ResultsTable.DSCP_SUFFIX);
        final String scheme = dscp >= 0 ? line.scheme().substring(0, dscp) : line.scheme();
        final Fidelity run = runs.get(scheme + "," + line.load());
        return null == run ? "-" : run.label();
    }

    /**
     * The runs whose invariants broke.
     *
     * @param runs each emulated run's figures, by {@code scheme,load}.
     * @return their keys.
     */
    public static Set<String> brokenRuns(final Map<String, Fidelity> runs)
    {
        final Set<String> broken = new LinkedHashSet<>();
        runs.forEach((run, figures) ->
        {
            if (figures.isBroken())
            {
                broken.add(run);
            }
        });
        return broken;
    }

    /**
     * The share of backlogged time below rate.
     *
     * @return 0 to 1, 0 when nothing was backlogged.
     */
    public double slowShare()
    {
        return backloggedNs <= 0 ? 0 : (double)slowNs / backloggedNs;
    }

    /**
     * The fraction of their rate the ports achieved while backlogged.
     *
     * @return 0 to 1 (a little above after catch-up bursts), 1 when nothing was backlogged.
     */
    public double achievedRate()
    {
        return backloggedNs <= 0 ? 1 : (double)backloggedWireNs / backloggedNs;
    }

    /**
     * The share of paced sends that were late.
     *
     * @return 0 to 1, 0 when none waited.
     */
    public double lateSendShare()
    {
        return pacerWaits <= 0 ? 0 : (double)lateSends / pacerWaits;
    }

    /**
     * The invariants that broke.
     *
     * @return {@code port-rate}, {@code host-lag}, or none.
     */
    public List<String> broken()
    {
        final List<String> broken = new ArrayList<>();
        if (switchesWatched && slowShare() > MAX_SLOW_SHARE)
        {
            broken.add("port-rate");
        }
        if (hostsWatched && lateSendShare() > MAX_LATE_SEND_SHARE)
        {
            broken.add("host-lag");
        }
        return broken;
    }

    /**
     * The verdict for {@code summary.csv}.
     *
     * @return {@code ok}, {@code broken:port-rate,host-lag} (those that broke, joined by {@code +} in a CSV field),
     *         or {@code unchecked}.
     */
    public String label()
    {
        final List<String> broken = broken();
        if (!broken.isEmpty())
        {
            return "broken:" + String.join("+", broken);
        }
        return switchesWatched || hostsWatched ? OK : UNCHECKED;
    }

    /**
     * Whether an invariant broke.
     *
     * @return true if so.
     */
    public boolean isBroken()
    {
        return !broken().isEmpty();
    }

    /**
     * The figures, one line.
     *
     * @return e.g. {@code port rate: 12.0% of 3.10 s backlogged below 95% of rate (worst s1/p2 30.1%); ...}.
     */
    public String figures()
    {
        final StringBuilder text = new StringBuilder();
        if (switchesWatched)
        {
            text.append(String.format(Locale.ROOT, "port rate: %.1f%% of %.2f s backlogged below 95%% of rate " +
                "(%.1f%% of the rate achieved while backlogged)", 100 * slowShare(), backloggedNs / 1e9,
                100 * achievedRate()));
            if (null != worstPort && worstPortSlowShare > 0)
            {
                text.append(String.format(Locale.ROOT, ", worst %s %.1f%%", worstPort, 100 * worstPortSlowShare));
            }
            text.append(String.format(Locale.ROOT, ", forwarder's longest stall while backlogged %.2f ms",
                longestBackloggedGapNs / 1e6));
        }
        else
        {
            text.append("port rate: not watched");
        }
        if (hostsWatched)
        {
            text.append(String.format(Locale.ROOT, "; host lag: %.1f%% of %,d paced sends late, worst %.2f ms",
                100 * lateSendShare(), pacerWaits, longestSendLagNs / 1e6));
        }
        else
        {
            text.append("; host lag: not watched (kernel TCP)");
        }
        text.append(String.format(Locale.ROOT, "; idle CPU %s min, %s mean; load average %s", percent(idleCpuMin),
            percent(idleCpuMean), Double.isNaN(loadAverage) ? "?" : String.format(Locale.ROOT, "%.2f", loadAverage)));
        return text.toString();
    }

    private static String percent(final double share)
    {
        return Double.isNaN(share) ? "?" : String.format(Locale.ROOT, "%.0f%%", 100 * share);
    }
}
