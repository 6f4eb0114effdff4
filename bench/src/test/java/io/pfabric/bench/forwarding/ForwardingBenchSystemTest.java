package io.pfabric.bench.forwarding;

import io.pfabric.common.os.Commands;
import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The forwarding benchmark end to end, short, with each generator (trafgen, and the kernel's XDP live frames): the
 * generator alone into its dropping veth, then switchd and the Linux bridge each forward its flood to the tc drop
 * sink and a UDP ping-pong between two namespaces, switchd's egress paced at 100 Mb/s is offered more than that and
 * never exceeds it, and nothing is left behind.
 */
@Timeout(180)
@RequiresNetns
class ForwardingBenchSystemTest
{
    private static final long PACED_BPS = 100_000_000L;

    @Test
    void measuresEachTargetAndThePacerAndCleansUp() throws Exception
    {
        measure(ForwardingBench.Generator.TRAFGEN);
    }

    @Test
    void theXdpGeneratorFloodsEachTargetAndOffersThePacerMoreThanItsRate() throws Exception
    {
        measure(ForwardingBench.Generator.XDP);
    }

    private static void measure(final ForwardingBench.Generator generator) throws Exception
    {
        final int rttSamples = 200;
        final ForwardingBench.Settings settings = new ForwardingBench.Settings(
            List.of(ForwardingTarget.Kind.GENERATOR, ForwardingTarget.Kind.SWITCHD, ForwardingTarget.Kind.BRIDGE),
            List.of(60),
            Duration.ofMillis(500), Duration.ofSeconds(2), Duration.ofSeconds(1), 50, rttSamples, List.of(PACED_BPS),
            List.of(ForwardingTarget.Kind.SWITCHD, ForwardingTarget.Kind.SWITCHD_XDP),
            ForwardingBench.Sink.TC, generator, 1);
        final ByteArrayOutputStream progress = new ByteArrayOutputStream();
        final ForwardingBench.Report report;
        final PrintStream progressStream = new PrintStream(progress, true, StandardCharsets.UTF_8);
        try (ForwardingBench bench = new ForwardingBench(settings, progressStream))
        {
            report = bench.run();
        }
        final String log = progress.toString(StandardCharsets.UTF_8);

        assertEquals(3, report.forwarding().size(), log);
        for (final ForwardingBench.ForwardingResult result : report.forwarding())
        {
            assertTrue(result.cpuNsPerFrame() > 0 && result.ownCpuNsPerFrame() > 0, result::toString);
            assertEquals("switchd".equals(result.target()), result.forwarderNsPerFrame() > 0, result::toString);
            if ("generator".equals(result.target()))
            {
                assertTrue(result.deliveredPps() > 0, () -> "the generator delivered nothing: " + result + "\n" + log);
                assertTrue(Double.isNaN(result.rttP50Us()), () -> "a round trip without a path: " + result);
                continue;
            }
            assertTrue(result.deliveredPps() > 0, () -> "nothing delivered through " + result + "\n" + log);
            assertTrue(result.deliveredPps() <= result.offeredPps() * 1.01,
                () -> "more delivered than offered: " + result + "\n" + log);
            assertTrue(result.rttLost() < rttSamples, () -> "every round trip lost: " + result);
            assertTrue(result.rttP50Us() > 0 && result.rttP99Us() >= result.rttP50Us(), result::toString);
        }

        assertEquals(List.of("switchd", "switchd-xdp"),
            report.pacer().stream().map(ForwardingBench.PacerResult::target).toList(), log);
        for (final ForwardingBench.PacerResult pacer : report.pacer())
        {
            assertTrue(pacer.offeredBps() > PACED_BPS, () -> "the paced port was not overloaded: " + pacer);
            assertTrue(pacer.measuredBps() > 0, pacer::toString);
            assertTrue(pacer.measuredBps() <= PACED_BPS * 1.01,
                () -> "the paced port let through more than its rate: " + pacer);
            assertTrue(pacer.backloggedFraction() > 0 && pacer.backloggedFraction() <= 1.01,
                () -> "an overloaded port was never backlogged, or longer than the measurement: " + pacer);
            assertTrue(pacer.longestStallNs() > 0 && pacer.ringFullDrops() >= 0, pacer::toString);
        }

        assertFalse(Commands.run("ip", "netns", "list").contains(ForwardingBench.namespacePrefix() + "-"),
            "the benchmark's namespaces are gone");
    }
}
