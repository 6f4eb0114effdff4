package io.pfabric.switchd;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.pfabric.common.topology.DisciplineSpec;
import io.pfabric.common.topology.Rates;
import io.pfabric.common.topology.TrafficClasses;
import io.pfabric.dataplane.pacer.EgressPacer;
import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.dataplane.queue.PfabricClassQueue;
import io.pfabric.dataplane.queue.QueueDiscipline;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A switch's admin interface over HTTP: {@code GET /metrics} (Prometheus text), {@code GET /ports} (one line per
 * port: queue occupancy and counters, and for a queue with traffic classes each class's bytes sent), {@code POST /ports/NAME/rate?value=1g} (change a port's line rate; 0 for
 * unpaced) and {@code POST /ports/NAME/discipline?value=droptail&buffer=225000} (give a port a new queue; buffered
 * frames move into it), applied by the forwarder on its own thread.
 * <p>
 * The changing endpoints (POST) need the admin token as {@code Authorization: Bearer TOKEN}, compared in constant
 * time; without a token they are refused. Reading stays open on a loopback address; on any other address every
 * request needs the token, and the server does not start without one.
 */
public final class AdminServer implements AutoCloseable
{
    private static final String BEARER = "Bearer ";

    private final SwitchDaemon daemon;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final HttpServer server;
    private final byte[] token;
    private final boolean readsNeedToken;
    private final ExecutorService executor = Executors.newSingleThreadExecutor(runnable ->
    {
        final Thread thread = new Thread(runnable, "pfabric-admin");
        thread.setDaemon(true);
        return thread;
    });

    private AdminServer(final SwitchDaemon daemon, final HttpServer server, final byte[] token)
    {
        this.daemon = daemon;
        this.server = server;
        this.token = token;
        this.readsNeedToken = !server.getAddress().getAddress().isLoopbackAddress();
        SwitchMetrics.bind(daemon, registry);
        server.createContext("/metrics", exchange ->
        {
            if (authorized(exchange, readsNeedToken))
            {
                respond(exchange, 200, registry.scrape());
            }
        });
        server.createContext("/ports", this::onPorts);
        server.setExecutor(executor);
    }

    /**
     * Serve a switch's admin interface.
     *
     * @param daemon  the switch.
     * @param address to listen on; port 0 picks a free one.
     * @param token   the admin token changes need (and, off loopback, every request); null: changes refused.
     * @return the running server.
     * @throws IOException              if the address cannot be bound.
     * @throws IllegalArgumentException for an address off loopback without a token.
     */
    public static AdminServer start(final SwitchDaemon daemon, final InetSocketAddress address, final String token)
        throws IOException
    {
        if (null == token && (address.isUnresolved() || !address.getAddress().isLoopbackAddress()))
        {
            throw new IllegalArgumentException("an admin interface on " + address + ", off loopback, needs a token " +
                "(--admin-token-file): its ports report and metrics would be open to the network");
        }
        if (null != token && token.isEmpty())
        {
            throw new IllegalArgumentException("the admin token is empty");
        }
        final AdminServer admin = new AdminServer(daemon, HttpServer.create(address, 16),
            null == token ? null : token.getBytes(StandardCharsets.UTF_8));
        admin.server.start();
        return admin;
    }

    /**
     * Where the server listens.
     *
     * @return the bound address.
     */
    public InetSocketAddress address()
    {
        return server.getAddress();
    }

    /**
     * Whether a request may go on; if not, it is answered 401 (no or a wrong token) or 403 (no token configured).
     */
    private boolean authorized(final HttpExchange exchange, final boolean needsToken) throws IOException
    {
        if (!needsToken)
        {
            return true;
        }
        if (null == token)
        {
            respond(exchange, 403, "changes are off: start switchd with --admin-token-file FILE and give the same " +
                "file to switchctl\n");
            return false;
        }
        final String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        final byte[] offered = null != authorization && authorization.startsWith(BEARER) ?
            authorization.substring(BEARER.length()).strip().getBytes(StandardCharsets.UTF_8) : new byte[0];
        if (!MessageDigest.isEqual(token, offered))
        {
            exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer");
            respond(exchange, 401, "this needs the admin token: Authorization: Bearer TOKEN (switchctl " +
                "--admin-token-file FILE)\n");
            return false;
        }
        return true;
    }

    private void onPorts(final HttpExchange exchange) throws IOException
    {
        final String[] path = exchange.getRequestURI().getPath().split("/");
        if (!authorized(exchange, readsNeedToken || !"GET".equals(exchange.getRequestMethod())))
        {
            return;
        }
        if ("GET".equals(exchange.getRequestMethod()) && path.length <= 2)
        {
            respond(exchange, 200, portsReport());
        }
        else if ("POST".equals(exchange.getRequestMethod()) && 4 == path.length && "rate".equals(path[3]))
        {
            onRate(exchange, path[2]);
        }
        else if ("POST".equals(exchange.getRequestMethod()) && 4 == path.length && "discipline".equals(path[3]))
        {
            onDiscipline(exchange, path[2]);
        }
        else
        {
            respond(exchange, 404,
                "try GET /ports, GET /metrics, POST /ports/NAME/rate?value=1g or /ports/NAME/discipline?value=ecn\n");
        }
    }

