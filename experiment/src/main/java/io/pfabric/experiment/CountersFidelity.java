package io.pfabric.experiment;

import io.pfabric.testbed.monitor.PrometheusText;

import java.io.IOException;
import java.util.List;

/**
 * {@link Fidelity} of a run whose daemons run in processes of their own, read from their counters files (the
 * Prometheus text of {@code --counters-file}), as {@code pfabric soak} runs them; the machine's idle CPU is sampled
 * at each reading. The forwarders' longest stall while backlogged and the hosts' longest lag then span the daemons'
 * whole life, and the worst port is not named.
 */
public final class CountersFidelity
{
    private final MachineCpu atStart;
    private MachineCpu last;
    private double idleMin = Double.NaN;

    /**
     * Start: the machine's CPU now.
     *
     * @throws IOException if {@code /proc/stat} cannot be read.
     */
    public CountersFidelity() throws IOException
    {
        atStart = MachineCpu.read();
        last = atStart;
    }

    /**
     * The invariants so far, from the daemons' latest counters.
     *
     * @param switches the switches' counters, or null if not written yet.
     * @param hosts    every host's counters written so far.
     * @return the figures.
     * @throws IOException if {@code /proc/stat} cannot be read.
     */
    public Fidelity read(final PrometheusText switches, final List<PrometheusText> hosts) throws IOException
    {
        final MachineCpu now = MachineCpu.read();
        final double idle = now.idleSince(last);
        if (!Double.isNaN(idle) && (Double.isNaN(idleMin) || idle < idleMin))
        {
            idleMin = idle;
        }
        last = now;
        long waits = 0;
        long late = 0;
        long longestLagNs = 0;
        for (final PrometheusText host : hosts)
        {
            waits += Math.round(host.sum("pfabric_host_pacer_waits_total"));
            late += Math.round(host.sum("pfabric_host_late_sends_total"));
            longestLagNs = Math.max(longestLagNs, nanos(host.sum("pfabric_host_longest_send_lag_seconds")));
        }
        final boolean switchesRead = null != switches;
        return new Fidelity(
            switchesRead ? nanos(switches.sum("pfabric_port_backlogged_time_seconds_total")) : 0,
            switchesRead ? nanos(switches.sum("pfabric_port_backlogged_wire_time_seconds_total")) : 0,
            switchesRead ? nanos(switches.sum("pfabric_port_slow_time_seconds_total")) : 0, null, 0, waits, late,
            longestLagNs, switchesRead ? nanos(maxOf(switches, "pfabric_forwarder_longest_backlogged_gap_seconds")) : 0,
            idleMin, now.idleSince(atStart), FidelityMonitor.loadAverage(), switchesRead, !hosts.isEmpty());
    }

    /**
     * The largest sample of a family, or 0 when the file has none (a switches file without that forwarder gauge:
     * no stall measured).
     */
    private static double maxOf(final PrometheusText text, final String name)
    {
        return text.samples().stream().filter(s -> s.name().equals(name))
            .mapToDouble(PrometheusText.Sample::value).max().orElse(0);
    }

    private static long nanos(final double seconds)
    {
        return Math.round(seconds * 1e9);
    }
}
