package io.pfabric.experiment;

import io.pfabric.common.config.Quantities;
import io.pfabric.common.topology.DisciplineSpec;
import io.pfabric.common.topology.Topology;
import io.pfabric.common.topology.TopologySpec;
import io.pfabric.hostd.transport.PiasThresholds;
import io.pfabric.hostd.workload.DeadlineSpec;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;

/**
 * What an experiment runs.
 *
 * @param testbed           netns, mininet or loopback.
 * @param topologySpec      as given, e.g. {@code star:4}.
 * @param topology          the fabric.
 * @param rateBitsPerSec    every link's rate.
 * @param workload          websearch, datamining or a CDF file.
 * @param loads             offered loads on the access links, each in (0, 1).
 * @param schemes           emulated schemes in order, each of {@link #SCHEMES} (droptail: hostd's transport over
 *                          drop-tail queues); Ideal is always computed.
 * @param flows             flows per load.
 * @param seed              of every trace.
 * @param out               the results directory.
 * @param congestionControl the kernel TCP baseline's congestion control.
 * @param tcpRtoMinNs       the baseline's minimum RTO, or 0 for three times the largest measured base RTT.
 * @param graceNs           how long to wait for flows still in flight after the last one started.
 * @param commandLine       the command that ran the experiment, for its README.
 * @param deadlines         deadlines for the flows of every trace, given once the base RTTs are measured; null for
 *                          none. pfabric-edf needs them.
 * @param discipline        the switch queues of pfabric and linerate, {@code NAME[:PARAMS]} of pfabric, strict,
 *                          sp-pifo or aifo (strict:N's model and equal thresholds computed per load), or null for
 *                          pfabric; the other schemes keep their own.
 */
