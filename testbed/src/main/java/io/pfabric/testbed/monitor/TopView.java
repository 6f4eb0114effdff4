package io.pfabric.testbed.monitor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code pfabric top} shows, from two scrapes of a testbed's daemons: every switch port (bits per second sent
 * over the interval, queue depth now, drops by reason since the start) and every host (flows active, completed,
 * incomplete, timeouts). Pure: samples in, rows and text out.
 *
 * @param ports           one row per switch port, by switch and port.
 * @param hosts           one row per host, by name.
 * @param intervalSeconds the time between the two scrapes.
 */
public record TopView(List<PortRow> ports, List<HostRow> hosts, double intervalSeconds)
{
    /** Bytes sent by a port's egress queue: every frame the port sends leaves through it. */
    public static final String DEQUEUED_BYTES = "pfabric_queue_dequeued_bytes_total";
    /** A port's queue depth in bytes. */
    public static final String QUEUE_BYTES = "pfabric_queue_occupancy_bytes";
    /** A port's queue depth in frames. */
    public static final String QUEUE_FRAMES = "pfabric_queue_occupancy_frames";
    /** Frames a port's egress queue dropped, by reason. */
    public static final String QUEUE_DROPS = "pfabric_queue_dropped_frames_total";
    /** Frames a port dropped on receive, by reason. */
    public static final String PORT_DROPS = "pfabric_port_dropped_frames_total";
    /** A host's flows in flight. */
    public static final String FLOWS_ACTIVE = "pfabric_host_flows_active";
    /** A host's flows completed. */
    public static final String FLOWS_COMPLETED = "pfabric_host_flows_completed_total";
    /** A host's flows that finished incomplete. */
    public static final String FLOWS_INCOMPLETE = "pfabric_host_flows_incomplete_total";
    /** A host's flow timeouts. */
    public static final String TIMEOUTS = "pfabric_host_timeouts_total";
    /** A host's kernel-TCP flows in flight (tcpd, an experiment's TCP replay). */
    public static final String TCP_FLOWS_ACTIVE = "pfabric_tcp_flows_active";
    /** A host's kernel-TCP flows completed. */
    public static final String TCP_FLOWS_COMPLETED = "pfabric_tcp_flows_completed_total";

