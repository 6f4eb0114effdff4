package io.pfabric.cli.testbed;

import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Mininet with {@code PfabricSwitch}: {@code testbed/mininet/selftest.py} builds {@code leafspine,2,2,2}, checks
 * that Mininet's own pingAll loses nothing through switchd, sends one 1 MB pFabric flow between hosts on different
 * leaves through hostd, stops every daemon with SIGTERM and removes what it made. pfabric runs as this JVM's java
 * with this JVM's class path (PFABRIC_CMD), not through the launcher.
 */
@Timeout(240)
@RequiresNetns
class MininetSystemTest
{
    private static final long DRIVER_TIMEOUT_SECONDS = 180;
    private static final Path MN = Paths.get("/usr/bin/mn");
    private static final Path PYTHON = Paths.get("/usr/bin/python3");

    @Test
    void leafSpinePingsAndCarriesAPfabricFlow(@TempDir final Path directory) throws Exception
    {
        assumeTrue(Files.isExecutable(MN), "Mininet is not installed (/usr/bin/mn); apt-get install mininet");
        assumeTrue(Files.isExecutable(PYTHON), "no /usr/bin/python3 for Mininet");

        final Path driver = PfabricJava.repository().resolve("testbed/mininet/selftest.py");
        final Path log = directory.resolve("selftest.log");
        final ProcessBuilder builder = new ProcessBuilder(PYTHON.toString(), driver.toString(), "leafspine,2,2,2")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
        builder.environment().put("PFABRIC_CMD", PfabricJava.shellWords());
        builder.environment().put("PFABRIC_MN_DIR", Files.createDirectories(directory.resolve("run")).toString());
        final Process selftest = builder.start();
        final boolean finished = selftest.waitFor(DRIVER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (!finished)
        {
            PfabricJava.terminate(selftest, 30_000);
        }
        assertTrue(finished, () -> "selftest.py did not finish in " + DRIVER_TIMEOUT_SECONDS + " s; its output:\n" +
            PfabricJava.text(log));
        assertEquals(0, selftest.exitValue(), () -> "selftest.py failed; its output:\n" + PfabricJava.text(log));
    }
}
