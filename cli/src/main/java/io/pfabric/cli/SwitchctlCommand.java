package io.pfabric.cli;

import io.pfabric.common.config.SecretFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code pfabric switchctl}: read a running switch's counters and change a port's rate, through the admin interface
 * of {@code pfabric switchd --admin}.
 */
@Command(
    name = "switchctl",
    mixinStandardHelpOptions = true,
    header = "Read a running switch's counters or change a port's rate.",
    description = "Talks to the admin interface of 'pfabric switchd --admin HOST:PORT'. Commands: 'ports' (queue " +
        "occupancy and counters per port), 'metrics' (Prometheus text), 'rate PORT RATE' (e.g. rate p1 1g; 0 for " +
        "unpaced), 'discipline PORT NAME [BUFFER]' (e.g. discipline p1 droptail 225000; buffered frames move to the " +
        "new queue).")
public final class SwitchctlCommand implements Callable<Integer>
{
    @Option(names = "--admin", defaultValue = "127.0.0.1:9464", paramLabel = "[HOST:]PORT",
        description = "The switch's admin address; a PORT alone means 127.0.0.1 (default: ${DEFAULT-VALUE}).")
    String adminAddress;

    @Option(names = "--admin-token-file", paramLabel = "FILE",
        description = "The admin token switchd was given (--admin-token-file), which 'rate' and 'discipline' need, " +
            "and every command when switchd listens off loopback. The file must be private to its owner.")
    Path adminTokenFile;

    @Parameters(arity = "1..4", paramLabel = "COMMAND",
        description = "ports | metrics | rate PORT RATE | discipline PORT NAME [BUFFER]")
    List<String> command;

    /**
     * An admin address: {@code HOST:PORT}, or a {@code PORT} alone on 127.0.0.1.
     */
    static InetSocketAddress address(final String hostAndPort)
    {
        final int colon = hostAndPort.lastIndexOf(':');
        try
        {
            final int port = Integer.parseInt(hostAndPort.substring(colon + 1));
            if (port < 0 || port > 0xFFFF || 0 == colon)
            {
                throw new NumberFormatException();
            }
            return colon < 0 ? new InetSocketAddress(InetAddress.getLoopbackAddress(), port) :
                new InetSocketAddress(hostAndPort.substring(0, colon), port);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("expected [HOST:]PORT, not '" + hostAndPort + "'");
        }
    }

    /**
     * The {@code HOST:PORT} of an address for a URL.
     */
    static String authority(final InetSocketAddress address)
    {
        final String host = address.getAddress().getHostAddress();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort();
    }

    /**
     * {@inheritDoc}
     */
    public Integer call() throws Exception
    {
        final String base = "http://" + authority(address(adminAddress));
        final String token = null == adminTokenFile ? null : SecretFiles.readPrivate(adminTokenFile, "token file");
        final HttpRequest.Builder request;
        switch (command.get(0))
        {
            case "ports" -> request = HttpRequest.newBuilder(URI.create(base + "/ports")).GET();
            case "metrics" -> request = HttpRequest.newBuilder(URI.create(base + "/metrics")).GET();
            case "rate" ->
            {
                if (3 != command.size())
                {
                    throw new IllegalArgumentException("usage: switchctl rate PORT RATE, e.g. rate p1 1g");
                }
                request = HttpRequest.newBuilder(URI.create(base + "/ports/" + command.get(1) + "/rate?value=" +
                    command.get(2))).POST(HttpRequest.BodyPublishers.noBody());
            }
            case "discipline" ->
            {
                if (command.size() < 3 || command.size() > 4)
                {
                    throw new IllegalArgumentException(
                        "usage: switchctl discipline PORT NAME [BUFFER], e.g. discipline p1 droptail 225000");
                }
                request = HttpRequest.newBuilder(URI.create(base + "/ports/" + command.get(1) + "/discipline?value=" +
                    command.get(2) + (4 == command.size() ? "&buffer=" + command.get(3) : "")))
                    .POST(HttpRequest.BodyPublishers.noBody());
            }
            default -> throw new IllegalArgumentException("unknown command '" + command.get(0) +
                "'; expected ports, metrics, rate PORT RATE or discipline PORT NAME [BUFFER]");
        }
        if (null != token)
        {
            request.header("Authorization", "Bearer " + token);
        }
        try
        {
            final HttpResponse<String> response = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                .build().send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            (response.statusCode() < 300 ? System.out : System.err).print(response.body());
            return response.statusCode() < 300 ? 0 : 1;
        }
        catch (final ConnectException ex)
        {
            System.err.println("pfabric switchctl: no switchd admin interface at " + adminAddress);
            return 1;
        }
    }
}
