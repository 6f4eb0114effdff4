package io.pfabric.experiment;

import io.pfabric.common.os.Commands;
import io.pfabric.common.topology.Rates;
import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.testbed.FabricRunner;
import io.pfabric.testbed.PfabricJvm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Fabrics built by Mininet: {@code testbed/mininet/fabric.py} builds the topology with Mininet's own classes and
 * {@code PfabricSwitch} (one switchd process per switch), attaches each Mininet host's network namespace under a
 * name for {@code ip netns}, prints {@code READY} and holds the network until its standard input closes.
 */
final class MininetTestbed implements EmulatedFabric.Testbed
{
    private static final long READY_TIMEOUT_SEC = 180;
    private static final long STOP_TIMEOUT_SEC = 60;
    private static final String PYTHON = "/usr/bin/python3";

    private final String topologySpec;
    private final long rateBitsPerSec;
    private final String prefix;
    private final Path logDirectory;

    /**
     * A testbed.
     *
     * @param topologySpec   {@code star:N}, {@code leafspine:LxHxS} or {@code fattree:K}.
     * @param rateBitsPerSec every link's rate.
     * @param prefix         of the attached namespace names.
     * @param logDirectory   where Mininet's and the switches' output goes.
     */
    MininetTestbed(final String topologySpec, final long rateBitsPerSec, final String prefix, final Path logDirectory)
    {
        this.topologySpec = topologySpec;
        this.rateBitsPerSec = rateBitsPerSec;
        this.prefix = prefix;
        this.logDirectory = logDirectory;
    }

    /**
     * Check that Mininet and the driver are here.
     *
     * @throws IllegalStateException naming what is missing.
     */
    static void requireMininet()
    {
        if (!Files.isExecutable(Path.of(PYTHON)) || !Files.isExecutable(Path.of("/usr/bin/mn")))
        {
            throw new IllegalStateException("--testbed mininet needs Mininet and " + PYTHON +
                " (Debian: apt-get install mininet)");
        }
        if (!Files.isRegularFile(driver()))
        {
            throw new IllegalStateException("no Mininet driver at " + driver() + " (run from the project)");
        }
    }

    private static Path driver()
    {
        return Path.of(System.getProperty("pfabric.home", "."), "testbed", "mininet", "fabric.py")
            .toAbsolutePath().normalize();
    }

    /**
     * The command that runs this very program in another JVM, for the switches Mininet starts: the same java, JVM
     * flags and class path.
     *
     * @return shell words.
     */
    static String thisJvmCommand()
    {
        final StringBuilder line = new StringBuilder();
        for (final String word : PfabricJvm.command())
        {
            line.append(line.isEmpty() ? "" : " ").append("'").append(word.replace("'", "'\\''")).append("'");
        }
        return line.toString();
    }

    /**
     * {@inheritDoc}
     */
    public EmulatedFabric up(final DisciplineKind discipline) throws IOException
    {
        requireMininet();
        Files.createDirectories(logDirectory);
        final Path log = logDirectory.resolve("mininet-" + discipline.cliName() + ".log");
        final ProcessBuilder builder = new ProcessBuilder(PYTHON, driver().toString(),
            "--topo", topologySpec, "--rate", Rates.format(rateBitsPerSec), "--discipline", discipline.cliName(),
            "--buffer", Long.toString(discipline.defaultCapacityLength()), "--netns-prefix", prefix,
            "--run-dir", logDirectory.resolve("mininet-" + discipline.cliName()).toString());
        builder.environment().put("PFABRIC_CMD", thisJvmCommand());
        builder.redirectError(log.toFile());
        final Process process = builder.start();
        final BufferedReader out =
            new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        final CompletableFuture<Boolean> ready = CompletableFuture.supplyAsync(() ->
        {
            try
            {
                String line;
                while (null != (line = out.readLine()))
                {
                    if ("READY".equals(line.trim()))
                    {
                        return true;
                    }
                }
                return false;
            }
            catch (final IOException ex)
            {
                return false;
            }
        });
        try
        {
            if (!ready.get(READY_TIMEOUT_SEC, TimeUnit.SECONDS))
            {
                throw new IOException("Mininet did not build the fabric: " + tail(log));
            }
        }
        catch (final TimeoutException | ExecutionException ex)
        {
            stop(process);
            throw new IOException("Mininet did not build the fabric in " + READY_TIMEOUT_SEC + " s: " + tail(log), ex);
        }
        catch (final InterruptedException ex)
        {
            stop(process);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", ex);
        }
        catch (final IOException ex)
        {
            stop(process);
            throw ex;
        }
        return new EmulatedFabric()
        {
            public String namespace(final String host)
            {
                return prefix + "-" + host;
            }

            public FabricRunner switches()
            {
                return null;
            }

            public void close() throws IOException
            {
                final int status = stop(process);
                if (0 != status)
                {
                    throw new IOException(String.format(Locale.ROOT, "Mininet exited with status %d: %s", status,
                        tail(log)));
                }
            }
        };
    }

    private int stop(final Process process) throws IOException
    {
        try
        {
            process.getOutputStream().close();
            if (!process.waitFor(STOP_TIMEOUT_SEC, TimeUnit.SECONDS))
            {
                process.destroy();
                if (!process.waitFor(STOP_TIMEOUT_SEC, TimeUnit.SECONDS))
                {
                    process.destroyForcibly();
                }
                Commands.run("mn", "-c");
                return -1;
            }
            return process.exitValue();
        }
        catch (final InterruptedException ex)
        {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while stopping Mininet", ex);
        }
    }

    private static String tail(final Path log)
    {
        try
        {
            final List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size())) + " (log: " + log +
                ")";
        }
        catch (final IOException ex)
        {
            return "(no log at " + log + ")";
        }
    }
}
