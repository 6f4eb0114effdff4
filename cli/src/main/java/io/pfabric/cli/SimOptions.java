package io.pfabric.cli;

import io.pfabric.sim.DupAckRule;
import io.pfabric.sim.SimFabric;
import io.pfabric.sim.SimSettings;
import io.pfabric.common.config.Quantities;
import io.pfabric.common.topology.DisciplineSpec;
import io.pfabric.common.topology.Rates;
import io.pfabric.common.topology.TopologySpec;
import io.pfabric.common.topology.TrafficClasses;
import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.dataplane.queue.PfabricClassQueue;
import io.pfabric.dataplane.queue.PfabricQueue;
import io.pfabric.hostd.transport.PriorityPolicy;
import io.pfabric.hostd.transport.PiasThresholds;
import io.pfabric.hostd.workload.DeadlineSpec;
import io.pfabric.hostd.workload.FlowSizeDistribution;
import io.pfabric.hostd.workload.WorkloadMix;
import io.pfabric.hostd.workload.WorkloadTrace;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The options {@code pfabric sim} and {@code pfabric sim sweep} share: the fabric, the workload and where results go.
 */
final class SimOptions
{
    @Option(names = "--preset", defaultValue = "paper", paramLabel = "paper|hotnets",
        description = "The fabric and settings the other options start from (default: ${DEFAULT-VALUE}). paper: the " +
            "pFabric paper's, leafspine:9x16x4, 10/40 Gb/s, 2.7 us host links, 0.2 us core links, 36 KB queues, the " +
            "paper's settings. hotnets: the HotNets'12 paper's, fattree:6 (54 hosts), 10 Gb/s everywhere, 0.632 us " +
            "host links and 0.2 us switch links (12.0 us base RTT across pods), 22.5 KB pFabric queues, pFabric's " +
            "timeout 40 us, TCP's and DCTCP's minimum RTO 200 us. Any option given overrides its preset value.")
    String preset;

    @Option(names = "--topo", defaultValue = "", paramLabel = "SPEC",
        description = "star:N, leafspine:LxHxS or fattree:K (default: the preset's; leafspine:9x16x4, the paper's " +
            "144 hosts); not a topology file, whose fabric the simulator does not build.")
    String topo;

    @Option(names = "--edge-rate", defaultValue = "", paramLabel = "RATE",
        description = "Host links (default: the preset's, 10g).")
    String edgeRate;

    @Option(names = "--core-rate", defaultValue = "", paramLabel = "RATE",
        description = "Switch-to-switch links (default: the preset's, 40g for paper, 10g for hotnets).")
    String coreRate;

    @Option(names = "--edge-delay", defaultValue = "", paramLabel = "DURATION",
        description = "One-way latency of a host link, the host's own included (default: the preset's, 2.7us for " +
            "paper, 0.632us for hotnets).")
    String edgeDelay;

    @Option(names = "--core-delay", defaultValue = "", paramLabel = "DURATION",
        description = "One-way latency of a switch-to-switch link (default: the preset's, 0.2us).")
    String coreDelay;

    @Option(names = "--buffer", defaultValue = "", paramLabel = "BYTES",
        description = "Bytes per pFabric queue, switch ports and host NICs (default: the preset's, 36000 for paper, " +
            "22500 for hotnets); tcp and dctcp use 225,000-byte queues, as in both papers.")
    String buffer;

    @Option(names = "--discipline", defaultValue = "pfabric", paramLabel = "NAME[:PARAMS]",
        description = "The queues of pfabric and linerate runs, switch ports and host NICs (default: " +
            "${DEFAULT-VALUE}). pfabric-classes: pFabric within traffic classes, weighted deficit round robin " +
            "between them, the class of a packet its DSCP's (--classes, --dscp-shares). pFabric on commodity " +
            "queues: strict:N (thresholds from the pFabric paper's §6.1 model for each run's workload and load; " +
            "strict:N:equal splits the flow-size range equally, strict:N:T1,T2,... gives them in bytes), " +
            "sp-pifo[:N[:shared]] (N queues of an equal share of the buffer each, or with shared all taking from " +
            "the whole buffer), aifo[:k=K,w=W,s=S], pias[:N[:K]]; each with its own default buffer unless --buffer " +
            "is given. tcp and dctcp keep their drop-tail and ECN queues, and ideal has no classes.")
    String discipline;

