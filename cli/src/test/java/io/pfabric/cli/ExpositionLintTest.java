package io.pfabric.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The built-in rules find what promtool finds on the exposition switchd wrote before its meters had help texts.
 */
class ExpositionLintTest
{
    @Test
    void findsAMissingHelpTextAnAbbreviatedUnitAndAMisnamedCounter()
    {
        final String exposition = """
            # HELP pfabric_forwarder_longest_duty_cycle_gap_ns
            # TYPE pfabric_forwarder_longest_duty_cycle_gap_ns gauge
            pfabric_forwarder_longest_duty_cycle_gap_ns{switch="s1"} 12.0
            # HELP pfabric_port_frames Frames
            # TYPE pfabric_port_frames counter
            pfabric_port_frames{switch="s1"} 1.0
            # HELP pfabric_queue_occupancy_bytes Bytes queued now
            # TYPE pfabric_queue_occupancy_bytes gauge
            pfabric_queue_occupancy_bytes{switch="s1"} 0.0
            """;
        assertEquals(List.of(
            "pfabric_forwarder_longest_duty_cycle_gap_ns no help text",
            "pfabric_forwarder_longest_duty_cycle_gap_ns metric names should not contain abbreviated units",
            "pfabric_port_frames counter metrics should have \"_total\" suffix"), ExpositionLint.builtIn(exposition));
    }
}