public record ExperimentSettings(
    String testbed,
    String topologySpec,
    Topology topology,
    long rateBitsPerSec,
    String workload,
    List<Double> loads,
    List<String> schemes,
    long flows,
    long seed,
    Path out,
    String congestionControl,
    long tcpRtoMinNs,
    long graceNs,
    String commandLine,
    DeadlineSpec deadlines,
    String discipline)
{
    /**
     * The schemes an emulated experiment runs.
     */
    public static final List<String> SCHEMES =
        List.of("pfabric", "linerate", "tcp", "droptail", "pfabric-edf", "pias");

    /**
     * Disciplines pfabric and linerate run on in an emulated experiment.
     */
    public static final List<String> HOSTD_DISCIPLINES = List.of("pfabric", "strict", "sp-pifo", "aifo");

    /**
     * Settings on pFabric's own queues.
     *
     * @param testbed           netns, mininet or loopback.
     * @param topologySpec      as given, e.g. {@code star:4}.
     * @param topology          the fabric.
     * @param rateBitsPerSec    every link's rate.
     * @param workload          websearch, datamining or a CDF file.
     * @param loads             offered loads on the access links.
     * @param schemes           emulated schemes in order.
     * @param flows             flows per load.
     * @param seed              of every trace.
     * @param out               the results directory.
     * @param congestionControl the kernel TCP baseline's congestion control.
     * @param tcpRtoMinNs       the baseline's minimum RTO, or 0 for three times the largest measured base RTT.
     * @param graceNs           how long to wait for flows still in flight after the last one started.
     * @param commandLine       the command that ran the experiment, for its README.
     * @param deadlines         deadlines for the flows of every trace, or null.
     */
    public ExperimentSettings(final String testbed, final String topologySpec, final Topology topology,
        final long rateBitsPerSec, final String workload, final List<Double> loads, final List<String> schemes,
        final long flows, final long seed, final Path out, final String congestionControl, final long tcpRtoMinNs,
        final long graceNs, final String commandLine, final DeadlineSpec deadlines)
    {
        this(testbed, topologySpec, topology, rateBitsPerSec, workload, loads, schemes, flows, seed, out,
            congestionControl, tcpRtoMinNs, graceNs, commandLine, deadlines, null);
    }

    /**
     * Settings without deadlines.
     *
     * @param testbed           netns, mininet or loopback.
     * @param topologySpec      as given, e.g. {@code star:4}.
     * @param topology          the fabric.
     * @param rateBitsPerSec    every link's rate.
     * @param workload          websearch, datamining or a CDF file.
     * @param loads             offered loads on the access links, each in (0, 1).
     * @param schemes           emulated schemes in order, each of {@link #SCHEMES}.
     * @param flows             flows per load.
     * @param seed              of every trace.
     * @param out               the results directory.
     * @param congestionControl the kernel TCP baseline's congestion control.
     * @param tcpRtoMinNs       the baseline's minimum RTO, or 0 for three times the largest measured base RTT.
     * @param graceNs           how long to wait for flows still in flight after the last one started.
     * @param commandLine       the command that ran the experiment, for its README.
     */
    public ExperimentSettings(final String testbed, final String topologySpec, final Topology topology,
        final long rateBitsPerSec, final String workload, final List<Double> loads, final List<String> schemes,
        final long flows, final long seed, final Path out, final String congestionControl, final long tcpRtoMinNs,
        final long graceNs, final String commandLine)
    {
        this(testbed, topologySpec, topology, rateBitsPerSec, workload, loads, schemes, flows, seed, out,
            congestionControl, tcpRtoMinNs, graceNs, commandLine, null);
    }

    /**
     * Checks every field.
     */
    public ExperimentSettings
    {
        if (!List.of("netns", "mininet", "loopback").contains(testbed))
        {
            throw new IllegalArgumentException("the testbed must be netns, mininet or loopback, not '" + testbed +
                "'");
        }
        loads = List.copyOf(loads);
        schemes = List.copyOf(schemes);
        if (loads.isEmpty() || schemes.isEmpty())
        {
            throw new IllegalArgumentException("give at least one load and one scheme");
        }
        for (final double load : loads)
        {
            Quantities.requireLoad("--loads", load);
        }
        for (final String scheme : schemes)
        {
            if (!SCHEMES.contains(scheme))
            {
                throw new IllegalArgumentException("scheme '" + scheme + "' is not one of " + SCHEMES +
                    " (Ideal is always computed)");
            }
        }
        if ("loopback".equals(testbed) && schemes.contains("pias"))
        {
            throw new IllegalArgumentException("--schemes: pias runs on kernel TCP, which cannot be routed through a " +
                "switch on loopback: use the netns testbed");
        }
        if (schemes.contains("pias") && null == PiasThresholds.forWorkload(workload, 0.5))
        {
            throw new IllegalArgumentException("--workload: pias takes PIAS's scripts' thresholds, which exist for " +
                "websearch and datamining, not '" + workload + "'");
        }
        if (null != discipline)
        {
            final DisciplineSpec spec = DisciplineSpec.parse(discipline);
            if (!HOSTD_DISCIPLINES.contains(spec.name()))
            {
                throw new IllegalArgumentException("--discipline: pfabric and linerate run on " + HOSTD_DISCIPLINES +
                    ", not '" + discipline + "'");
            }
            if ("mininet".equals(testbed) && !"pfabric".equals(spec.name()))
            {
                throw new IllegalArgumentException("--discipline " + discipline + " runs on the netns and loopback " +
                    "testbeds");
            }
        }
        if ("loopback".equals(testbed) && schemes.contains("tcp"))
        {
            throw new IllegalArgumentException("kernel TCP cannot be routed through a switch on loopback: on the " +
                "loopback testbed use droptail (hostd's transport over drop-tail queues) as the baseline");
        }
        if (rateBitsPerSec <= 0)
        {
            throw new IllegalArgumentException("the rate must be positive");
        }
        if (flows < 1)
        {
            throw new IllegalArgumentException("--flows must be at least 1");
        }
        if (topology.hosts().size() < 2)
        {
            throw new IllegalArgumentException("an experiment needs at least 2 hosts");
        }
        if (null == deadlines && schemes.contains("pfabric-edf"))
        {
            throw new IllegalArgumentException("pfabric-edf needs deadlines: give --deadlines exp:MEAN");
        }
    }

    /**
     * Whether pFabric also runs in the simulator on the traces ({@code pfabric-sim}): when pfabric is a scheme and the
     * fabric a shape; the simulator builds stars, leaf-spines and fat-trees, not a topology file's fabric.
     *
     * @return true if so.
     */
    public boolean simulates()
    {
        return schemes.contains("pfabric") && !TopologySpec.namesFile(topologySpec);
    }

    /**
     * A load as it appears in file names and tables: {@code 0.6}, not {@code 0.60}.
     *
     * @param load the load.
     * @return the label.
     */
    public static String loadLabel(final double load)
    {
        return BigDecimal.valueOf(load).stripTrailingZeros().toPlainString();
    }
}