    @Option(names = "--classes", defaultValue = "", paramLabel = "SPEC",
        description = "Every port's classes with --discipline pfabric-classes: WEIGHT:DSCPS per class, separated " +
            "by ';', e.g. '3:0-7;1:8-15' (default: the eight IP precedences of weight 1, class = DSCP / 8).")
    String classes;

    @Option(names = "--dscp-shares", defaultValue = "", paramLabel = "DSCP:SHARE,...",
        description = "Mark the trace's flows with DSCPs by share, as hostd --dscp-shares does: 0:3,8:1 marks three " +
            "flows in four DSCP 0 and one in four DSCP 8, the same flows as hostd marks given the same --seed " +
            "(default: all DSCP 0). The FCT logs then have a dscp column and the summary a line per DSCP.")
    String dscpShares;

    @Option(names = "--deadlines", defaultValue = "", paramLabel = "exp:MEAN[,below=SIZE]",
        description = "Give flows deadlines as the paper's deadline runs do (§5.4.2): every flow smaller than SIZE " +
            "(default 200KB) a deadline drawn from an exponential distribution of mean MEAN (e.g. exp:1ms), at " +
            "least 1.25 x its minimum FCT on the idle fabric; the same deadlines for a seed. The FCT logs then " +
            "have deadline_ns,deadline_met columns (default: no deadlines).")
    String deadlines;

    @Option(names = "--priority", defaultValue = "remaining", paramLabel = "remaining|size|bytes-sent|deadline",
        description = "What the priority of pfabric's and linerate's data packets says, as hostd --priority " +
            "(default: ${DEFAULT-VALUE} flow size; the paper's Fig 14 compares size and bytes-sent). deadline: a " +
            "flow with a deadline carries it in microseconds (needs --deadlines); pfabric-edf always does.")
    String priority;

    @Option(names = "--workload", defaultValue = "websearch", paramLabel = "NAME|FILE",
        description = "websearch, datamining or a CDF file (default: ${DEFAULT-VALUE}).")
    String workload;

    @Option(names = "--pias-thresholds", defaultValue = "", paramLabel = "T1,T2,...",
        description = "The demotion thresholds, in bytes, by which pias's hosts tag their packets (default: those of " +
            "PIAS's ns-2 scripts for the workload, web search's, or data mining's for the nearest load of 0.5-0.9).")
    String piasThresholds;

    @Option(names = "--app", paramLabel = "WORKLOAD:LOAD[:dscp=D]",
        description = "An application of a mix, repeatable: its own workload, load per access link and DSCP, e.g. " +
            "--app websearch:0.6:dscp=0 --app datamining:0.6:dscp=8. Each application's flows are generated as " +
            "--workload's on a seed of its own and the traces merged by start time; the loads add, so the total " +
            "may exceed 1. Replaces --workload, --load (the run's load is the total) and --dscp-shares; needs " +
            "--duration, and --flows caps each application.")
    List<String> apps = List.of();

    @Option(names = "--duration", defaultValue = "", paramLabel = "DURATION",
        description = "With --app: every application's flows that start within this virtual time, e.g. 20ms.")
    String duration;

