package io.pfabric.cli;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.pfabric.common.config.Quantities;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The daemons' {@code --counters-file} and {@code --counters-interval} options (a picocli mixin).
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

    /**
     * Start writing, if asked for.
     *
     * @param registry the daemon's meters, bound.
     * @param err      where a failed write is reported.
     * @return the writer, or null without {@code --counters-file}.
     * @throws IOException if the first write fails.
     */
    CountersFile start(final PrometheusMeterRegistry registry, final PrintStream err) throws IOException
    {
        return null == file ? null : CountersFile.start(file, Quantities.parseNanos(interval), registry, err);
    }

    /**
     * Whether {@code --counters-file} was given.
     *
     * @return true if so.
     */
    boolean requested()
    {
        return null != file;
    }
}
