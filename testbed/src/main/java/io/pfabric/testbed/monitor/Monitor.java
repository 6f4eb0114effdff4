package io.pfabric.testbed.monitor;

import io.pfabric.common.topology.Topology;
import io.pfabric.common.topology.TopologyParser;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code pfabric monitor}: the real Prometheus scraping every daemon of the running testbed, started detached with
 * its configuration, data, log and pid in the testbed's state directory under {@code monitor/}, and stopped with
 * all of that removed. Every check of the input (a testbed running, no monitor yet, Prometheus installed, its port
 * free, every recorded daemon answering) comes before anything is made.
 */
public final class Monitor
{
    /** The directory of the monitor's files, in the testbed's state directory. */
    public static final String DIRECTORY = "monitor";
    /** Time between scrapes of each daemon. */
    public static final long SCRAPE_INTERVAL_MS = 2_000;

    private static final int ANSWER_TIMEOUT_MS = 5_000;
    private static final long READY_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);
    /**
     * A target in Prometheus's list whose last scrape succeeded; a target counts as scraped once it has been, since a
     * daemon whose data-path threads keep both cores busy can miss the scrape timeout now and then.
     */
    private static final Pattern SCRAPED_TARGET =
        Pattern.compile("\"scrapeUrl\":\"([^\"]+)\"[^{}]*?\"health\":\"up\"");
    /** Any target in Prometheus's list, with its last scrape's error, duration in seconds and health. */
    private static final Pattern TARGET = Pattern.compile("\"scrapeUrl\":\"([^\"]+)\"[^{}]*?\"lastError\":\"" +
        "((?:[^\"\\\\]|\\\\.)*)\"[^{}]*?\"lastScrapeDuration\":([^,}]+)[^{}]*?\"health\":\"(\\w+)\"");
    private static final long POLL_MS = 100;

    private Monitor()
    {
    }

    /**
     * What {@link #up} started.
     *
     * @param pid        Prometheus's process id.
     * @param url        its web address, e.g. {@code http://127.0.0.1:9090}.
     * @param endpoints  the daemons it scrapes.
     * @param unserved   the hosts of the topology no daemon serves metrics for.
     * @param configFile its configuration.
     */
    public record Running(long pid, String url, List<MetricsEndpoint> endpoints, List<String> unserved,
        Path configFile)
    {
    }

    /**
     * The testbed's topology, if a testbed is running.
     *
     * @param stateDirectory the testbed's state directory.
     * @return the topology.
     * @throws IllegalStateException if no testbed runs there.
     * @throws IOException           if its topology cannot be read.
     */
    public static Topology runningTestbed(final Path stateDirectory) throws IOException
    {
        final Optional<ProcessHandle> switches = process(stateDirectory.resolve(MetricsEndpoint.SWITCHES_PID));
        if (switches.isEmpty() || !Files.isRegularFile(stateDirectory.resolve("topology.yaml")))
        {
            throw new IllegalStateException("no testbed running (no live switches process recorded in " +
                stateDirectory + "): start one with './pfabric testbed up --topo star:4'");
        }
        return TopologyParser.parse(stateDirectory.resolve("topology.yaml"));
    }

    /**
     * Start Prometheus scraping every daemon of the running testbed, and wait until it serves and has scraped each
     * one.
     *
     * @param stateDirectory the testbed's state directory.
     * @param prometheus     the {@code prometheus} program: a path, or a name looked up on {@code PATH}.
     * @param listen         where Prometheus serves its web interface and HTTP API.
     * @return what runs.
     * @throws IllegalStateException on bad input, saying which and what to do; nothing is left running or made.
     * @throws IOException           if Prometheus does not start; nothing is left running or made.
     */
    public static Running up(final Path stateDirectory, final String prometheus, final InetSocketAddress listen)
        throws IOException
    {
        final Topology topology = runningTestbed(stateDirectory);
        final Path directory = stateDirectory.resolve(DIRECTORY);
        final Optional<ProcessHandle> running = process(directory.resolve("prometheus.pid"));
        if (running.isPresent())
        {
            throw new IllegalStateException("a monitor is running already (pid " + running.get().pid() + "): " +
                "'./pfabric monitor down' first");
        }
        final Path program = program(prometheus);
        checkFree(listen);
        final List<MetricsEndpoint> endpoints = MetricsEndpoint.readAll(stateDirectory);
        final String config = ScrapeConfig.generate(topology, endpoints, SCRAPE_INTERVAL_MS);
        for (final MetricsEndpoint endpoint : endpoints)
        {
            checkAnswers(endpoint, stateDirectory);
        }

        removeRecursively(directory);
        Files.createDirectories(directory.resolve("data"));
        final Path configFile = directory.resolve("prometheus.yml");
        Files.writeString(configFile, config, StandardCharsets.UTF_8);
        final String url = "http://" + listen.getAddress().getHostAddress() + ":" + listen.getPort();
        final List<String> command = new ArrayList<>();
        if (Files.isExecutable(Path.of("/usr/bin/setsid")))
        {
            command.add("/usr/bin/setsid");
        }
        command.addAll(List.of(program.toString(), "--config.file=" + configFile.toAbsolutePath(),
            "--storage.tsdb.path=" + directory.resolve("data").toAbsolutePath(),
            "--web.listen-address=" + listen.getAddress().getHostAddress() + ":" + listen.getPort(),
            "--storage.tsdb.retention.time=1d"));
        final Path log = directory.resolve("prometheus.log");
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        Files.writeString(directory.resolve("prometheus.pid"), Long.toString(process.pid()) + "\n");
        try
        {
            awaitScraping(process, url, endpoints.size(), log);
        }
        catch (final IOException | RuntimeException ex)
        {
            stop(process.toHandle());
            removeRecursively(directory);
            throw ex;
        }
        return new Running(process.pid(), url, endpoints, ScrapeConfig.unservedHosts(topology, endpoints),
            configFile);
    }

    /**
     * Stop the monitor and remove its files.
     *
     * @param stateDirectory the testbed's state directory.
     * @return whether a monitor was running.
     * @throws IOException if its files cannot be removed.
     */
    public static boolean down(final Path stateDirectory) throws IOException
    {
        final Path directory = stateDirectory.resolve(DIRECTORY);
        final Optional<ProcessHandle> running = process(directory.resolve("prometheus.pid"));
        running.ifPresent(Monitor::stop);
        final boolean existed = Files.exists(directory);
        removeRecursively(directory);
        return running.isPresent() || existed;
    }

    private static void stop(final ProcessHandle process)
    {
        process.destroy();
        try
        {
            process.onExit().get(15, TimeUnit.SECONDS);
        }
        catch (final Exception ex)
        {
            process.destroyForcibly();
        }
    }

    static Optional<ProcessHandle> process(final Path pidFile) throws IOException
    {
        if (!Files.isRegularFile(pidFile))
        {
            return Optional.empty();
        }
        try
        {
            return ProcessHandle.of(Long.parseLong(Files.readString(pidFile).trim())).filter(ProcessHandle::isAlive);
        }
        catch (final NumberFormatException ex)
        {
            return Optional.empty();
        }
    }

    private static Path program(final String prometheus)
    {
        if (prometheus.contains("/"))
        {
            final Path path = Path.of(prometheus);
            if (Files.isExecutable(path))
            {
                return path;
            }
        }
        else
        {
            for (final String directory : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":"))
            {
                final Path path = Path.of(directory.isEmpty() ? "." : directory, prometheus);
                if (Files.isExecutable(path) && !Files.isDirectory(path))
                {
                    return path;
                }
            }
        }
        throw new IllegalStateException("prometheus is not installed (no '" + prometheus + "' found): " +
            "'apt-get install prometheus' (Debian), or give its path with --prometheus");
    }

    private static void checkFree(final InetSocketAddress listen)
    {
        try (ServerSocket socket = new ServerSocket())
        {
            socket.setReuseAddress(true);
            socket.bind(listen);
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("--port " + listen.getPort() + ": " +
                listen.getAddress().getHostAddress() + ":" + listen.getPort() + " is in use (" + ex.getMessage() +
                "): give a free one with --port");
        }
    }

    /**
     * Refuse a record whose daemon is gone: nothing accepts a connection at its address, or what does answers with
     * an error. A daemon that accepts the connection but is slow to answer it is running, and busy: on two cores
     * whose data-path threads run real-time, a daemon's first scrape has taken over 5 s. Prometheus is then given
     * its own time to scrape it ({@link #awaitScraping}).
     */
    private static void checkAnswers(final MetricsEndpoint endpoint, final Path stateDirectory)
    {
        String problem = null;
        HttpURLConnection connection = null;
        try
        {
            connection = connection(endpoint.url());
            connection.connect();
        }
        catch (final IOException ex)
        {
            problem = "does not answer (" + ex.getMessage() + ")";
        }
        if (null == problem)
        {
            try
            {
                final int status = connection.getResponseCode();
                problem = 200 == status ? null : "answers HTTP " + status;
            }
            catch (final SocketTimeoutException ex)
            {
                // accepted and not yet answered: running, and busy
            }
            catch (final IOException ex)
            {
                problem = "does not answer (" + ex.getMessage() + ")";
            }
            finally
            {
                connection.disconnect();
            }
        }
        if (null != problem)
        {
            throw new IllegalStateException(endpoint.label() + " at " + endpoint.url() + " " + problem + ": if it " +
                "has stopped, start it again with --metrics, or remove its record " +
                endpoint.file(stateDirectory));
        }
    }

    /**
     * GET a URL.
     *
     * @param url  the URL.
     * @param body filled with the response body.
     * @return the HTTP status.
     * @throws IOException if nothing answers in 5 s.
     */
    static int get(final String url, final StringBuilder body) throws IOException
    {
        final HttpURLConnection connection = connection(url);
        try
        {
            final int status = connection.getResponseCode();
            try (InputStream in = status < 400 ? connection.getInputStream() : connection.getErrorStream())
            {
                if (null != in)
                {
                    body.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                }
            }
            return status;
        }
        finally
        {
            connection.disconnect();
        }
    }

    private static HttpURLConnection connection(final String url) throws IOException
    {
        final HttpURLConnection connection = (HttpURLConnection)URI.create(url).toURL().openConnection();
        connection.setConnectTimeout(ANSWER_TIMEOUT_MS);
        connection.setReadTimeout(ANSWER_TIMEOUT_MS);
        return connection;
    }

    private static void awaitScraping(final Process process, final String url, final int targets, final Path log)
        throws IOException
    {
        final long deadlineNs = System.nanoTime() + READY_TIMEOUT_NS;
        final Set<String> scraped = new HashSet<>();
        String notServing = "not serving yet";
        CharSequence lastTargets = "";
        while (System.nanoTime() - deadlineNs < 0)
        {
            if (!process.isAlive())
            {
                throw new IOException("prometheus stopped at once (exit " + process.exitValue() + "): " +
                    lastLine(log));
            }
            final StringBuilder body = new StringBuilder();
            try
            {
                if (200 == get(url + "/api/v1/targets?state=active", body))
                {
                    final Matcher target = SCRAPED_TARGET.matcher(body);
                    while (target.find())
                    {
                        scraped.add(target.group(1));
                    }
                    if (scraped.size() >= targets)
                    {
                        return;
                    }
                    notServing = null;
                    lastTargets = body;
                }
            }
            catch (final IOException ex)
            {
                notServing = "not serving yet (" + ex.getMessage() + ")";
            }
            try
            {
                process.waitFor(POLL_MS, TimeUnit.MILLISECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for prometheus", ex);
            }
        }
        final String state = null != notServing ? notServing :
            scraped.size() + " of " + targets + " targets scraped" + unscraped(lastTargets, scraped);
        throw new IOException("prometheus at " + url + " did not scrape every daemon within 30 s (" + state +
            "); its log: " + log);
    }

    /**
     * The targets of Prometheus's list not yet scraped, each with its health, its last scrape's duration and the
     * error of that scrape, for the message of a monitor that gave up waiting.
     *
     * @param targetsJson the answer of {@code /api/v1/targets}.
     * @param scraped     the scrape URLs of the targets scraped.
     * @return {@code "; not yet: URL (HEALTH, last scrape SECONDS s: ERROR), ..."}, or empty if none is missing.
     */
    static String unscraped(final CharSequence targetsJson, final Set<String> scraped)
    {
        final StringBuilder text = new StringBuilder();
        final Matcher target = TARGET.matcher(targetsJson);
        while (target.find())
        {
            if (!scraped.contains(target.group(1)))
            {
                final String error = target.group(2).replace("\\\"", "\"");
                text.append(text.isEmpty() ? "; not yet: " : ", ").append(target.group(1)).append(" (")
                    .append(target.group(4)).append(", last scrape ").append(target.group(3)).append(" s")
                    .append(error.isEmpty() ? "" : ": " + error).append(')');
            }
        }
        return text.toString();
    }

    private static String lastLine(final Path log) throws IOException
    {
        final List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
        return lines.isEmpty() ? "no output" : lines.get(lines.size() - 1);
    }

    static void removeRecursively(final Path directory) throws IOException
    {
        if (!Files.exists(directory))
        {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory))
        {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList())
            {
                Files.delete(path);
            }
        }
    }
}
