package io.pfabric.testbed.monitor;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A daemon's meters over HTTP for Prometheus ({@code --metrics}): {@code GET /metrics} answers the registry's text
 * exposition, the same text {@code --counters-file} writes. One thread, which only the scrapes wake.
 */
public final class MetricsServer implements AutoCloseable
{
    private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final HttpServer server;
    private final ExecutorService executor = Executors.newSingleThreadExecutor(runnable ->
    {
        final Thread thread = new Thread(runnable, "pfabric-metrics");
        thread.setDaemon(true);
        return thread;
    });

    private MetricsServer(final HttpServer server, final Supplier<String> exposition)
    {
        this.server = server;
        server.createContext("/metrics", exchange -> respond(exchange, exposition));
        server.setExecutor(executor);
    }

    /**
     * Serve meters.
     *
     * @param address    where to listen; port 0 picks a free one.
     * @param exposition the meters' text exposition at the time of each scrape, e.g. a registry's {@code scrape}.
     * @return the running server.
     * @throws IOException if the address cannot be bound.
     */
    public static MetricsServer start(final InetSocketAddress address, final Supplier<String> exposition)
        throws IOException
    {
        final MetricsServer metrics = new MetricsServer(HttpServer.create(address, 16), exposition);
        metrics.server.start();
        return metrics;
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

    private static void respond(final HttpExchange exchange, final Supplier<String> exposition)
        throws IOException
    {
        try (exchange)
        {
            if (!"GET".equals(exchange.getRequestMethod()) && !"HEAD".equals(exchange.getRequestMethod()))
            {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            final byte[] body = exposition.get().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
            exchange.sendResponseHeaders(200, "HEAD".equals(exchange.getRequestMethod()) ? -1 : body.length);
            if (!"HEAD".equals(exchange.getRequestMethod()))
            {
                try (OutputStream out = exchange.getResponseBody())
                {
                    out.write(body);
                }
            }
        }
    }

    /**
     * Stop serving; a scrape in progress is given a second.
     */
    public void close()
    {
        server.stop(0);
        executor.shutdownNow();
        try
        {
            executor.awaitTermination(1, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
