package io.pfabric.cli.testbed;

import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The README's examples of the namespace testbed, of hostd with send and recv, and of Mininet, taken from README.md's
 * code blocks at test time and run exactly as written, in order, each block with a time bound, as a user pastes them
 * into a shell in a fresh clone: {@code ./pfabric} is the launcher's stand-in (this JVM's java and class path, with
 * the clone as pfabric's home), {@code testbed/} the repository's. The whole run is in a mount, network and PID
 * namespace of its own, with a /run/netns and a /tmp of its own (the repository mounted back in place, for a clone
 * that lives under /tmp), so that it sees no other testbed, socket or process and leaves nothing behind: when it ends, every process it started ends with it. A failed run leaves the
 * clone, with each block's output and the daemons' logs, under {@code cli/target/readme-*}.
 */
@Timeout(900)
@RequiresNetns
class ReadmeExamplesSystemTest
{
    private static final Pattern SHELL_BLOCK = Pattern.compile("```sh\\n(.*?)```", Pattern.DOTALL);
    private static final Path MN = Paths.get("/usr/bin/mn");

    private record Example(String name, String marker, long boundSec, String expected)
    {
    }

    private static final List<Example> EXAMPLES = List.of(
        new Example("testbed", "./pfabric testbed exec h1 -- ping", 180, "3 packets transmitted, 3 received"),
        new Example("hostd", "./pfabric recv --host h2", 240, "sent 1,000,000 bytes to h2"),
        new Example("mininet", "mn --custom", 300, "Results: 0% dropped"));

    private static List<String> blocks(final Path readme) throws IOException
    {
        final List<String> blocks = new ArrayList<>();
        final Matcher matcher = SHELL_BLOCK.matcher(Files.readString(readme, StandardCharsets.UTF_8));
        while (matcher.find())
        {
            blocks.add(matcher.group(1));
        }
        return blocks;
    }

    private static String block(final List<String> blocks, final Example example)
    {
        final List<String> matching = blocks.stream().filter(block -> block.contains(example.marker())).toList();
        assertEquals(1, matching.size(), () -> "one README block holds '" + example.marker() + "': " + matching);
        return matching.get(0);
    }

    @Test
    void theReadmeExamplesRunAsWritten() throws Exception
    {
        final Path repository = PfabricJava.repository();
        final List<String> blocks = blocks(repository.resolve("README.md"));
        final Path clone = Files.createDirectories(repository.resolve("cli/target/readme-" +
            Integer.toHexString(ThreadLocalRandom.current().nextInt())));
        boolean passed = false;
        try
        {
            Files.createSymbolicLink(clone.resolve("testbed"), repository.resolve("testbed"));
            final List<String> java = new ArrayList<>(PfabricJava.command());
            java.add(java.indexOf("-cp"), "-Dpfabric.home=" + clone);
            executable(clone.resolve("pfabric"), "#!/bin/bash\nexec " + words(java) + " \"$@\"\n");

            final StringBuilder driver = new StringBuilder("""
                mkdir -p /run/netns && mount -t tmpfs tmpfs /run/netns || exit 99
                mount -t tmpfs tmpfs /mnt && mkdir /mnt/repository && mount --bind "$2" /mnt/repository || exit 99
                mount -t tmpfs tmpfs /tmp && mkdir -p "$2" && mount --bind /mnt/repository "$2" || exit 99
                ip link set lo up
                cd "$1"
                """);
            final boolean mininet = Files.isExecutable(MN);
            for (final Example example : EXAMPLES)
            {
                if (!mininet && "mininet".equals(example.name()))
                {
                    continue;
                }
                Files.writeString(clone.resolve(example.name() + ".sh"), block(blocks, example));
                driver.append(String.format("started=$(date +%%s%%N); timeout -k 10 %d bash -e %s.sh > %s.log 2>&1; " +
                    "echo $? > %s.rc; echo $(( ($(date +%%s%%N) - started) / 1000000 )) > %s.ms%n",
                    example.boundSec(), example.name(), example.name(), example.name(), example.name()));
                driver.append(String.format("[ \"$(cat %s.rc)\" = 0 ] || exit 0%n", example.name()));
            }
            Files.writeString(clone.resolve("driver.sh"), driver);

            final long boundSec = EXAMPLES.stream().mapToLong(Example::boundSec).sum() + 60;
            final ProcessBuilder builder = new ProcessBuilder("unshare", "--mount", "--net", "--pid", "--fork", "--mount-proc",
                "--propagation", "private", "bash", clone.resolve("driver.sh").toString(), clone.toString(),
                repository.toString())
                .directory(clone.toFile()).redirectErrorStream(true).redirectOutput(clone.resolve("driver.log")
                    .toFile());
            final Process run = builder.start();
            assertTrue(run.waitFor(boundSec, TimeUnit.SECONDS), "the examples ended within their bounds");
            assertEquals(0, run.exitValue(), () -> "the driver ran; its output:\n" +
                PfabricJava.text(clone.resolve("driver.log")));

            for (final Example example : EXAMPLES)
            {
                if (!mininet && "mininet".equals(example.name()))
                {
                    continue;
                }
                final String output = PfabricJava.text(clone.resolve(example.name() + ".log"));
                final String status = PfabricJava.text(clone.resolve(example.name() + ".rc")).strip();
                assertEquals("0", status, () -> "the README's " + example.name() + " block ran (status 124 is " +
                    "its bound of " + example.boundSec() + " s passing):\n" + block(blocks, example) + "\noutput:\n" +
                    output);
                assertTrue(output.contains(example.expected()), () -> "the " + example.name() + " block printed '" +
                    example.expected() + "':\n" + output);
                System.out.printf("README's %s block: %s ms%n", example.name(),
                    PfabricJava.text(clone.resolve(example.name() + ".ms")).strip());
            }
            passed = true;
            assumeTrue(mininet, "Mininet is not installed (/usr/bin/mn): its block was not run");
        }
        finally
        {
            if (passed)
            {
                removeAll(clone);
            }
        }
    }

    private static void executable(final Path file, final String text) throws IOException
    {
        Files.writeString(file, text, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private static String words(final List<String> command)
    {
        final StringBuilder words = new StringBuilder();
        for (final String word : command)
        {
            words.append(words.isEmpty() ? "" : " ").append("'").append(word.replace("'", "'\\''")).append("'");
        }
        return words.toString();
    }

    private static void removeAll(final Path directory) throws IOException
    {
        if (!Files.exists(directory))
        {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory))
        {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList())
            {
                Files.deleteIfExists(path);
            }
        }
    }
}
