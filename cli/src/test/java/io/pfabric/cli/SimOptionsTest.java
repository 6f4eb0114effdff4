package io.pfabric.cli;

import io.pfabric.common.topology.TrafficClasses;
import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.workload.FlowSizeDistribution;
import io.pfabric.hostd.workload.WorkloadTrace;
import io.pfabric.sim.DupAckRule;
import io.pfabric.sim.SimFabric;
import io.pfabric.sim.SimSettings;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fabric and settings {@code pfabric sim} takes from its preset and options: the pFabric paper's by default, the
 * HotNets'12 paper's with {@code --preset hotnets}, and any option given over its preset value.
 */
class SimOptionsTest
{
    private static SimOptions parse(final String... args)
    {
        final SimCommand command = new SimCommand();
        new CommandLine(command).parseArgs(args);
        return command.options;
    }

    @Test
    void theDefaultIsThePapersFabricWithThePapersSettings()
    {
        final SimOptions options = parse();

        assertEquals(SimFabric.paper(), options.fabric());
        assertEquals("leafspine:9x16x4", options.topo());
        final SimSettings settings = options.settings(options.fabric());
        assertEquals(TransportConfiguration.PAPER, settings.pfabric());
        assertEquals(SimSettings.PAPER_TCP_MIN_RTO_NS, settings.tcpMinRtoNs());
        assertEquals(DupAckRule.OFF, settings.tcpDupAckRule(), "no fast retransmit, as the paper runs its schemes");
    }