    /**
     * The {@code value=...} query of a request to change a port, or null after answering 404 or 400.
     */
    private String valueQuery(final HttpExchange exchange, final SwitchPort port, final String portName,
        final String usage) throws IOException
    {
        final String query = exchange.getRequestURI().getQuery();
        if (null == port)
        {
            respond(exchange, 404, "no port named '" + portName + "'\n");
            return null;
        }
        if (null == query || !query.startsWith("value="))
        {
            respond(exchange, 400, usage);
            return null;
        }
        return query.substring("value=".length());
    }

    private void onRate(final HttpExchange exchange, final String portName) throws IOException
    {
        final SwitchPort port = port(portName);
        final String value = valueQuery(exchange, port, portName,
            "give the rate as ?value=RATE, e.g. ?value=1g or ?value=0 for unpaced\n");
        if (null == value)
        {
            return;
        }
        final long rateBitsPerSec;
        try
        {
            rateBitsPerSec = Rates.parseBitsPerSec(value);
        }
        catch (final RuntimeException ex)
        {
            respond(exchange, 400, ex.getMessage() + "\n");
            return;
        }
        final boolean accepted = daemon.forwarder().offer(() ->
        {
            if (0 == rateBitsPerSec)
            {
                port.pacer(null);
            }
            else if (null == port.pacer())
            {
                port.pacer(new EgressPacer(rateBitsPerSec));
            }
            else
            {
                port.pacer().rate(rateBitsPerSec);
            }
        });
        if (accepted)
        {
            respond(exchange, 202, "rate of " + portName + " set to " + Rates.format(rateBitsPerSec) + "\n");
        }
        else
        {
            respond(exchange, 503, "the forwarder's command queue is full; try again\n");
        }
    }

    private void onDiscipline(final HttpExchange exchange, final String portName) throws IOException
    {
        final SwitchPort port = port(portName);
        final String value = valueQuery(exchange, port, portName,
            "give the discipline as ?value=NAME[&buffer=BYTES], e.g. ?value=droptail\n");
        if (null == value)
        {
            return;
        }
        final QueueDiscipline queue;
        try
        {
            final String[] parameters = value.split("&");
            final DisciplineSpec spec = DisciplineSpec.parse(parameters[0]);
            final long bufferLength = parameters.length > 1 && parameters[1].startsWith("buffer=") ?
                Long.parseLong(parameters[1].substring("buffer=".length())) : 0;
            queue = DisciplineKind.newQueue(spec, bufferLength, port.queue().maxFrameLength(),
                port.queue().maxFrameLength(), TrafficClasses.DEFAULT);
        }
        catch (final RuntimeException ex)
        {
            respond(exchange, 400, ex.getMessage() + "\n");
            return;
        }
        if (daemon.forwarder().offer(() -> daemon.forwarder().replaceQueue(port, queue)))
        {
            respond(exchange, 202, "discipline of " + portName + " set to " + queue.name() + ", " +
                queue.capacityLength() + " B\n");
        }
        else
        {
            respond(exchange, 503, "the forwarder's command queue is full; try again\n");
        }
    }

    private SwitchPort port(final String name)
    {
        for (int i = 0; i < daemon.portCount(); i++)
        {
            if (daemon.port(i).name().equals(name))
            {
                return daemon.port(i);
            }
        }
        return null;
    }

    private String portsReport()
    {
        final StringBuilder out = new StringBuilder();
        for (int i = 0; i < daemon.portCount(); i++)
        {
            final SwitchPort port = daemon.port(i);
            final EgressPacer pacer = port.pacer();
            out.append(String.format(Locale.ROOT,
                "%s interface=%s discipline=%s rate=%s queue_bytes=%d queue_frames=%d received=%d sent=%d " +
                "queue_drops=%d malformed=%d no_route=%d%n",
                port.name(), port.io().interfaceName(), port.queue().name(),
                null == pacer ? "unpaced" : Rates.format(pacer.rateBitsPerSec()), port.queue().byteCount(),
                port.queue().packetCount(), port.counters().get(PortCounter.RECEIVED_FRAMES),
                port.counters().get(PortCounter.TRANSMITTED_FRAMES), port.queue().counters().droppedPackets(),
                port.counters().get(PortCounter.DROPPED_MALFORMED), port.counters().get(PortCounter.DROPPED_NO_ROUTE)));
            if (port.queue() instanceof final PfabricClassQueue classes)
            {
                appendClasses(out.deleteCharAt(out.length() - 1), classes).append('\n');
            }
        }
        return out.toString();
    }

    /**
     * Each class's bytes sent, and sent while every class was backlogged: {@code class_departed_bytes=B0/B1/...
     * class_backlogged_bytes=...}.
     */
    private static StringBuilder appendClasses(final StringBuilder out, final PfabricClassQueue queue)
    {
        final int classCount = queue.classes().classCount();
        out.append(" class_departed_bytes=");
        for (int k = 0; k < classCount; k++)
        {
            out.append(0 == k ? "" : "/").append(queue.departedBytes(k));
        }
        out.append(" class_backlogged_bytes=");
        for (int k = 0; k < classCount; k++)
        {
            out.append(0 == k ? "" : "/").append(queue.backloggedBytes(k));
        }
        return out;
    }

    private static void respond(final HttpExchange exchange, final int status, final String body) throws IOException
    {
        final byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody())
        {
            out.write(bytes);
        }
    }

    /**
     * Stop serving.
     */
    public void close()
    {
        server.stop(0);
        executor.shutdownNow();
        registry.close();
    }
}
