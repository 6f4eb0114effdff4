package io.pfabric.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The launcher's set-up of Debian tools, run as a user would (`./pfabric setup`, which `demo`, `testbed`, `test` and
 * the other commands that run those tools go through first) with {@code ethtool} missing from PATH: as root it
 * installs the missing package with apt-get (a stand-in apt-get that records its calls and installs a stub), and
 * without root it names the package and the command that installs it, and installs nothing. {@code setup --help}
 * and {@code test --help} print the launcher's usage and run neither apt-get nor Maven.
 */
class LauncherToolsTest
{
    private static final Path LAUNCHER = Path.of("..", "pfabric").toAbsolutePath().normalize();
    private static final List<String> PRESENT_TOOLS = List.of("mvn", "ip", "ping", "trafgen", "mn", "tshark", "promtool", "parallel",
        "xdp-loader");
    private static final List<String> SHELL_TOOLS = List.of("dirname", "sed", "head", "tail", "sort", "tr", "mkdir", "cat");

    @TempDir
    Path directory;

    private record Result(int exit, String output)
    {
    }

    private Path bin() throws IOException
    {
        final Path bin = Files.createDirectories(directory.resolve("bin"));
        for (final String tool : SHELL_TOOLS)
        {
            script(bin.resolve(tool), "exec /usr/bin/" + tool + " \"$@\"");
        }
        for (final String tool : PRESENT_TOOLS)
        {
            script(bin.resolve(tool), "parallel".equals(tool) ? "echo 'GNU parallel 20221122'" : "exit 0");
        }
        return bin;
    }

    private static void script(final Path file, final String body) throws IOException
    {
        Files.writeString(file, "#!/bin/bash\n" + body + "\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private Result setup(final Path bin, final int uid) throws Exception
    {
        return launch(bin, uid, "setup");
    }

    private Result launch(final Path bin, final int uid, final String... arguments) throws Exception
    {
        script(bin.resolve("id"), "echo " + uid);
        final List<String> command = new ArrayList<>(List.of("/usr/bin/bash", LAUNCHER.toString()));
        command.addAll(List.of(arguments));
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("PATH", bin.toString());
        builder.environment().remove("JAVA_HOME");
        final Process process = builder.start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the launcher finished");
        return new Result(process.exitValue(), output);
    }

    @Test
    void asRootTheMissingToolIsInstalledWithAptGet() throws Exception
    {
        final Path bin = bin();
        final Path calls = directory.resolve("apt-get.calls");
        script(bin.resolve("apt-get"), "echo \"$*\" >> " + calls + "\n" +
            "if [[ \"$1\" == install ]]; then printf '#!/bin/bash\\nexit 0\\n' > " + bin.resolve("ethtool") +
            "; /usr/bin/chmod +x " + bin.resolve("ethtool") + "; fi");

        final Result result = setup(bin, 0);

        assertEquals(0, result.exit(), result.output());
        assertTrue(result.output().contains("pfabric: installing ethtool"), result.output());
        assertEquals(List.of("update -qq", "install -y -qq ethtool"), Files.readAllLines(calls), result.output());
        assertTrue(result.output().contains("every tool is installed"), result.output());
    }

    @Test
    void withoutRootTheLauncherNamesThePackageAndInstallsNothing() throws Exception
    {
        final Path bin = bin();
        final Path calls = directory.resolve("apt-get.calls");
        script(bin.resolve("apt-get"), "echo \"$*\" >> " + calls);

        final Result result = setup(bin, 1000);

        assertEquals(1, result.exit(), result.output());
        assertTrue(result.output().contains("missing: ethtool; run './pfabric setup' as root to install them, or: " +
            "sudo apt-get install ethtool"), result.output());
        assertFalse(Files.exists(calls), "apt-get was not run");
    }

    @Test
    void asRootAPackageThatDoesNotBringItsToolIsReported() throws Exception
    {
        final Path bin = bin();
        script(bin.resolve("apt-get"), "exit 0");

        final Result result = setup(bin, 0);

        assertEquals(1, result.exit(), result.output());
        assertTrue(result.output().contains("still missing after apt-get install: ethtool"), result.output());
    }

    @Test
    void setupAndTestTakeHelpAsHelpAndRunNothing() throws Exception
    {
        final Path bin = bin();
        final Path calls = directory.resolve("calls");
        for (final String tool : List.of("apt-get", "mvn"))
        {
            script(bin.resolve(tool), "echo \"" + tool + " $*\" >> " + calls);
        }

        for (final String command : List.of("setup", "test"))
        {
            final Result help = launch(bin, 0, command, "--help");
            assertEquals(0, help.exit(), help.output());
            assertTrue(help.output().startsWith("Usage: pfabric " + command), help.output());
        }
        assertFalse(Files.exists(calls), "neither apt-get nor Maven ran");
    }
}
