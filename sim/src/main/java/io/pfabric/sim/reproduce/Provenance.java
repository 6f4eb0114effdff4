package io.pfabric.sim.reproduce;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Where a reproduction ran: the commit of the sources, the JDK, the machine and its load.
 */
public final class Provenance
{
    private Provenance()
    {
    }

    /**
     * The commit of a git checkout, with {@code +dirty} if tracked files differ from it.
     *
     * @param home the checkout.
     * @return such as {@code e28a5fa...}, or {@code unknown} outside git.
     */
    public static String commit(final Path home)
    {
        final String head = git(home, "rev-parse", "HEAD");
        if (null == head || head.isBlank())
        {
            return "unknown";
        }
        final String changed = git(home, "status", "--porcelain", "--untracked-files=no");
        return head.strip() + (null == changed || changed.isBlank() ? "" : "+dirty");
    }

    /**
     * The JDK running this.
     *
     * @return vendor and runtime version.
     */
    public static String jdk()
    {
        return System.getProperty("java.vm.vendor", "?") + " " + System.getProperty("java.runtime.version", "?");
    }

    /**
     * The machine: host name, cores, CPU model and operating system.
     *
     * @return one line.
     */
    public static String machine()
    {
        String host;
        try
        {
            host = InetAddress.getLocalHost().getHostName();
        }
        catch (final IOException ex)
        {
            host = "?";
        }
        String cpu = "?";
        try
        {
            for (final String line : Files.readAllLines(Path.of("/proc/cpuinfo"), StandardCharsets.UTF_8))
            {
                if (line.startsWith("model name"))
                {
                    cpu = line.substring(line.indexOf(':') + 1).strip();
                    break;
                }
            }
        }
        catch (final IOException ex)
        {
            cpu = "?";
        }
        return String.format(Locale.ROOT, "%s, %d cores (%s), %s %s %s", host,
            Runtime.getRuntime().availableProcessors(), cpu, System.getProperty("os.name"),
            System.getProperty("os.version"), System.getProperty("os.arch"));
    }

    /**
     * The load average now.
     *
     * @return the 1, 5 and 15 minute averages, or {@code ?}.
     */
    public static String loadAverage()
    {
        try
        {
            final String[] fields = Files.readString(Path.of("/proc/loadavg"), StandardCharsets.UTF_8).split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2];
        }
        catch (final IOException | ArrayIndexOutOfBoundsException ex)
        {
            return "?";
        }
    }

    private static String git(final Path home, final String... args)
    {
        final String[] command = new String[args.length + 3];
        command[0] = "git";
        command[1] = "-C";
        command[2] = home.toString();
        System.arraycopy(args, 0, command, 3, args.length);
        try
        {
            final Process process = new ProcessBuilder(command).redirectErrorStream(false)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(30, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
                return null;
            }
            return 0 == process.exitValue() ? out : null;
        }
        catch (final IOException ex)
        {
            return null;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
