package io.pfabric.cli;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.pfabric.testbed.monitor.MetricsEndpoint;
import io.pfabric.testbed.monitor.MetricsServer;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A daemon's counters on disk: the Prometheus text exposition of its meters and of the JVM's (heap, heap after the
 * last collection, collections, threads, open files), rewritten every interval and once more at stop with
 * {@code pfabric_stopped 1}. Every write goes to a hidden temporary file beside the target, which is then renamed
 * over it, so a reader (or node_exporter's textfile collector) sees the previous snapshot or the next one, never
 * half of one, also when the process is killed in the middle of a write. The same registry may also be served over
 * HTTP ({@link MetricsServer}), and the server's address recorded in a testbed's state until the stop.
 */
final class CountersFile implements AutoCloseable
{
    /** The gauge that is 0 while the daemon runs and 1 in the snapshot written at its stop. */
    static final String STOPPED = "pfabric_stopped";
    /** The gauge of the heap in use after each heap pool's last collection, in bytes. */
    static final String HEAP_AFTER_GC = "pfabric_jvm_heap_after_gc_bytes";

    private final Path file;
    private final Path partial;
    private final PrometheusMeterRegistry registry;
    private final ScheduledExecutorService writer;
    private final JvmGcMetrics gcMetrics = new JvmGcMetrics();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final PrintStream err;
    private volatile boolean failureReported;
    private MetricsServer server;
    private Path record;
    private Runnable beforeStop = () -> {};

    private CountersFile(final Path file, final PrometheusMeterRegistry registry, final PrintStream err)
    {
        this.file = file;
        this.partial = null == file ? null : file.resolveSibling("." + file.getFileName() + ".partial");
        this.registry = registry;
        this.err = err;
        this.writer = Executors.newSingleThreadScheduledExecutor(runnable ->
        {
            final Thread thread = new Thread(runnable, "pfabric-counters-file");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * An empty registry for a daemon's meters; {@link #start} adds the JVM's.
     *
     * @return the registry.
     */
    static PrometheusMeterRegistry newRegistry()
    {
        return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    }

    /**
     * Write the registry's meters and the JVM's to the file now and every interval until {@link #close()}.
     *
     * @param file       the file, replaced whole at every write.
     * @param intervalNs time between writes.
     * @param registry   the daemon's meters.
     * @param err        where a failed write is reported, once.
     * @return the running writer.
     * @throws IOException if the first write fails (the directory is missing or not writable).
     */
    static CountersFile start(final Path file, final long intervalNs, final PrometheusMeterRegistry registry,
        final PrintStream err) throws IOException
    {
        if (intervalNs <= 0)
        {
            throw new IllegalArgumentException("--counters-interval must be positive");
        }
        final CountersFile countersFile = new CountersFile(file, registry, err);
        countersFile.bindJvm();
        countersFile.write();
        countersFile.writer.scheduleAtFixedRate(countersFile::writeQuietly, intervalNs, intervalNs,
            TimeUnit.NANOSECONDS);
        return countersFile;
    }

    /**
     * The registry's meters and the JVM's, written to a file every interval if one is given, and served over HTTP
     * if an address is given.
     *
     * @param file           the file, or null for none.
     * @param intervalNs     time between writes.
     * @param metricsAddress where to serve {@code /metrics}, or null for nowhere.
     * @param registry       the daemon's meters.
     * @param err            where a failed write is reported, once.
     * @return the running writer and server.
     * @throws IOException if the first write fails or the address cannot be bound.
     */
    static CountersFile start(final Path file, final long intervalNs, final InetSocketAddress metricsAddress,
        final PrometheusMeterRegistry registry, final PrintStream err) throws IOException
    {
        if (null != file)
        {
            final CountersFile countersFile;
            try
            {
                countersFile = start(file, intervalNs, registry, err);
            }
            catch (final IOException ex)
            {
                throw new IOException("cannot write --counters-file " + file + ": " + ex.getMessage(), ex);
            }
            try
            {
                countersFile.serve(metricsAddress);
            }
            catch (final IOException ex)
            {
                countersFile.writer.shutdownNow();
                countersFile.gcMetrics.close();
                throw ex;
            }
            return countersFile;
        }
        final CountersFile served = new CountersFile(null, registry, err);
        served.bindJvm();
        try
        {
            served.serve(metricsAddress);
        }
        catch (final IOException ex)
        {
            served.gcMetrics.close();
            throw ex;
        }
        return served;
    }

    private void serve(final InetSocketAddress metricsAddress) throws IOException
    {
        if (null != metricsAddress)
        {
            try
            {
                server = MetricsServer.start(metricsAddress, registry::scrape);
            }
            catch (final IOException ex)
            {
                throw new IOException("cannot serve --metrics on " + metricsAddress + ": " + ex.getMessage(), ex);
            }
        }
    }

    /**
     * Where the meters are served.
     *
     * @return the bound address, or null if they are not.
     */
    InetSocketAddress metricsAddress()
    {
        return null == server ? null : server.address();
    }

    /**
     * Run this at {@link #close()} before the final snapshot, e.g. to record what a meter still holds.
     *
     * @param action the action.
     */
    void beforeStop(final Runnable action)
    {
        beforeStop = action;
    }

    /**
     * Record where the meters are served in a testbed's state, until {@link #close()}.
     *
     * @param endpoint       the record.
     * @param stateDirectory the testbed's state directory.
     * @throws IOException if it cannot be written.
     */
    void record(final MetricsEndpoint endpoint, final Path stateDirectory) throws IOException
    {
        record = endpoint.write(stateDirectory);
    }

    /**
     * The heap in use after each heap pool's most recent collection, summed: the live heap as of the last
     * collection, without forcing one. 0 before the first collection.
     *
     * @return bytes.
     */
    static long heapAfterGcBytes()
    {
        long total = 0;
        for (final MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans())
        {
            final MemoryUsage usage = MemoryType.HEAP == pool.getType() ? pool.getCollectionUsage() : null;
            total += null == usage ? 0 : usage.getUsed();
        }
        return total;
    }

    private void bindJvm()
    {
        new JvmMemoryMetrics().bindTo(registry);
        gcMetrics.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        Gauge.builder("pfabric.jvm.heap.after.gc", CountersFile::heapAfterGcBytes).baseUnit("bytes")
            .description("Heap in use after each heap pool's last collection").register(registry);
        Gauge.builder("pfabric.stopped", stopped, s -> s.get() ? 1 : 0)
            .description("1 in the snapshot written when the daemon stopped").register(registry);
    }

    private void writeQuietly()
    {
        try
        {
            write();
        }
        catch (final IOException | RuntimeException ex)
        {
            if (!failureReported)
            {
                failureReported = true;
                err.printf(Locale.ROOT, "pfabric: cannot write the counters file %s: %s%n", file, ex.getMessage());
            }
        }
    }

    private synchronized void write() throws IOException
    {
        if (null == file)
        {
            return;
        }
        Files.writeString(partial, registry.scrape(), StandardCharsets.UTF_8);
        Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * The daemon has stopped: write the final snapshot, with {@link #STOPPED} at 1, and stop writing. Call it after
     * the daemon's work has stopped, so the snapshot holds its last counts.
     */
    public void close()
    {
        writer.shutdownNow();
        try
        {
            writer.awaitTermination(5, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        beforeStop.run();
        stopped.set(true);
        writeQuietly();
        if (null != record)
        {
            try
            {
                Files.deleteIfExists(record);
            }
            catch (final IOException ex)
            {
                err.printf(Locale.ROOT, "pfabric: cannot remove the metrics record %s: %s%n", record, ex.getMessage());
            }
        }
        if (null != server)
        {
            server.close();
        }
        gcMetrics.close();
    }
}
