package io.pfabric.cli;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Every file a command of README.md reads is in the repository, or the README makes it first (a redirection, a
 * capture's {@code -w}, or {@code testbed up} for the testbed's topology); and the README points at no file of
 * the repository that is not there.
 */
class ReadmeFilesTest
{
    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern READ = Pattern.compile(
        "(?:(?<![\\w-])(?:--topology|--key-file|--custom|-r|--file|--trace)[ =]|lua_script:)(\\S+)");
    private static final Pattern MADE = Pattern.compile("(?:>|-w)\\s*(\\S+)");
    private static final Pattern MENTIONED = Pattern.compile("`((?:[A-Za-z0-9_.-]+/)+[A-Za-z0-9_.-]+\\.[a-z]+)`");

    @Test
    void everyFileTheExamplesReadIsThereOrMadeFirst() throws Exception
    {
        final String readme = Files.readString(REPOSITORY.resolve("README.md"), StandardCharsets.UTF_8);
        final Map<String, Integer> madeAt = new HashMap<>(Map.of(".pfabric/testbed/topology.yaml",
            readme.indexOf("./pfabric testbed up")));
        final Matcher making = MADE.matcher(readme);
        while (making.find())
        {
            madeAt.putIfAbsent(file(making.group(1)), making.start());
        }
        final List<String> missing = new ArrayList<>();
        final Matcher read = READ.matcher(readme);
        while (read.find())
        {
            final String file = file(read.group(1));
            final Integer made = madeAt.get(file);
            if (!Files.exists(REPOSITORY.resolve(file)) && (null == made || made < 0 || made > read.start()))
            {
                missing.add(file);
            }
        }
        assertEquals(List.of(), missing, "files read before anything makes them");
    }

    private static String file(final String word)
    {
        return word.replace("`", "").replaceAll("[.,;:)]+$", "");
    }

    @Test
    void everyFileOfTheRepositoryTheReadmeNamesIsThere() throws Exception
    {
        final String readme = Files.readString(REPOSITORY.resolve("README.md"), StandardCharsets.UTF_8);
        final Matcher mentioned = MENTIONED.matcher(readme);
        final List<String> missing = new ArrayList<>();
        int named = 0;
        while (mentioned.find())
        {
            final String file = mentioned.group(1);
            if (file.startsWith(".pfabric/"))
            {
                continue;
            }
            named++;
            if (!Files.exists(REPOSITORY.resolve(file)))
            {
                missing.add(file);
            }
        }
        assertFalse(0 == named, "the README names files of the repository");
        assertEquals(List.of(), missing);
    }
}
