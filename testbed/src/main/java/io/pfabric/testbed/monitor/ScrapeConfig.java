package io.pfabric.testbed.monitor;

import io.pfabric.common.topology.HostSpec;
import io.pfabric.common.topology.SwitchSpec;
import io.pfabric.common.topology.Topology;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Prometheus configuration that scrapes every daemon of a testbed: one job per kind of daemon
 * ({@code pfabric-switches}, {@code pfabric-hostd}, ...), one target per daemon labelled {@code daemon} and
 * {@code name}, checked against the testbed's topology (every record must name one of its hosts or switches, and the
 * switches must be served). Pure: text in, text out.
 */
public final class ScrapeConfig
{
    private ScrapeConfig()
    {
    }

    /**
     * The configuration.
     *
     * @param topology         the testbed's topology.
     * @param endpoints        where its daemons serve their meters.
     * @param scrapeIntervalMs time between scrapes of each target.
     * @return the YAML text of {@code prometheus.yml}.
     * @throws IllegalStateException if the switches are not served, or a record names no daemon of the topology.
     */
    public static String generate(final Topology topology, final List<MetricsEndpoint> endpoints,
        final long scrapeIntervalMs)
    {
        if (scrapeIntervalMs <= 0)
        {
            throw new IllegalArgumentException("the scrape interval must be positive");
        }
        final Map<String, List<MetricsEndpoint>> jobs = new LinkedHashMap<>();
        jobs.put(MetricsEndpoint.SWITCHES, new ArrayList<>());
        for (final MetricsEndpoint endpoint : endpoints)
        {
            check(topology, endpoint);
            jobs.computeIfAbsent(endpoint.role(), role -> new ArrayList<>()).add(endpoint);
        }
        if (jobs.get(MetricsEndpoint.SWITCHES).isEmpty() && endpoints.stream().noneMatch(e -> "switchd".equals(e.role())))
        {
            throw new IllegalStateException("the testbed's switches serve no metrics (no record in " +
                MetricsEndpoint.DIRECTORY + "/): bring the testbed down and up again with this version of pfabric");
        }
        final StringBuilder yaml = new StringBuilder();
        yaml.append("# Written by 'pfabric monitor up' from the testbed's topology (")
            .append(topology.hosts().size()).append(" hosts, ").append(topology.switches().size())
            .append(" switches) and the metrics records of its daemons.\n");
        final List<String> unserved = unservedHosts(topology, endpoints);
        if (!unserved.isEmpty())
        {
            yaml.append("# Hosts with no daemon serving metrics (start hostd with --metrics 0): ")
                .append(String.join(", ", unserved)).append('\n');
        }
        final String interval = String.format(Locale.ROOT, "%dms", scrapeIntervalMs);
        yaml.append("global:\n")
            .append("  scrape_interval: ").append(interval).append('\n')
            .append("  scrape_timeout: ").append(interval).append('\n')
            .append("  evaluation_interval: ").append(interval).append('\n')
            .append("scrape_configs:\n");
        for (final Map.Entry<String, List<MetricsEndpoint>> job : jobs.entrySet())
        {
            if (job.getValue().isEmpty())
            {
                continue;
            }
            yaml.append("  - job_name: pfabric-").append(job.getKey()).append('\n')
                .append("    metrics_path: /metrics\n")
                .append("    static_configs:\n");
            for (final MetricsEndpoint endpoint : job.getValue())
            {
                yaml.append("      - targets: ['").append(endpoint.address()).append("']\n")
                    .append("        labels:\n")
                    .append("          daemon: ").append(endpoint.role()).append('\n')
                    .append("          name: ").append(endpoint.name()).append('\n');
                if (MetricsEndpoint.SWITCHES.equals(endpoint.role()))
                {
                    yaml.append("        # serves switches ").append(String.join(", ",
                        topology.switches().stream().map(SwitchSpec::name).toList())).append('\n');
                }
            }
        }
        return yaml.toString();
    }

    /**
     * The hosts of the topology that no daemon serves metrics for.
     *
     * @param topology  the testbed's topology.
     * @param endpoints the records.
     * @return the hosts' names, in topology order.
     */
    public static List<String> unservedHosts(final Topology topology, final List<MetricsEndpoint> endpoints)
    {
        final List<String> unserved = new ArrayList<>();
        for (final HostSpec host : topology.hosts())
        {
            if (endpoints.stream().noneMatch(e -> !isSwitch(e.role()) && host.name().equals(e.name())))
            {
                unserved.add(host.name());
            }
        }
        return unserved;
    }

    private static boolean isSwitch(final String role)
    {
        return MetricsEndpoint.SWITCHES.equals(role) || "switchd".equals(role);
    }

    private static void check(final Topology topology, final MetricsEndpoint endpoint)
    {
        final boolean known = switch (endpoint.role())
        {
            case MetricsEndpoint.SWITCHES, "controllerd" -> true;
            case "switchd" -> null != topology.switchNamed(endpoint.name());
            case "hostd", "tcpd" -> null != topology.host(endpoint.name());
            default -> false;
        };
        if (!known)
        {
            throw new IllegalStateException(endpoint.label() + " (recorded at " + endpoint.address() + ") is not a " +
                "daemon of the testbed's topology: remove its record in " + MetricsEndpoint.DIRECTORY + "/");
        }
    }
}
