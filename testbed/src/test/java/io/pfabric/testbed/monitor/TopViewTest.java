package io.pfabric.testbed.monitor;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The view of {@code pfabric top} from two scrapes.
 */
class TopViewTest
{
    private static final String BEFORE = """
        # HELP pfabric_queue_dequeued_bytes_total Bytes dequeued at the port's egress queue
        # TYPE pfabric_queue_dequeued_bytes_total counter
        pfabric_queue_dequeued_bytes_total{port="p1",switch="s1"} 1000.0
        pfabric_queue_dequeued_bytes_total{port="p2",switch="s1"} 0.0
        pfabric_queue_occupancy_bytes{port="p1",switch="s1"} 0.0
        pfabric_queue_occupancy_bytes{port="p2",switch="s1"} 0.0
        pfabric_host_flows_active{host="h1"} 0.0
        """;
    private static final String NOW = """
        pfabric_queue_dequeued_bytes_total{port="p1",switch="s1"} 2501000.0
        pfabric_queue_dequeued_bytes_total{port="p2",switch="s1"} 125.0
        pfabric_queue_occupancy_bytes{port="p1",switch="s1"} 30000.0
        pfabric_queue_occupancy_frames{port="p1",switch="s1"} 20.0
        pfabric_queue_occupancy_bytes{port="p2",switch="s1"} 0.0
        pfabric_queue_dropped_frames_total{port="p1",reason="priority_drop_arrival",switch="s1"} 7.0
        pfabric_queue_dropped_frames_total{port="p1",reason="tail_drop",switch="s1"} 0.0
        pfabric_port_dropped_frames_total{port="p1",reason="malformed",switch="s1"} 2.0
        pfabric_queue_dropped_frames_total{port="p2",reason="priority_eviction",switch="s1"} 1.0
        pfabric_host_flows_active{host="h2"} 1.0
        pfabric_host_flows_completed_total{host="h2"} 5.0
        pfabric_host_flows_active{host="h1"} 3.0
        pfabric_host_flows_completed_total{host="h1"} 40.0
        pfabric_host_flows_incomplete_total{host="h1"} 1.0
        pfabric_host_timeouts_total{host="h1"} 2.0
        """;

    @Test
    void ratesOverTheIntervalDepthNowDropsByReasonAndHostsByName() throws IOException
    {
        final TopView view = TopView.of(PrometheusText.parse("before", BEFORE), PrometheusText.parse("now", NOW), 2);

        assertEquals(List.of(
            new TopView.PortRow("s1", "p1", 10_000_000, 30_000, 20, Map.of("malformed", 2L,
                "priority_drop_arrival", 7L)),
            new TopView.PortRow("s1", "p2", 500, 0, 0, Map.of("priority_eviction", 1L))), view.ports());
        assertEquals(9, view.ports().get(0).drops());
        assertEquals(List.of(new TopView.HostRow("h1", 3, 40, 1, 2), new TopView.HostRow("h2", 1, 5, 0, 0)),
            view.hosts());
        assertEquals("""
            heading

            SWITCH   PORT             TX   QUEUE(B)  FRAMES    DROPS  DROPS BY REASON
            s1       p1       10.00 Mb/s      30000      20        9  malformed=2 priority_drop_arrival=7
            s1       p2          500 b/s          0       0        1  priority_eviction=1

            HOST       ACTIVE       DONE INCOMPLETE  TIMEOUTS
            h1              3         40          1         2
            h2              1          5          0         0
            """, view.render("heading"));
    }

    @Test
    void aHostReplayingKernelTcpIsShownByItsTcpFlows() throws IOException
    {
        final TopView view = TopView.of(null, PrometheusText.parse("now", """
            pfabric_tcp_flows_started_total{host="h1"} 32.0
            pfabric_tcp_flows_completed_total{host="h1"} 30.0
            pfabric_tcp_flows_active{host="h1"} 2.0
            pfabric_host_flows_active{host="h2"} 1.0
            pfabric_host_flows_completed_total{host="h2"} 5.0
            """), 1);

        assertEquals(List.of(new TopView.HostRow("h1", 2, 30, 0, 0), new TopView.HostRow("h2", 1, 5, 0, 0)),
            view.hosts());
    }

    @Test
    void withoutAnEarlierScrapeRatesAreZero() throws IOException
    {
        final TopView view = TopView.of(null, PrometheusText.parse("now", NOW), 1);

        assertEquals(0, view.ports().get(0).rateBitsPerSec());
        assertEquals("0 b/s", TopView.bitsPerSec(0));
        assertEquals("9.99 Gb/s", TopView.bitsPerSec(9.99e9));
    }
}