    /**
     * One switch port.
     *
     * @param switchName     the switch.
     * @param port           the port.
     * @param rateBitsPerSec bits sent per second over the interval (frame bytes, without preamble and gap).
     * @param queueBytes     bytes queued now.
     * @param queueFrames    frames queued now.
     * @param dropsByReason  frames dropped since the start, by reason, the reasons with drops only.
     */
    public record PortRow(String switchName, String port, double rateBitsPerSec, long queueBytes, long queueFrames,
        Map<String, Long> dropsByReason)
    {
        /**
         * Frames dropped since the start, for every reason.
         *
         * @return the total.
         */
        public long drops()
        {
            return dropsByReason.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /**
     * One host.
     *
     * @param host       the host.
     * @param active     flows it is sending now, by hostd's transport and by kernel TCP (tcpd).
     * @param completed  flows it completed, by either.
     * @param incomplete flows it gave up or left at a stop.
     * @param timeouts   timeouts its flows took.
     */
    public record HostRow(String host, long active, long completed, long incomplete, long timeouts)
    {
    }

    /**
     * The view from two scrapes.
     *
     * @param before          the earlier scrape, or null: rates are then 0.
     * @param now             the later scrape.
     * @param intervalSeconds time between them.
     * @return the view.
     */
    public static TopView of(final PrometheusText before, final PrometheusText now, final double intervalSeconds)
    {
        final Map<String, PortRow> ports = new TreeMap<>();
        for (final PrometheusText.Sample sample : now.samples())
        {
            if (QUEUE_BYTES.equals(sample.name()))
            {
                final String switchName = sample.labels().get("switch");
                final String port = sample.labels().get("port");
                final double sentNow = now.sum(DEQUEUED_BYTES, "switch", switchName, "port", port);
                final double sentBefore = null == before ? sentNow :
                    before.sum(DEQUEUED_BYTES, "switch", switchName, "port", port);
                final double rate = intervalSeconds > 0 ? Math.max(0, sentNow - sentBefore) * 8 / intervalSeconds : 0;
                final Map<String, Long> drops = new TreeMap<>();
                for (final PrometheusText.Sample drop : now.samples())
                {
                    if ((QUEUE_DROPS.equals(drop.name()) || PORT_DROPS.equals(drop.name())) && drop.value() > 0 &&
                        switchName.equals(drop.labels().get("switch")) && port.equals(drop.labels().get("port")))
                    {
                        drops.merge(drop.labels().getOrDefault("reason", "other"), (long)drop.value(), Long::sum);
                    }
                }
                ports.put(switchName + "\u0000" + port, new PortRow(switchName, port, rate, (long)sample.value(),
                    (long)now.sum(QUEUE_FRAMES, "switch", switchName, "port", port), drops));
            }
        }
        final Map<String, HostRow> hosts = new TreeMap<>();
        final List<String> names = new ArrayList<>(now.labelValues(FLOWS_ACTIVE, "host"));
        names.addAll(now.labelValues(TCP_FLOWS_ACTIVE, "host"));
        for (final String host : names)
        {
            hosts.put(host, new HostRow(host,
                (long)(now.sum(FLOWS_ACTIVE, "host", host) + now.sum(TCP_FLOWS_ACTIVE, "host", host)),
                (long)(now.sum(FLOWS_COMPLETED, "host", host) + now.sum(TCP_FLOWS_COMPLETED, "host", host)),
                (long)now.sum(FLOWS_INCOMPLETE, "host", host), (long)now.sum(TIMEOUTS, "host", host)));
        }
        return new TopView(List.copyOf(ports.values()), List.copyOf(hosts.values()), intervalSeconds);
    }

    /**
     * The view as text: a table of ports, then one of hosts.
     *
     * @param heading the first line, e.g. the time and the fabric.
     * @return the lines, each ending in a newline.
     */
    public String render(final String heading)
    {
        final StringBuilder text = new StringBuilder(heading).append('\n').append('\n');
        text.append(String.format(Locale.ROOT, "%-8s %-6s %12s %10s %7s %8s  %s%n", "SWITCH", "PORT", "TX",
            "QUEUE(B)", "FRAMES", "DROPS", "DROPS BY REASON"));
        for (final PortRow row : ports)
        {
            final List<String> reasons = new ArrayList<>();
            row.dropsByReason().forEach((reason, count) -> reasons.add(reason + "=" + count));
            text.append(String.format(Locale.ROOT, "%-8s %-6s %12s %10d %7d %8d  %s%n", row.switchName(), row.port(),
                bitsPerSec(row.rateBitsPerSec()), row.queueBytes(), row.queueFrames(), row.drops(),
                String.join(" ", reasons)));
        }
        text.append('\n');
        text.append(String.format(Locale.ROOT, "%-8s %8s %10s %10s %9s%n", "HOST", "ACTIVE", "DONE", "INCOMPLETE",
            "TIMEOUTS"));
        for (final HostRow row : hosts)
        {
            text.append(String.format(Locale.ROOT, "%-8s %8d %10d %10d %9d%n", row.host(), row.active(),
                row.completed(), row.incomplete(), row.timeouts()));
        }
        if (hosts.isEmpty())
        {
            text.append("(no host serves metrics: start hostd with --metrics 0)\n");
        }
        return text.toString();
    }

    /**
     * A rate for people: {@code 0 b/s}, {@code 950.2 kb/s}, {@code 99.87 Mb/s}, {@code 9.99 Gb/s}.
     *
     * @param rate bits per second.
     * @return the text.
     */
    static String bitsPerSec(final double rate)
    {
        final Map<Double, String> units = new LinkedHashMap<>();
        units.put(1e9, "Gb/s");
        units.put(1e6, "Mb/s");
        units.put(1e3, "kb/s");
        for (final Map.Entry<Double, String> unit : units.entrySet())
        {
            if (rate >= unit.getKey())
            {
                return String.format(Locale.ROOT, "%.2f %s", rate / unit.getKey(), unit.getValue());
            }
        }
        return String.format(Locale.ROOT, "%.0f b/s", rate);
    }
}