    @Test
    void theDupAckThresholdMapsToTheRuleAndRefusesWhatItIsNot()
    {
        assertEquals(DupAckRule.SCRIPTS, parse("--dupack-threshold", "scripts").settings(SimFabric.paper())
            .tcpDupAckRule());
        assertEquals(new DupAckRule(3, 0), parse("--dupack-threshold", "3").settings(SimFabric.paper())
            .tcpDupAckRule());
        final SimOptions bad = parse("--dupack-threshold", "0.75");
        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> bad.settings(SimFabric.paper()));
        assertTrue(ex.getMessage().startsWith("--dupack-threshold "), ex.getMessage());
        assertTrue(parse("--tcp-send-window", "sack").settings(SimFabric.paper()).tcpSackOpensWindow());
        assertFalse(parse().settings(SimFabric.paper()).tcpSackOpensWindow(), "ns-2's window by default");
        final SimOptions badWindow = parse("--tcp-send-window", "pipe");
        final IllegalArgumentException windowEx =
            assertThrows(IllegalArgumentException.class, () -> badWindow.settings(SimFabric.paper()));
        assertTrue(windowEx.getMessage().startsWith("--tcp-send-window "), windowEx.getMessage());
    }

    @Test
    void theHotNetsPresetIsTheFatTreeWithItsTimeouts()
    {
        final SimOptions options = parse("--preset", "hotnets");

        assertEquals(SimFabric.hotNets(), options.fabric());
        assertEquals("fattree:6", options.topo());
        final SimSettings settings = options.settings(options.fabric());
        assertEquals(12_000, settings.baseRttNs());
        assertEquals(40_000, settings.pfabric().timeoutNs());
        assertEquals(10, settings.pfabric().initialWindowPackets(), "12 us x 10 Gb/s in 1500-byte packets");
        assertEquals(14, settings.pfabric().maxWindowPackets(), "22.5 KB less one packet");
        assertEquals(200_000, settings.tcpMinRtoNs());
    }

    @Test
    void anOptionGivenOverridesItsPresetValue()
    {
        final SimOptions options = parse("--preset", "hotnets", "--buffer", "36000", "--timeout", "36us",
            "--tcp-min-rto", "1ms", "--dctcp-k", "30000", "--topo", "fattree:4");

        final SimFabric fabric = options.fabric();
        assertEquals(SimFabric.fatTree(4, 10_000_000_000L, 10_000_000_000L, 632, 200, 36_000, "pfabric"), fabric);
        final SimSettings settings = options.settings(fabric);
        assertEquals(36_000, settings.pfabric().timeoutNs());
        assertEquals(23, settings.pfabric().maxWindowPackets());
        assertEquals(1_000_000, settings.tcpMinRtoNs());
        assertEquals(30_000, settings.ecnThresholdLength());
        assertEquals(SimFabric.fatTree(6, 10_000_000_000L, 40_000_000_000L, 2_700, 200, 36_000, "pfabric"),
            parse("--topo", "fattree:6").fabric(), "the paper's physics on a fat-tree");
    }

    @Test
    void anUnknownPresetOrABadBufferIsRefused()
    {
        final SimOptions unknown = parse("--preset", "sigcomm");
        assertThrows(IllegalArgumentException.class, unknown::fabric);
        final SimOptions badBuffer = parse("--buffer", "36KB");
        assertThrows(IllegalArgumentException.class, badBuffer::fabric);
    }

    @Test
    void pfabricClassesTakesItsClassesAndTheTraceItsDscpsAsHostdMarksThem() throws Exception
    {
        final SimOptions options = parse("--discipline", "pfabric-classes", "--classes", "3:0-7;1:8-15",
            "--dscp-shares", "0:3,8:1", "--seed", "5");

        final SimFabric fabric = options.fabric();
        assertEquals(SimFabric.paper().withClasses(TrafficClasses.parse("3:0-7;1:8-15")), fabric);
        assertTrue(fabric.hasClasses());
        final List<WorkloadTrace.FlowSpec> trace = WorkloadTrace.generate(fabric.hosts(), 0.5,
            fabric.edgeRateBitsPerSec(), FlowSizeDistribution.load("websearch"), 5, 200, 0);
        assertEquals(WorkloadTrace.withDscpShares(trace, "0:3,8:1", 5), options.marked(trace));
        assertEquals(trace, parse().marked(trace));
        assertEquals(SimFabric.paper().withClasses(TrafficClasses.DEFAULT),
            parse("--discipline", "pfabric-classes").fabric());
    }

    @Test
    void aCommodityDisciplineTakesItsOwnBufferAndTheModelsThresholdsPerLoad() throws Exception
    {
        final SimFabric strict = parse("--discipline", "strict:4").fabric();
        assertEquals("strict:4:model", strict.discipline());
        assertEquals(225_000, strict.bufferLength());
        final SimFabric run = parse("--discipline", "strict:4").fabricAt(strict, 0.5);
        assertEquals(SimFabric.paper().withQueues(run.discipline(), 225_000), run);
        assertTrue(run.discipline().matches("strict:4:[0-9]+,[0-9]+,[0-9]+"), run.discipline());
        assertEquals(30_000, parse("--discipline", "aifo").fabric().bufferLength());
        assertEquals(120_000, parse("--discipline", "sp-pifo:8").fabric().bufferLength());
        assertEquals(50_000, parse("--discipline", "sp-pifo:8", "--buffer", "50000").fabric().bufferLength());
        final IllegalArgumentException bad =
            assertThrows(IllegalArgumentException.class, () -> parse("--discipline", "strict:9").fabric());
        assertTrue(bad.getMessage().startsWith("--discipline: "), bad.getMessage());
        assertThrows(IllegalArgumentException.class, () -> parse("--discipline", "strict:4", "--app",
            "websearch:0.5", "--duration", "1ms").fabric());
    }

    @Test
    void classesNeedTheClassDiscipline()
    {
        assertThrows(IllegalArgumentException.class, () -> parse("--classes", "3;1:8").fabric());
        assertThrows(IllegalArgumentException.class, () -> parse("--discipline", "droptail").fabric());
        assertThrows(IllegalArgumentException.class,
            () -> parse("--discipline", "pfabric-classes", "--classes", "3;x").fabric());
    }

    @Test
    void anApplicationMixIsEachWorkloadAtItsLoadAndDscpWithinTheDuration() throws Exception
    {
        final SimOptions options = parse("--topo", "star:8", "--app", "websearch:0.6", "--app",
            "datamining:0.3:dscp=8", "--duration", "20ms", "--seed", "4");
        final SimFabric fabric = options.fabric();
        final List<WorkloadTrace.FlowSpec> trace = options.trace(fabric, 0.9);
        final List<WorkloadTrace.FlowSpec> websearch = WorkloadTrace.generate(8, 0.6, fabric.edgeRateBitsPerSec(),
            FlowSizeDistribution.load("websearch"), 4, 10_000, 20_000_000L);
        assertEquals(websearch.stream().map(WorkloadTrace.FlowSpec::startNs).toList(),
            trace.stream().filter(flow -> 0 == flow.dscp()).map(WorkloadTrace.FlowSpec::startNs).toList());
        assertTrue(trace.stream().anyMatch(flow -> 8 == flow.dscp()));
        assertTrue(trace.stream().allMatch(flow -> flow.startNs() < 20_000_000L));
        assertEquals("websearch:0.6 + datamining:0.3:dscp=8", options.workloadLabel());
    }

    @Test
    void anApplicationMixNeedsADurationAndNoDscpShares()
    {
        final SimFabric fabric = parse("--topo", "star:8").fabric();
        assertThrows(IllegalArgumentException.class,
            () -> parse("--app", "websearch:0.6").trace(fabric, 0.6));
        assertThrows(IllegalArgumentException.class,
            () -> parse("--app", "websearch:0.6", "--duration", "1ms", "--dscp-shares", "0:1,8:1").trace(fabric, 0.6));
        assertThrows(IllegalArgumentException.class,
            () -> parse("--app", "websearch:0.6:dscp=99", "--duration", "1ms").trace(fabric, 0.6));
    }
}