    @Option(names = "--flows", defaultValue = "10000", paramLabel = "N",
        description = "Flows per run (default: ${DEFAULT-VALUE}).")
    long flows;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "N",
        description = "Seed of the trace and the spraying (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", paramLabel = "DIR", description = "Results directory; every run needs one (the usage " +
        "brackets it only because the subcommands take their own).")
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
        description = "pFabric's fixed retransmission timeout, e.g. 45us (default: the preset's, 40 us for hotnets; " +
            "else 3 base RTTs of the fabric's longest path, 45 us on the paper's fabric).")
    String timeout;

    @Option(names = "--tcp-min-rto", defaultValue = "", paramLabel = "DURATION",
        description = "TCP's and DCTCP's minimum (and initial) RTO (default: the preset's, 200 us for hotnets; " +
            "else 200 us on the paper's fabric, 200 us x R / R(paper) on another).")
    String tcpMinRto;

    @Option(names = "--dctcp-k", defaultValue = "0", paramLabel = "BYTES",
        description = "DCTCP's marking threshold K (default: 15 full frames on the paper's fabric, 15 frames x " +
            "B / B(paper) on another).")
    long dctcpK;

    @Option(names = "--dupack-threshold", defaultValue = "off", paramLabel = "off|scripts|N",
        description = "When TCP and DCTCP fast-retransmit: off, never, only the RTO retransmits (default, the " +
            "paper's setting under packet spraying); scripts, after max(3, 0.75 cwnd) duplicate ACKs (the released " +
            "ns-2 scripts); N, after N duplicate ACKs.")
    String dupAckThreshold;

    @Option(names = "--tcp-send-window", defaultValue = "cumulative", paramLabel = "cumulative|sack",
        description = "TCP's and DCTCP's window outside recovery: cumulative, it ends at the first unacknowledged " +
            "segment plus cwnd, so a hole stalls the sender (default, ns-2's); sack, SACKed segments leave it and " +
            "new data goes out past a hole (the simulator's model before).")
    String tcpSendWindow;
    @Option(names = "--pdq-paths", defaultValue = "ecmp", paramLabel = "ecmp|spray",
        description = "PDQ's flows on one path each by a hash of the flow (ecmp, the default, PDQ's single-path " +
            "design) or each packet sprayed over the paths (spray; each link's controller sees only the packets " +
            "that reach it).")
    String pdqPaths;

    /**
     * Whether PDQ sprays packets: {@code --pdq-paths}.
     *
     * @return true for spray.
     * @throws IllegalArgumentException naming the option if it is neither ecmp nor spray.
     */
    boolean pdqSpray()
    {
        return switch (pdqPaths)
        {
            case "ecmp" -> false;
            case "spray" -> true;
            default -> throw new IllegalArgumentException("--pdq-paths: ecmp or spray, not '" + pdqPaths + "'");
        };
    }

    /**
     * The values a preset gives the options left empty.
     *
     * @param topo        the shape.
     * @param edgeRate    host links.
     * @param coreRate    switch-to-switch links.
     * @param edgeDelay   host links' one-way latency.
     * @param coreDelay   switch-to-switch links' one-way latency.
     * @param buffer      pFabric queues' bytes.
     * @param timeout     pFabric's timeout, or empty to derive it.
     * @param tcpMinRto   TCP's and DCTCP's minimum RTO, or empty to derive it.
     */
    record Preset(String topo, String edgeRate, String coreRate, String edgeDelay, String coreDelay, String buffer,
        String timeout, String tcpMinRto)
    {
        /**
         * The pFabric paper's fabric; its settings follow from it.
         */
        static final Preset PAPER = new Preset("leafspine:9x16x4", "10g", "40g", "2.7us", "0.2us", "36000", "", "");

        /**
         * The HotNets'12 paper's fat-tree and its timeouts.
         */
        static final Preset HOTNETS = new Preset("fattree:6", "10g", "10g", "0.632us", "0.2us", "22500", "40us",
            "200us");

        static Preset named(final String name)
        {
            return switch (name)
            {
                case "paper" -> PAPER;
                case "hotnets" -> HOTNETS;
                default -> throw new IllegalArgumentException("--preset must be paper or hotnets, not '" + name + "'");
            };
        }
    }

    private static long bytes(final String option, final String text)
    {
        try
        {
            return Long.parseLong(text);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(option + " takes a whole number of bytes, not '" + text + "'", ex);
        }
    }

    private static String or(final String given, final String preset)
    {
        return given.isEmpty() ? preset : given;
    }

    /**
     * The fabric's shape, as given or as the preset has it.
     *
     * @return such as {@code fattree:6}.
     */
    String topo()
    {
        return or(topo, Preset.named(preset).topo());
    }

    /**
     * The schemes' settings on the fabric: the paper's on the paper's fabric, else derived from it
     * ({@link SimSettings#forFabric}), with pFabric's window, cap and timeout and TCP's minimum RTO and DCTCP's K as
     * given or as the preset has them.
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
        final Preset values = Preset.named(preset);
        final String timeoutText = or(timeout, values.timeout());
        final long timeoutNs = timeoutText.isEmpty() ? 0 : Quantities.parseNanos(timeoutText);
        if (!timeoutText.isEmpty() && timeoutNs <= 0)
        {
            throw new IllegalArgumentException("--timeout must be positive");
        }
        final String minRtoText = or(tcpMinRto, values.tcpMinRto());
        final long minRtoNs = minRtoText.isEmpty() ? 0 : Quantities.parseNanos(minRtoText);
        if (!minRtoText.isEmpty() && minRtoNs <= 0)
        {
            throw new IllegalArgumentException("--tcp-min-rto must be positive");
        }
        if (dctcpK < 0)
        {
            throw new IllegalArgumentException("--dctcp-k must be positive");
        }
        final DupAckRule dupAckRule = DupAckRule.parse(dupAckThreshold);
        if (!"cumulative".equals(tcpSendWindow) && !"sack".equals(tcpSendWindow))
        {
            throw new IllegalArgumentException("--tcp-send-window must be cumulative or sack, not '" + tcpSendWindow +
                "'");
        }
        return SimSettings.forFabric(fabric).withPfabric(window, windowCap, timeoutNs).withTcp(minRtoNs, dctcpK)
            .withTcpDupAckRule(dupAckRule).withTcpSackOpensWindow("sack".equals(tcpSendWindow))
            .withPriority(PriorityPolicy.byName("--priority", priority));
    }

    /**
     * The fabric the options describe.
     *
     * @return the fabric.
     */
    SimFabric fabric()
    {
        final Preset values = Preset.named(preset);
        final long edge = Rates.parseBitsPerSec(or(edgeRate, values.edgeRate()));
        final long core = Rates.parseBitsPerSec(or(coreRate, values.coreRate()));
        final long edgeDelayNs = Quantities.parseNanos(or(edgeDelay, values.edgeDelay()));
        final long coreDelayNs = Quantities.parseNanos(or(coreDelay, values.coreDelay()));
        final DisciplineSpec spec = DisciplineOption.check("--discipline", discipline);
        final boolean pfabricBuffer = PfabricQueue.NAME.equals(spec.name()) ||
            PfabricClassQueue.NAME.equals(spec.name());
        final long bufferLength = pfabricBuffer || !buffer.isEmpty() ? bytes("--buffer", or(buffer, values.buffer())) :
            DisciplineKind.byName(spec.name()).defaultCapacityLength();
        if (TopologySpec.namesFile(topo()))
        {
            throw new IllegalArgumentException("--topo " + topo() + ": the simulator runs star:N, leafspine:LxHxS " +
                "and fattree:K fabrics only (one rate and delay for host links, one for switch links), not a " +
                "topology file; give the file's shape");
        }
        final TopologySpec shape = TopologySpec.parse(topo());
        final SimFabric fabric = new SimFabric(shape.leaves(), shape.hostsPerLeaf(), shape.spines(), edge, core,
            edgeDelayNs, coreDelayNs, bufferLength, PfabricQueue.NAME, shape.pods());
        if (PfabricClassQueue.NAME.equals(spec.name()))
        {
            return fabric.withClasses(classes.isEmpty() ? TrafficClasses.DEFAULT : TrafficClasses.parse(classes));
        }
        if (!classes.isEmpty())
        {
            throw new IllegalArgumentException("--classes goes with --discipline pfabric-classes");
        }
        final SimFabric queued = fabric.withQueues(spec.toString(), bufferLength);
        if (!PfabricQueue.NAME.equals(spec.name()) && !queued.hasCommodityQueues())
        {
            throw new IllegalArgumentException("--discipline must be pfabric, pfabric-classes, strict, sp-pifo, " +
                "aifo or pias, not '" + discipline + "'");
        }
        if (spec.needsWorkload() && isMix())
        {
            throw new IllegalArgumentException("--discipline " + discipline + " takes its thresholds from one " +
                "workload and load; with --app give them as strict:" + spec.queueCount() + ":T1,T2,...");
        }
        return queued;
    }

    /**
     * The settings of one run: PIAS's thresholds as given, else those of PIAS's scripts for the run's workload and
     * load.
     *
     * @param settings the settings the options describe.
     * @param load     the run's load.
     * @return the settings of the run.
     */
    SimSettings settingsAt(final SimSettings settings, final double load)
    {
        if (!piasThresholds.isEmpty())
        {
            return settings.withPias(PiasThresholds.parse(piasThresholds));
        }
        final PiasThresholds scripts = isMix() ? null : PiasThresholds.forWorkload(workload, load);
        return null == scripts ? settings : settings.withPias(scripts);
    }

    /**
     * Check that pias has thresholds: given, or PIAS's scripts' for the workload.
     *
     * @param schemes the schemes to run.
     * @throws IllegalArgumentException naming {@code --pias-thresholds} if they are not, or are malformed.
     */
    void requirePiasThresholdsFor(final List<String> schemes)
    {
        if (!piasThresholds.isEmpty())
        {
            try
            {
                PiasThresholds.parse(piasThresholds);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IllegalArgumentException("--pias-thresholds: " + ex.getMessage());
            }
        }
        else if (schemes.contains("pias") && (isMix() || null == PiasThresholds.forWorkload(workload, 0.5)))
        {
            throw new IllegalArgumentException("--pias-thresholds: PIAS's scripts give none for " +
                (isMix() ? "a mix of applications" : "workload '" + workload + "'") + "; give them in bytes");
        }
    }

    /**
     * The fabric of one run: a {@code strict:N} discipline's thresholds computed for the run's workload and load.
     *
     * @param fabric the fabric the options describe.
     * @param load   the run's load.
     * @return the fabric of the run.
     * @throws IOException if the workload's file cannot be read.
     */
    SimFabric fabricAt(final SimFabric fabric, final double load) throws IOException
    {
        return isMix() ? fabric : fabric.withThresholdsFor(FlowSizeDistribution.load(workload), load);
    }

    /**
     * A trace's flows marked with DSCPs by {@code --dscp-shares}, as hostd marks its workload's.
     *
     * @param trace the flows.
     * @return them marked, or the trace itself without shares.
     */
    List<WorkloadTrace.FlowSpec> marked(final List<WorkloadTrace.FlowSpec> trace)
    {
        return dscpShares.isEmpty() ? trace : WorkloadTrace.withDscpShares(trace, dscpShares, seed);
    }

    /**
     * Check that the schemes and the priority have the deadlines they need: {@code --priority deadline} and
     * pfabric-edf need {@code --deadlines}.
     *
     * @param schemes the schemes to run.
     * @throws IOException if the workload's file cannot be read.
     */
    void requireDeadlinesFor(final List<String> schemes) throws IOException
    {
        final boolean none = null == deadlineSpec();
        if (none && PriorityPolicy.DEADLINE == PriorityPolicy.byName("--priority", priority))
        {
            throw new IllegalArgumentException("--priority deadline needs deadlines: give --deadlines exp:MEAN");
        }
        if (none && schemes.contains("pfabric-edf"))
        {
            throw new IllegalArgumentException("pfabric-edf needs deadlines: give --deadlines exp:MEAN");
        }
    }

    /**
     * The deadlines of {@code --deadlines}, checked against the workload's sizes.
     *
     * @return the spec, or null without deadlines.
     * @throws IOException if the workload's file cannot be read.
     */
    DeadlineSpec deadlineSpec() throws IOException
    {
        if (deadlines.isEmpty())
        {
            return null;
        }
        if (isMix())
        {
            throw new IllegalArgumentException("--deadlines goes with --workload, not with --app");
        }
        return DeadlineSpec.parse(deadlines).requireSelectsFrom(FlowSizeDistribution.load(workload));
    }

    /**
     * A trace's flows given deadlines by {@code --deadlines} on a fabric, or the trace itself without.
     *
     * @param fabric the fabric, whose base RTTs and access rate give each flow's minimum FCT.
     * @param trace  the flows.
     * @return them, the selected ones with deadlines.
     * @throws IOException if the workload's file cannot be read.
     */
    List<WorkloadTrace.FlowSpec> withDeadlines(final SimFabric fabric, final List<WorkloadTrace.FlowSpec> trace)
        throws IOException
    {
        final DeadlineSpec spec = deadlineSpec();
        return null == spec ? trace : spec.apply(trace, fabric::baseRttNs, fabric.edgeRateBitsPerSec(),
            SimFabric.segmentWireLength(), seed);
    }

    /**
     * Whether the run is a mix of applications ({@code --app}).
     *
     * @return true if one is given.
     */
    boolean isMix()
    {
        return !apps.isEmpty();
    }

    /**
     * The applications of a mix, parsed, with their distributions.
     *
     * @return them in the order given.
     * @throws IOException if a workload's file cannot be read.
     */
    List<WorkloadMix.App> mix() throws IOException
    {
        if (!dscpShares.isEmpty())
        {
            throw new IllegalArgumentException("--app gives each application its DSCP: leave out --dscp-shares");
        }
        final List<WorkloadMix.App> parsed = new ArrayList<>(apps.size());
        for (final String app : apps)
        {
            parsed.add(WorkloadMix.App.parse(app));
        }
        return parsed;
    }

    /**
     * The virtual time within which a mix's flows start.
     *
     * @return nanoseconds, positive.
     */
    long durationNs()
    {
        if (duration.isEmpty())
        {
            throw new IllegalArgumentException("--app needs --duration, the time within which flows start");
        }
        final long durationNs = Quantities.parseNanos(duration);
        if (durationNs <= 0)
        {
            throw new IllegalArgumentException("--duration must be positive");
        }
        return durationNs;
    }

    /**
     * The trace of a run: the mix of {@code --app} (at the total of its loads), or {@code --workload} at a load,
     * marked by {@code --dscp-shares}, with the deadlines of {@code --deadlines}.
     *
     * @param fabric the fabric.
     * @param load   the load of a single workload; a mix has its own.
     * @return the flows in order of start.
     * @throws IOException if a workload's file cannot be read.
     */
    List<WorkloadTrace.FlowSpec> trace(final SimFabric fabric, final double load) throws IOException
    {
        if (isMix())
        {
            return WorkloadMix.generate(fabric.hosts(), fabric.edgeRateBitsPerSec(), mix(), seed, flows,
                durationNs());
        }
        return withDeadlines(fabric, marked(WorkloadTrace.generate(fabric.hosts(), load, fabric.edgeRateBitsPerSec(),
            FlowSizeDistribution.load(workload), seed, flows, 0)));
    }

    /**
     * What the trace is, for titles: the workload, or the mix's applications.
     *
     * @return such as {@code websearch} or {@code websearch:0.6:dscp=0 + datamining:0.6:dscp=8}.
     */
    String workloadLabel()
    {
        return isMix() ? String.join(" + ", apps) : workload;
    }
}
