package io.pfabric.switchd;

import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.dataplane.queue.QueueCounter;
import io.pfabric.testsupport.Await;
import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The admin interface of a running switch, on loopback: Prometheus metrics that follow the traffic, the ports report,
 * and a rate change and a discipline change applied by the forwarder while traffic flows; changes only with the token,
 * and no server off loopback without one.
 */
@Timeout(120)
@RequiresNetns
class AdminServerSystemTest
{
    private static final Duration APPLY_TIMEOUT = Duration.ofSeconds(5);
    private static final String TOKEN = "a-token-for-this-test-only";

    private StarFabric fabric;
    private AdminServer admin;
    private final HttpClient client = HttpClient.newHttpClient();

    @AfterEach
    void tearDown() throws Exception
    {
        if (null != admin)
        {
            admin.close();
        }
        if (null != fabric)
        {
            fabric.close();
        }
    }

    private HttpResponse<String> request(final String method, final String path) throws Exception
    {
        return request(method, path, TOKEN);
    }

    private HttpResponse<String> request(final String method, final String path, final String token) throws Exception
    {
        final URI uri = URI.create("http://127.0.0.1:" + admin.address().getPort() + path);
        final HttpRequest.Builder request = HttpRequest.newBuilder(uri).method(method, HttpRequest.BodyPublishers.noBody());
        if (null != token)
        {
            request.header("Authorization", "Bearer " + token);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void servesMetricsAndThePortsReportAndChangesARateAtRunTime() throws Exception
    {
        fabric = new StarFabric(2, 100_000_000L, DisciplineKind.PFABRIC);
        admin = AdminServer.start(fabric.daemon(), new InetSocketAddress("127.0.0.1", 0), TOKEN);
        Namespaces.exec(fabric.host(1), "ping", "-c", "3", "-i", "0.2", "-W", "2", "10.0.0.2");

        final String metrics = request("GET", "/metrics").body();
        final Matcher received = Pattern.compile(
            "pfabric_port_received_frames_total\\{port=\"p1\",switch=\"s1\"} ([0-9.E]+)").matcher(metrics);
        assertTrue(received.find(), metrics);
        assertTrue(Double.parseDouble(received.group(1)) >= 3, received.group());
        assertTrue(metrics.contains("pfabric_queue_occupancy_bytes{port=\"p2\",switch=\"s1\"}"), metrics);

        final String ports = request("GET", "/ports").body();
        assertTrue(ports.contains("p1 interface=s1-p1 discipline=pfabric rate=100m"), ports);

        final HttpResponse<String> changed = request("POST", "/ports/p2/rate?value=1g");
        assertEquals(202, changed.statusCode(), changed.body());
        Await.await(() -> 1_000_000_000L == fabric.port(2).pacer().rateBitsPerSec(), APPLY_TIMEOUT,
            () -> "the forwarder paced p2 at 1 Gb/s (it paces at " + fabric.port(2).pacer().rateBitsPerSec() + " b/s)");
        assertTrue(request("GET", "/ports").body().contains("p2 interface=s1-p2 discipline=pfabric rate=1g"));

        final HttpResponse<String> swapped = request("POST", "/ports/p2/discipline?value=droptail&buffer=100000");
        assertEquals(202, swapped.statusCode(), swapped.body());
        Await.await(() -> "droptail".equals(fabric.port(2).queue().name()), APPLY_TIMEOUT,
            () -> "the forwarder put a droptail queue on p2 (it has " + fabric.port(2).queue().name() + ")");
        assertEquals(100_000, fabric.port(2).queue().capacityLength());
        final String ping = Namespaces.exec(fabric.host(1), "ping", "-c", "3", "-i", "0.2", "-W", "2", "10.0.0.2");
        assertTrue(ping.contains("3 received"), ping);
        assertEquals(3, fabric.port(2).queue().counters().get(
            QueueCounter.DEQUEUED_PACKETS), "the pings left through the new queue");
        assertEquals(400, request("POST", "/ports/p1/discipline?value=fifo").statusCode());

        assertEquals(404, request("POST", "/ports/p9/rate?value=1g").statusCode());
        assertEquals(400, request("POST", "/ports/p1/rate?value=fast").statusCode());
        assertEquals(400, request("POST", "/ports/p1/rate").statusCode());
    }

    @Test
    void changesNeedTheTokenAndReadsStayOpenOnLoopback() throws Exception
    {
        fabric = new StarFabric(2, 100_000_000L, DisciplineKind.PFABRIC);
        admin = AdminServer.start(fabric.daemon(), new InetSocketAddress("127.0.0.1", 0), TOKEN);

        assertEquals(200, request("GET", "/ports", null).statusCode());
        assertEquals(200, request("GET", "/metrics", null).statusCode());
        final HttpResponse<String> anonymous = request("POST", "/ports/p2/rate?value=1g", null);
        assertEquals(401, anonymous.statusCode(), anonymous.body());
        assertEquals("Bearer", anonymous.headers().firstValue("WWW-Authenticate").orElse(""));
        assertEquals(401, request("POST", "/ports/p2/rate?value=1g", TOKEN + "x").statusCode());
        assertEquals(401, request("POST", "/ports/p2/rate?value=1g", TOKEN.substring(1)).statusCode());
        assertEquals(401, request("POST", "/ports/p2/discipline?value=droptail", "").statusCode());
        assertEquals(100_000_000L, fabric.port(2).pacer().rateBitsPerSec(), "a refused change changed nothing");
        assertEquals("pfabric", fabric.port(2).queue().name());

        admin.close();
        admin = AdminServer.start(fabric.daemon(), new InetSocketAddress("127.0.0.1", 0), null);
        final HttpResponse<String> off = request("POST", "/ports/p2/rate?value=1g");
        assertEquals(403, off.statusCode(), off.body());
        assertTrue(off.body().contains("--admin-token-file"), off.body());
        assertEquals(200, request("GET", "/ports", null).statusCode());
        admin.close();
        admin = null;

        final IllegalArgumentException open = assertThrows(IllegalArgumentException.class,
            () -> AdminServer.start(fabric.daemon(), new InetSocketAddress("0.0.0.0", 0), null));
        assertTrue(open.getMessage().contains("needs a token"), open.getMessage());
        admin = AdminServer.start(fabric.daemon(), new InetSocketAddress("0.0.0.0", 0), TOKEN);
        assertEquals(401, request("GET", "/ports", null).statusCode(), "off loopback, reads need the token too");
        assertEquals(401, request("GET", "/metrics", null).statusCode());
        assertEquals(200, request("GET", "/ports").statusCode());
    }
}
