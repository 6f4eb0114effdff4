package io.pfabric.cli;

import io.pfabric.sim.SimFabric;
import io.pfabric.sim.SimSettings;
import io.pfabric.common.config.Quantities;
import io.pfabric.common.topology.Rates;
import io.pfabric.common.topology.TopologySpec;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * The options {@code pfabric sim} and {@code pfabric sim sweep} share: the fabric, the workload and where results go.
 */
final class SimOptions
{
    @Option(names = "--topo", defaultValue = "leafspine:9x16x4", paramLabel = "SPEC",
        description = "star:N or leafspine:LxHxS (default: ${DEFAULT-VALUE}, the paper's 144 hosts).")
    String topo;

    @Option(names = "--edge-rate", defaultValue = "10g", paramLabel = "RATE",
        description = "Host links (default: ${DEFAULT-VALUE}).")
    String edgeRate;

    @Option(names = "--core-rate", defaultValue = "40g", paramLabel = "RATE",
        description = "Leaf-spine links (default: ${DEFAULT-VALUE}).")
    String coreRate;

    @Option(names = "--edge-delay", defaultValue = "2.7us", paramLabel = "DURATION",
        description = "One-way latency of a host link, the host's own included (default: ${DEFAULT-VALUE}).")
    String edgeDelay;

    @Option(names = "--core-delay", defaultValue = "0.2us", paramLabel = "DURATION",
        description = "One-way latency of a leaf-spine link (default: ${DEFAULT-VALUE}).")
    String coreDelay;

    @Option(names = "--buffer", defaultValue = "36000", paramLabel = "BYTES",
        description = "Bytes per pFabric queue, switch ports and host NICs (default: ${DEFAULT-VALUE}); tcp and " +
            "dctcp use 225,000-byte queues, as in the paper.")
    long buffer;

    @Option(names = "--workload", defaultValue = "websearch", paramLabel = "NAME|FILE",
        description = "websearch, datamining or a CDF file (default: ${DEFAULT-VALUE}).")
    String workload;

    @Option(names = "--flows", defaultValue = "10000", paramLabel = "N",
        description = "Flows per run (default: ${DEFAULT-VALUE}).")
    long flows;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "N",
        description = "Seed of the trace and the spraying (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", paramLabel = "DIR", description = "Results directory (required).")
    Path out;

    @Option(names = "--packet-sizes", defaultValue = "", paramLabel = "fixed|bimodal|web[,...]",
        description = "The sync-versus-async scenario's packet sizes (with syn-ocf, syn-srjf, syn-mmf, asy, or " +
            "pfabric): exponential flows of mean 46 kB, 1500-byte slots; default fixed when one of those schemes " +
            "is named. A sweep takes a list.")
    String packetSizes;

    @Option(names = "--traffic", defaultValue = "", paramLabel = "uniform|incast[,...]",
        description = "The scenario's traffic (default uniform); a sweep takes a list.")
    String traffic;

    @Option(names = "--fan-in", defaultValue = "10", paramLabel = "N",
        description = "Sources per incast event (default: ${DEFAULT-VALUE}).")
    int fanIn;

    @Option(names = "--control-delay", defaultValue = "", paramLabel = "DURATION",
        description = "One-way delay between hosts and the controller (default: one slot).")
    String controlDelay;

    @Option(names = "--asy-interval", defaultValue = "", paramLabel = "DURATION",
        description = "ASY's rate update interval (default: one slot).")
    String asyInterval;

    @Option(names = "--window", defaultValue = "0", paramLabel = "PACKETS",
        description = "pFabric's initial window (default: the fabric's bandwidth-delay product in full packets, " +
            "rounded up; 12 on the paper's fabric).")
    int window;

    @Option(names = "--window-cap", defaultValue = "0", paramLabel = "PACKETS",
        description = "pFabric's window cap (default: the buffer in full packets less one, or the bandwidth-delay " +
            "product if larger; 23 on the paper's fabric).")
    int windowCap;

    @Option(names = "--timeout", defaultValue = "", paramLabel = "DURATION",
        description = "pFabric's fixed retransmission timeout, e.g. 45us (default: 3 base RTTs of the fabric's " +
            "longest path; 45 us on the paper's fabric).")
    String timeout;

    /**
     * The schemes' settings on the fabric: the paper's on the paper's fabric, else derived from it
     * ({@link SimSettings#forFabric}), with pFabric's window, cap and timeout as given.
     *
     * @param fabric the fabric the options describe.
     * @return the settings.
     */
    SimSettings settings(final SimFabric fabric)
    {
        if (window < 0 || windowCap < 0)
        {
            throw new IllegalArgumentException("--window and --window-cap must be positive");
        }
        final long timeoutNs = timeout.isEmpty() ? 0 : Quantities.parseNanos(timeout);
        if (!timeout.isEmpty() && timeoutNs <= 0)
        {
            throw new IllegalArgumentException("--timeout must be positive");
        }
        return SimSettings.forFabric(fabric).withPfabric(window, windowCap, timeoutNs);
    }

    /**
     * The fabric the options describe.
     *
     * @return the fabric.
     */
    SimFabric fabric()
    {
        final long edge = Rates.parseBitsPerSec(edgeRate);
        final long core = Rates.parseBitsPerSec(coreRate);
        final long edgeDelayNs = Quantities.parseNanos(edgeDelay);
        final long coreDelayNs = Quantities.parseNanos(coreDelay);
        final TopologySpec shape = TopologySpec.parse(topo);
        return new SimFabric(shape.leaves(), shape.hostsPerLeaf(), shape.spines(), edge, core, edgeDelayNs,
            coreDelayNs, buffer, "pfabric");
    }
}
