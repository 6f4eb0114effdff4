package io.pfabric.cli;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.pfabric.common.config.Quantities;
import io.pfabric.testbed.monitor.MetricsEndpoint;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;

/**
 * The daemons' {@code --counters-file}, {@code --counters-interval} and {@code --metrics} options (a picocli mixin).
 */
final class CountersFileOptions
{
    @Option(names = "--counters-file", paramLabel = "FILE",
        description = "Write the counters and the JVM's heap, collections and open files to FILE (Prometheus text " +
            "format) every --counters-interval and at stop (with pfabric_stopped 1); each write replaces FILE whole.")
    Path file;

    @Option(names = "--counters-interval", defaultValue = "10s", paramLabel = "DURATION",
        description = "Time between writes of --counters-file (default: ${DEFAULT-VALUE}).")
    String interval;

    @Option(names = "--metrics", paramLabel = "[HOST:]PORT",
        description = "Serve the same meters over HTTP for Prometheus at http://HOST:PORT/metrics: a PORT alone " +
            "listens on 127.0.0.1, in the namespace the command runs in; 0 picks a free port. A daemon of the " +
            "running testbed (its --topology is the testbed's topology.yaml) records the address in the testbed's " +
            "state for 'pfabric monitor' and 'pfabric top', until it stops.")
    String metrics;

    /**
     * Start writing and serving, if asked for.
     *
     * @param registry the daemon's meters, bound.
     * @param err      where a failed write is reported.
     * @return the writer, or null without {@code --counters-file} and {@code --metrics}.
     * @throws IOException if the first write fails or the {@code --metrics} address cannot be bound.
     */
    CountersFile start(final PrometheusMeterRegistry registry, final PrintStream err) throws IOException
    {
        return start(registry, err, null, null, null);
    }

    /**
     * Start writing and serving, if asked for, and record where the meters are served in a testbed's state.
     *
     * @param registry       the daemon's meters, bound.
     * @param err            where a failed write is reported.
     * @param role           the daemon's role, for the record ({@code hostd}, ...).
     * @param name           the daemon's name, for the record.
     * @param stateDirectory the testbed the daemon belongs to, or null for none.
     * @return the writer, or null without {@code --counters-file} and {@code --metrics}.
     * @throws IOException if the first write fails, the {@code --metrics} address cannot be bound or the record
     *                     cannot be written.
     */
    CountersFile start(final PrometheusMeterRegistry registry, final PrintStream err, final String role,
        final String name, final Path stateDirectory) throws IOException
    {
        if (!requested())
        {
            return null;
        }
        final CountersFile counters = CountersFile.start(file, Quantities.parseNanos(interval),
            null == metrics ? null : metricsAddress(metrics), registry, err);
        if (null != counters.metricsAddress() && null != stateDirectory && null != role)
        {
            try
            {
                counters.record(MetricsEndpoint.of(role, name, counters.metricsAddress()), stateDirectory);
            }
            catch (final IOException ex)
            {
                counters.close();
                throw ex;
            }
        }
        return counters;
    }

    /**
     * Check the options before anything starts.
     *
     * @throws IllegalArgumentException naming the option at fault.
     */
    void validate()
    {
        if (null != metrics)
        {
            metricsAddress(metrics);
        }
        if (null != file && Quantities.parseNanos(interval) <= 0)
        {
            throw new IllegalArgumentException("--counters-interval must be positive");
        }
    }

    /**
     * Parse {@code [HOST:]PORT}: a port alone listens on loopback.
     *
     * @param text the option's value.
     * @return the address.
     * @throws IllegalArgumentException naming {@code --metrics} if it is not one.
     */
    static InetSocketAddress metricsAddress(final String text)
    {
        return SocketAddresses.parse("--metrics", text.contains(":") ? text : "127.0.0.1:" + text);
    }

    /**
     * Whether {@code --counters-file} or {@code --metrics} was given.
     *
     * @return true if so.
     */
    boolean requested()
    {
        return null != file || null != metrics;
    }
}
