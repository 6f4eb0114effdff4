package io.pfabric.experiment;

import io.pfabric.common.topology.SwitchSpec;
import io.pfabric.common.topology.Topology;
import io.pfabric.dataplane.pacer.DepartureCounter;
import io.pfabric.hostd.HostDaemon;
import io.pfabric.hostd.transport.TransportCounters;
import io.pfabric.switchd.ForwarderCounter;
import io.pfabric.switchd.SwitchDaemon;
import io.pfabric.switchd.SwitchPort;
import io.pfabric.testbed.FabricRunner;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Watches one emulated run's invariants ({@link Fidelity}) while it runs: at the start it notes every switch port's
 * departure counters and starts a new window of each forwarder's longest backlogged stall; every
 * {@link #SAMPLE_INTERVAL_NS} a thread of its own reads the machine's idle CPU and, the first time the invariants so
 * far are broken, says so through the warning it was given; {@link #finish()} gives the run's figures. The hosts'
 * counters are read from the hosts of the run, which start after the monitor does.
 */
final class FidelityMonitor implements AutoCloseable
{
    /**
     * How often the machine's CPU is sampled and the invariants looked at while the run goes on.
     */
    static final long SAMPLE_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);

    private static final Path LOAD_AVERAGE = Path.of("/proc/loadavg");

    private final Topology topology;
    private final FabricRunner switches;
    private final Supplier<List<HostDaemon>> hosts;
    private final Consumer<String> warning;
    private final List<SwitchPort> ports = new ArrayList<>();
    private final List<String> portNames = new ArrayList<>();
    private final long[] backloggedBefore;
    private final long[] slowBefore;
    private final long[] wireBefore;
    private final MachineCpu cpuAtStart;
    private final Thread sampler;
    private volatile boolean running = true;
    private double idleCpuMin = Double.NaN;
    private MachineCpu lastCpu;
    private boolean warned;

    private FidelityMonitor(final Topology topology, final FabricRunner switches,
        final Supplier<List<HostDaemon>> hosts, final Consumer<String> warning) throws IOException
    {
        this.topology = topology;
        this.switches = switches;
        this.hosts = hosts;
        this.warning = warning;
        if (null != switches)
        {
            for (final SwitchSpec spec : topology.switches())
            {
                final SwitchDaemon daemon = switches.daemon(spec.name());
                daemon.forwarder().restartBackloggedGap();
                for (int i = 0; i < daemon.portCount(); i++)
                {
                    ports.add(daemon.port(i));
                    portNames.add(spec.name() + "/" + daemon.port(i).name());
                }
            }
        }
        backloggedBefore = new long[ports.size()];
        slowBefore = new long[ports.size()];
        wireBefore = new long[ports.size()];
        for (int i = 0; i < ports.size(); i++)
        {
            backloggedBefore[i] = ports.get(i).departures().counters().get(DepartureCounter.BACKLOGGED_NS);
            slowBefore[i] = ports.get(i).departures().counters().get(DepartureCounter.SLOW_BACKLOGGED_NS);
            wireBefore[i] = ports.get(i).departures().counters().get(DepartureCounter.BACKLOGGED_WIRE_NS);
        }
        cpuAtStart = MachineCpu.read();
        lastCpu = cpuAtStart;
        sampler = new Thread(this::sample, "experiment-fidelity");
        sampler.setDaemon(true);
    }

    /**
     * Start watching a run.
     *
     * @param topology the fabric.
     * @param switches its switches when they run in this process, else null (the ports are then not watched).
     * @param hosts    the run's hostd hosts as they are now (empty for kernel TCP, or before they start).
     * @param warning  told once, from the monitor's thread, when the invariants so far are broken.
     * @return the monitor.
     * @throws IOException if {@code /proc/stat} cannot be read.
     */
    static FidelityMonitor start(final Topology topology, final FabricRunner switches,
        final Supplier<List<HostDaemon>> hosts, final Consumer<String> warning) throws IOException
    {
        final FidelityMonitor monitor = new FidelityMonitor(topology, switches, hosts, warning);
        monitor.sampler.start();
        return monitor;
    }

    private void sample()
    {
        while (running)
        {
            try
            {
                TimeUnit.NANOSECONDS.sleep(SAMPLE_INTERVAL_NS);
                sampleCpu();
                final Fidelity sofar = figures();
                if (!warned && sofar.isBroken())
                {
                    warned = true;
                    warning.accept(sofar.label() + ": " + sofar.figures());
                }
            }
            catch (final InterruptedException ex)
            {
                return;
            }
            catch (final IOException ex)
            {
                warning.accept("cannot read /proc/stat: " + ex.getMessage());
                return;
            }
        }
    }

    private synchronized void sampleCpu() throws IOException
    {
        final MachineCpu now = MachineCpu.read();
        final double idle = now.idleSince(lastCpu);
        if (!Double.isNaN(idle) && (Double.isNaN(idleCpuMin) || idle < idleCpuMin))
        {
            idleCpuMin = idle;
        }
        lastCpu = now;
    }

    /**
     * Stop watching and give the run's figures.
     *
     * @return the figures.
     * @throws IOException if {@code /proc/stat} cannot be read.
     */
    Fidelity finish() throws IOException
    {
        close();
        sampleCpu();
        return figures();
    }

    private synchronized Fidelity figures()
    {
        long backlogged = 0;
        long slow = 0;
        long wire = 0;
        String worst = null;
        double worstShare = 0;
        for (int i = 0; i < ports.size(); i++)
        {
            final long portBacklogged =
                ports.get(i).departures().counters().get(DepartureCounter.BACKLOGGED_NS) - backloggedBefore[i];
            final long portSlow =
                ports.get(i).departures().counters().get(DepartureCounter.SLOW_BACKLOGGED_NS) - slowBefore[i];
            backlogged += portBacklogged;
            wire += ports.get(i).departures().counters().get(DepartureCounter.BACKLOGGED_WIRE_NS) - wireBefore[i];
            slow += portSlow;
            final double share = portBacklogged > 0 ? (double)portSlow / portBacklogged : 0;
            if (share > worstShare)
            {
                worstShare = share;
                worst = portNames.get(i);
            }
        }
        long longestGap = 0;
        if (null != switches)
        {
            for (final SwitchSpec spec : topology.switches())
            {
                longestGap = Math.max(longestGap, switches.daemon(spec.name()).forwarder().counters()
                    .get(ForwarderCounter.LONGEST_BACKLOGGED_GAP_NS));
            }
        }
        long waits = 0;
        long late = 0;
        long longestLag = 0;
        final List<HostDaemon> runHosts = hosts.get();
        for (final HostDaemon host : runHosts)
        {
            final TransportCounters counters = host.counters();
            waits += counters.pacerWaits();
            late += counters.lateSends();
            longestLag = Math.max(longestLag, counters.longestSendLagNs());
        }
        return new Fidelity(backlogged, wire, slow, worst, worstShare, waits, late, longestLag, longestGap, idleCpuMin,
            lastCpu.idleSince(cpuAtStart), loadAverage(), null != switches, !runHosts.isEmpty());
    }

    /**
     * The one-minute load average now.
     *
     * @return it, or NaN if {@code /proc/loadavg} cannot be read.
     */
    public static double loadAverage()
    {
        try
        {
            return Double.parseDouble(
                Files.readString(LOAD_AVERAGE, StandardCharsets.US_ASCII).trim().split("\\s+")[0]);
        }
        catch (final IOException | RuntimeException ex)
        {
            return Double.NaN;
        }
    }

    /**
     * Stop the sampling thread.
     */
    public void close()
    {
        running = false;
        sampler.interrupt();
        try
        {
            sampler.join(TimeUnit.SECONDS.toMillis(2));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
