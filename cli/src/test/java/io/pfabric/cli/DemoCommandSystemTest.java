package io.pfabric.cli;

import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code pfabric demo --format csv} prints one row per scheme and bin, and the virtual-time fallback runs.
 */
@Timeout(300)
class DemoCommandSystemTest
{
    @TempDir
    Path out;

    private static String run(final String... args)
    {
        final PrintStream original = System.out;
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        try (PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8))
        {
            System.setOut(capture);
            assertEquals(0, new CommandLine(new DemoCommand()).execute(args), "exit status");
        }
        finally
        {
            System.setOut(original);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    @Test
    @RequiresNetns
    void theCsvHasEverySchemeAndBin()
    {
        final List<String> lines = Arrays.asList(
            run("--flows", "40", "--format", "csv", "--out", out.toString()).strip().split("\n"));

        assertEquals("scheme,bin,count,mean,p99", lines.get(0));
        assertEquals(1 + 4 * 4, lines.size(), String.join("\n", lines));
        int row = 1;
        for (final String scheme : List.of("pfabric", "pfabric-sim", "tcp", "ideal"))
        {
            for (final String bin : List.of("small", "medium", "large", "all"))
            {
                final String[] fields = lines.get(row++).split(",");
                assertEquals(scheme, fields[0]);
                assertEquals(bin, fields[1]);
                if ("all".equals(bin))
                {
                    assertEquals("40", fields[2], "every flow completed and counted");
                    assertTrue(Double.parseDouble(fields[3]) >= 1.0, "normalized FCT is at least 1");
                }
            }
        }
        assertTrue(Files.isRegularFile(out.resolve("README.md")));
        assertTrue(Files.isRegularFile(out.resolve("fct-vs-load.png")));
    }

    @Test
    void theVirtualTimeDemoRunsWithoutAFabric()
    {
        final String text = run("--virtual");
        assertTrue(text.contains("short-7"), text);
        assertTrue(text.contains("droptail buffer 225,000 B"), text);
    }
}
