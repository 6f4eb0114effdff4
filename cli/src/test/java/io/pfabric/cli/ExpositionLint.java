package io.pfabric.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * The findings of Prometheus's own linter on a text exposition: {@code promtool check metrics} where it is installed
 * (the test command installs Debian's {@code prometheus}), else the same rules applied here (a help text on every
 * family, {@code _total} on counters and only on them, snake case, no abbreviated units such as {@code _ns}).
 */
public final class ExpositionLint
{
    private static final Pattern SNAKE_CASE = Pattern.compile("[a-z_:][a-z0-9_:]*");
    private static final Pattern ABBREVIATED_UNIT =
        Pattern.compile(".*_(ns|us|ms|sec|secs|kb|mb|gb|kib|mib|gib|bits|pct)(_total)?$");

    private ExpositionLint()
    {
    }

    /**
     * Which linter ran.
     *
     * @return "promtool" or "built-in rules".
     */
    static String linter()
    {
        return null == promtool() ? "built-in rules" : "promtool";
    }

    /**
     * The linter's findings on a file.
     *
     * @param file the exposition.
     * @return one line per finding, empty when it is clean.
     * @throws IOException          if the file or the linter cannot be read.
     * @throws InterruptedException if interrupted while promtool runs.
     */
    static List<String> findings(final Path file) throws IOException, InterruptedException
    {
        final Path promtool = promtool();
        return null == promtool ? builtIn(Files.readString(file, StandardCharsets.UTF_8)) : promtool(promtool, file);
    }

    /**
     * Fail the test unless the linter finds nothing in the file.
     *
     * @param counters the exposition.
     * @throws IOException          if the file or the linter cannot be read.
     * @throws InterruptedException if interrupted while promtool runs.
     */
    public static void assertClean(final Path counters) throws IOException, InterruptedException
    {
        final List<String> findings = findings(counters);
        org.junit.jupiter.api.Assertions.assertEquals(List.of(), findings, () -> linter() + " on " +
            counters.getFileName() + ":\n" + readQuietly(counters));
    }

    private static String readQuietly(final Path file)
    {
        try
        {
            return Files.readString(file, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            return ex.toString();
        }
    }

    private static Path promtool()
    {
        for (final String directory : System.getenv().getOrDefault("PATH", "").split(":"))
        {
            final Path candidate = Path.of(directory.isEmpty() ? "." : directory, "promtool");
            if (Files.isExecutable(candidate))
            {
                return candidate;
            }
        }
        return null;
    }

    private static List<String> promtool(final Path promtool, final Path file)
        throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder(promtool.toString(), "check", "metrics")
            .redirectInput(file.toFile()).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            throw new IOException("promtool did not finish in 60 s");
        }
        final List<String> findings = new ArrayList<>();
        output.lines().filter(line -> !line.isBlank()).forEach(findings::add);
        if (0 != process.exitValue() && findings.isEmpty())
        {
            findings.add("promtool exited " + process.exitValue());
        }
        return findings;
    }

    static List<String> builtIn(final String exposition)
    {
        final Map<String, String> help = new LinkedHashMap<>();
        final Map<String, String> type = new LinkedHashMap<>();
        for (final String line : exposition.lines().toList())
        {
            final String[] words = line.split(" ", 4);
            if (words.length >= 3 && "#".equals(words[0]) && "HELP".equals(words[1]))
            {
                help.put(words[2], words.length > 3 ? words[3].trim() : "");
            }
            else if (words.length >= 4 && "#".equals(words[0]) && "TYPE".equals(words[1]))
            {
                type.put(words[2], words[3].trim());
            }
        }
        final List<String> findings = new ArrayList<>();
        for (final Map.Entry<String, String> family : type.entrySet())
        {
            final String name = family.getKey();
            if (help.getOrDefault(name, "").isEmpty())
            {
                findings.add(name + " no help text");
            }
            if (!SNAKE_CASE.matcher(name).matches())
            {
                findings.add(name + " metric names should be written in 'snake_case' not 'camelCase'");
            }
            if (ABBREVIATED_UNIT.matcher(name).matches())
            {
                findings.add(name + " metric names should not contain abbreviated units");
            }
            final boolean total = name.endsWith("_total");
            if ("counter".equals(family.getValue()) && !total)
            {
                findings.add(name + " counter metrics should have \"_total\" suffix");
            }
            if (!"counter".equals(family.getValue()) && total)
            {
                findings.add(name + " non-counter metrics should not have \"_total\" suffix");
            }
        }
        return findings;
    }
}
