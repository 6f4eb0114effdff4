package io.pfabric.cli.testbed;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * How a test runs {@code pfabric} in a child process without the launcher (which would rebuild inside the build):
 * this JVM's java with the launcher's flags and this JVM's class path, then {@code PfabricCommand}.
 */
public final class PfabricJava
{
    static final String MAIN_CLASS = "io.pfabric.cli.PfabricCommand";
    private static final Pattern PLAIN_WORD = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

    private PfabricJava()
    {
    }

    /**
     * The command prefix that runs {@code pfabric}: what {@code /opt/pfabric/pfabric} or {@code ./pfabric} stands for.
     *
     * @return java, its flags, the class path and the main class.
     */
    public static List<String> command()
    {
        final List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.add("--enable-native-access=ALL-UNNAMED");
        for (final String opened : List.of("java.base/jdk.internal.misc", "java.base/java.util.zip",
            "java.base/java.nio", "java.base/sun.nio.ch"))
        {
            command.add("--add-opens");
            command.add(opened + "=ALL-UNNAMED");
        }
        if (Runtime.version().feature() >= 23)
        {
            command.add("--sun-misc-unsafe-memory-access=allow");
        }
        command.add("-cp");
        command.add(classPath());
        command.add(MAIN_CLASS);
        return command;
    }

    /**
     * {@link #command()} as shell words, for {@code PFABRIC_CMD} or a unit file's command line.
     *
     * @return the words, quoted where needed.
     */
    static String shellWords()
    {
        final StringBuilder words = new StringBuilder();
        for (final String word : command())
        {
            if (!words.isEmpty())
            {
                words.append(' ');
            }
            words.append(PLAIN_WORD.matcher(word).matches() ? word : "'" + word.replace("'", "'\\''") + "'");
        }
        return words.toString();
    }

    private static String classPath()
    {
        final String surefire = System.getProperty("surefire.test.class.path");
        final String path = null != surefire && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
        final StringBuilder absolute = new StringBuilder();
        for (final String entry : path.split(File.pathSeparator))
        {
            if (!entry.isBlank())
            {
                if (!absolute.isEmpty())
                {
                    absolute.append(File.pathSeparator);
                }
                absolute.append(Paths.get(entry).toAbsolutePath());
            }
        }
        return absolute.toString();
    }

    /**
     * The repository's root: the nearest directory above the working directory that holds the launcher.
     *
     * @return the root.
     */
    static Path repository()
    {
        Path directory = Paths.get("").toAbsolutePath();
        while (null != directory)
        {
            if (Files.isRegularFile(directory.resolve("pfabric")) && Files.isDirectory(directory.resolve("testbed")))
            {
                return directory;
            }
            directory = directory.getParent();
        }
        throw new IllegalStateException("no pfabric repository above " + Paths.get("").toAbsolutePath());
    }

    /**
     * Stop a process the way systemd and Mininet do: SIGTERM, then SIGKILL (with its children) if it does not exit.
     *
     * @param process       to stop.
     * @param gracePeriodMs how long to wait after SIGTERM.
     * @return its exit status, or -1 if it had to be killed.
     * @throws InterruptedException if interrupted while waiting.
     */
    public static int terminate(final Process process, final long gracePeriodMs) throws InterruptedException
    {
        process.destroy();
        if (process.waitFor(gracePeriodMs, TimeUnit.MILLISECONDS))
        {
            return process.exitValue();
        }
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
        return -1;
    }

    /**
     * A command run with SIGINT at its default action, whatever this JVM was started with: a background job of a
     * non-interactive shell starts with SIGINT ignored, every process below inherits that, and a JVM started so
     * installs no handler for it, so a test's Ctrl-C would go unseen. {@code env} executes the command in its own
     * process, so the process's id is the command's.
     *
     * @param command the command and its arguments.
     * @return a new, modifiable list: {@code env --default-signal=INT} and the command.
     */
    public static List<String> interruptible(final List<String> command)
    {
        final List<String> interruptible = new ArrayList<>(List.of("env", "--default-signal=INT"));
        interruptible.addAll(command);
        return interruptible;
    }

    /**
     * The {@code pfabric} processes a test started, each with its output in a log file; {@link #stopAll()} after
     * each test stops them with {@link #terminate}.
     */
    public static final class Children
    {
        private final List<Process> processes = new ArrayList<>();

        /**
         * Start {@code pfabric} with arguments.
         *
         * @param directory the working directory.
         * @param log       gets standard output and error.
         * @param arguments after the command.
         * @return the process.
         * @throws IOException if it cannot be started.
         */
        public Process start(final Path directory, final Path log, final List<String> arguments) throws IOException
        {
            final List<String> command = interruptible(command());
            command.addAll(arguments);
            final Process process = new ProcessBuilder(command).directory(directory.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            processes.add(process);
            return process;
        }

        /**
         * Stop every process started, SIGTERM first.
         *
         * @throws InterruptedException if interrupted while waiting.
         */
        public void stopAll() throws InterruptedException
        {
            for (final Process process : processes)
            {
                terminate(process, 10_000);
            }
        }
    }

    /**
     * A file's text, or a note that it cannot be read, for assertion messages.
     *
     * @param file to read.
     * @return its text.
     */
    public static String text(final Path file)
    {
        try
        {
            return Files.readString(file, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            return "(cannot read " + file + ": " + ex.getMessage() + ")";
        }
    }
}
