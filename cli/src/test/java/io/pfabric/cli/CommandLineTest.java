package io.pfabric.cli;

import io.pfabric.common.control.ControlKeys;
import io.pfabric.common.topology.Rates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The command line as a user meets it, in this JVM: errors are one line that names the problem (a missing file,
 * an option out of range) with status 2, and nothing is made before every option is checked; one rule per quantity
 * (a load is above 0 and below 1 for every command); the help says what the commands do; no command is no use.
 */
class CommandLineTest
{
    @TempDir
    Path directory;

    private record Result(int exit, String out, String err)
    {
        String all()
        {
            return out + err;
        }
    }

    private static Result run(final String... arguments)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final PrintStream systemOut = System.out;
        final PrintStream systemErr = System.err;
        final int exit;
        try (PrintStream capturedOut = new PrintStream(out, true, StandardCharsets.UTF_8);
            PrintStream capturedErr = new PrintStream(err, true, StandardCharsets.UTF_8))
        {
            System.setOut(capturedOut);
            System.setErr(capturedErr);
            final CommandLine commandLine = PfabricCommand.commandLine();
            commandLine.setOut(new PrintWriter(capturedOut, true));
            commandLine.setErr(new PrintWriter(capturedErr, true));
            exit = commandLine.execute(arguments);
        }
        finally
        {
            System.setOut(systemOut);
            System.setErr(systemErr);
        }
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static void assertRefused(final Result result, final String line)
    {
        assertEquals(2, result.exit(), result.all());
        assertEquals(line, result.err().strip(), result.all());
    }

    @Test
    void aMissingFileIsNamedAsMissing()
    {
        assertRefused(run("send", "--host", "h1", "--to", "h2", "--file", "/nonexistent/file.bin"),
            "pfabric send: --file /nonexistent/file.bin: no such file");
        final Path trace = directory.resolve("nope.csv");
        assertRefused(run("ideal", "--trace", trace.toString(), "--rate", "1g", "--base-rtt", "20us"),
            "pfabric ideal: " + trace + ": no such file");
    }

    @Test
    void aSendToItselfIsRefusedByName()
    {
        assertRefused(run("send", "--host", "h1", "--to", "h1", "--size", "10KB"),
            "pfabric send: --to h1 is the sending host itself");
    }

    /**
     * A topology file of two hosts on one switch, which a daemon's options can name before they are refused.
     */
    private Path twoHostTopology() throws IOException
    {
        final Path topology = directory.resolve("topology.yaml");
        Files.writeString(topology, """
            hosts:
              - {name: h1, ip: 127.0.85.1, mac: "02:00:7f:55:00:01", switch: s1, port: p1}
              - {name: h2, ip: 127.0.85.2, mac: "02:00:7f:55:00:02", switch: s1, port: p2}
            switches:
              - name: s1
                ports:
                  - {name: p1, interface: pf-cl-p1, rate: 100m, discipline: pfabric}
                  - {name: p2, interface: pf-cl-p2, rate: 100m, discipline: pfabric}
            links: []
            """);
        return topology;
    }

    @Test
    void aLoadIsAboveZeroAndBelowOneForEveryCommand() throws Exception
    {
        final Path topology = twoHostTopology();
        final String rule = " must be above 0 and below 1 (a fraction of the link rate), not 1.0";
        assertRefused(run("trace", "--workload", "websearch", "--hosts", "4", "--rate", "1g", "--load", "1",
            "--flows", "10", "--out", directory.resolve("trace.csv").toString()), "pfabric trace: --load" + rule);
        assertFalse(Files.exists(directory.resolve("trace.csv")));
        assertRefused(run("hostd", "--topology", topology.toString(), "--name", "h1", "--workload", "websearch",
            "--load", "1", "--flows", "10", "--base-rtt", "100us"), "pfabric hostd: --load" + rule);
        assertRefused(run("experiment", "--testbed", "loopback", "--topo", "star:2", "--loads", "0.5,1", "--schemes",
            "pfabric", "--out", directory.resolve("experiment").toString()), "pfabric experiment: --loads" + rule);
        assertFalse(Files.exists(directory.resolve("experiment")));
        assertRefused(run("soak", "--load", "1"), "pfabric soak: --load" + rule);
    }

    @Test
    void theBoundsOfTheMessagesHostdKeepsAreCheckedByName() throws Exception
    {
        final Path topology = twoHostTopology();
        final Path socket = directory.resolve("h1.sock");
        assertRefused(run("hostd", "--topology", topology.toString(), "--name", "h1", "--socket", socket.toString(),
            "--kept-messages", "-1"), "pfabric hostd: --kept-messages must not be negative");
        assertRefused(run("hostd", "--topology", topology.toString(), "--name", "h1", "--socket", socket.toString(),
            "--kept-bytes", "lots"), "pfabric hostd: --kept-bytes: 'lots' is not a size such as 1500, 100KB or 1MiB");
        assertFalse(Files.exists(socket));
    }

    @Test
    void aRateIsCheckedByOneRuleThatNamesTheOption()
    {
        final String trace = directory.resolve("trace.csv").toString();
        assertRefused(run("trace", "--workload", "websearch", "--hosts", "4", "--rate", "0", "--flows", "10", "--out",
            trace), "pfabric trace: --rate must be positive here (0, unpaced, is not a rate a workload or a " +
            "normalized FCT can be computed at)");
        assertRefused(run("ideal", "--trace", trace, "--rate", "fast", "--base-rtt", "20us"),
            "pfabric ideal: --rate: " + badRate("fast"));
        assertRefused(run("experiment", "--testbed", "loopback", "--topo", "star:2", "--rate", "fast", "--out",
            directory.resolve("experiment").toString()), "pfabric experiment: --rate: " + badRate("fast"));
        assertFalse(Files.exists(directory.resolve("experiment")));
    }

    @Test
    void onlySwitchdIsPacedByTheForwardingBenchmark()
    {
        for (final String target : new String[] {"bridge", "ovs", "generator", "foo"})
        {
            assertRefused(run("bench", "forwarding", "--pacer-targets", "switchd," + target),
                "pfabric bench forwarding: --pacer-targets: '" + target + "' cannot be paced: use switchd or " +
                    "switchd-xdp");
        }
    }

    private static String badRate(final String text)
    {
        try
        {
            Rates.parseBitsPerSec(text);
            throw new AssertionError(text + " parsed as a rate");
        }
        catch (final IllegalArgumentException ex)
        {
            return ex.getMessage();
        }
    }

    @Test
    void nothingIsMadeBeforeEveryOptionIsChecked()
    {
        final Path sim = directory.resolve("sim");
        assertRefused(run("sim", "--load=-1", "--out", sim.toString()),
            "pfabric sim: --load must be above 0 and below 1 (a fraction of the link rate), not -1.0");
        assertFalse(Files.exists(sim), "sim made nothing");

        final Path experiment = directory.resolve("experiment");
        final Path workload = directory.resolve("nope.cdf");
        assertRefused(run("experiment", "--testbed", "loopback", "--topo", "star:2", "--workload", workload.toString(),
            "--out", experiment.toString()), "pfabric experiment: --workload: '" + workload + "' is neither a " +
            "bundled workload (websearch, datamining) nor a CDF file");
        assertFalse(Files.exists(experiment), "experiment made nothing");
    }

    @Test
    void aTopologyFileIsTakenWhereItCanBeAndNamedWhereItCannot() throws Exception
    {
        final Path fabric = topologyFile("fabric.yaml", "100m", "100m");
        final Path mixed = topologyFile("mixed.yaml", "100m", "1g");
        final Path unpaced = topologyFile("unpaced.yaml", "0", "0");
        final Path out = directory.resolve("x");
        final Path workload = directory.resolve("nope.cdf");
        assertRefused(run("experiment", "--testbed", "netns", "--topo", fabric.toString(), "--workload",
            workload.toString(), "--out", out.toString()), "pfabric experiment: --workload: '" + workload + "' is " +
            "neither a bundled workload (websearch, datamining) nor a CDF file");
        assertRefused(run("experiment", "--testbed", "netns", "--topo", mixed.toString(), "--out", out.toString()),
            "pfabric experiment: --topo " + mixed + ": port s1:p1 runs at 100m and port s1:p2 at 1g; this command " +
                "runs every link at one rate");
        assertRefused(run("experiment", "--topo", fabric.toString(), "--rate", "1g", "--out", out.toString()),
            "pfabric experiment: --rate is for a shape; the topology file " + fabric + " gives every port's own");
        assertRefused(run("experiment", "--testbed", "loopback", "--topo", fabric.toString(), "--out",
            out.toString()), "pfabric experiment: --testbed loopback builds a star:N itself, not the topology file " +
            fabric + "; run a topology file on --testbed netns");
        assertRefused(run("experiment", "--testbed", "mininet", "--topo", fabric.toString(), "--out",
            out.toString()), "pfabric experiment: --testbed mininet builds a star:N, leafspine:LxHxS or fattree:K " +
            "itself, not the topology file " + fabric + "; run a topology file on --testbed netns");
        assertRefused(run("experiment", "classes", "--app", "websearch:0.5", "--topo", unpaced.toString(),
            "--out", out.toString()),
            "pfabric experiment classes: --topo " + unpaced + ": port s1:p1 has no rate; this command runs every " +
            "link at one rate, so every port of the file needs it");
        assertRefused(run("soak", "--topo", mixed.toString(), "--out", out.toString()),
            "pfabric soak: --topo " + mixed + ": port s1:p1 runs at 100m and port s1:p2 at 1g; this command runs " +
                "every link at one rate");
        assertRefused(run("soak", "--topo", fabric.toString(), "--rate", "1g", "--out", out.toString()),
            "pfabric soak: --rate is for a shape; the topology file " + fabric + " gives every port's own");
        assertRefused(run("sim", "--topo", fabric.toString(), "--out", out.toString()),
            "pfabric sim: --topo " + fabric + ": the simulator runs star:N, leafspine:LxHxS and fattree:K fabrics " +
                "only (one rate and delay for host links, one for switch links), not a topology file; give the " +
                "file's shape");
        assertFalse(Files.exists(out), "nothing made");
        assertRefused(run("testbed", "up", "--topo", directory.resolve("fabric.yaml").toString(), "--rate", "1g"),
            "pfabric testbed up: --rate and --discipline are for a shape; the topology file " +
                directory.resolve("fabric.yaml") + " gives every port's own");
        for (final String command : List.of("experiment", "soak"))
        {
            final String help = run(command, "--help").out();
            assertTrue(help.contains("--topo=SPEC|FILE"), help);
        }
    }

    private Path topologyFile(final String name, final String rate1, final String rate2) throws IOException
    {
        return Files.writeString(directory.resolve(name), """
            hosts:
              - {name: h1, ip: 10.0.0.1, mac: "02:00:0a:00:00:01", switch: s1, port: p1}
              - {name: h2, ip: 10.0.0.2, mac: "02:00:0a:00:00:02", switch: s1, port: p2}
            switches:
              - name: s1
                ports:
                  - {name: p1, interface: s1-p1, rate: RATE1}
                  - {name: p2, interface: s1-p2, rate: RATE2}
            """.replace("RATE1", rate1).replace("RATE2", rate2));
    }

    @Test
    void theHelpSaysWhatTheCommandsDo()
    {
        final String experiment = run("experiment", "--help").out();
        assertTrue(experiment.contains("--testbed=netns|mininet|loopback"), experiment);
        assertTrue(experiment.contains("--loads=L[,L...] "), experiment);
        assertFalse(experiment.contains("[,L[,L...]...]"), experiment);
        assertTrue(experiment.contains(" --out=DIR ") && !experiment.contains("[--out=DIR]"),
            () -> "--out is required and shown so:\n" + experiment);
        final String classes = run("experiment", "classes", "--app", "websearch:0.5", "--out",
            directory.resolve("x").toString(), "--rate", "fast").err();
        assertTrue(classes.startsWith("pfabric experiment classes: --rate: "), "experiment's own --out is not " +
            "asked of experiment classes: " + classes);
        final Result withoutOut = run("experiment", "--testbed", "loopback", "--topo", "star:2");
        assertEquals(2, withoutOut.exit(), withoutOut.all());
        assertTrue(withoutOut.err().startsWith("Missing required option: '--out=DIR'"), withoutOut.all());

        final String sweep = run("sim", "sweep", "--help").out();
        assertFalse(sweep.contains("[,L[,L...]...]"), sweep);
        assertTrue(run("demo", "--help").out().contains("about 90 s"), "the demo says how long it takes, as the " +
            "README does");
    }

    @Test
    void noCommandPrintsTheUsageAndFails()
    {
        final Result nothing = run();
        assertEquals(2, nothing.exit(), nothing.all());
        assertTrue(nothing.err().startsWith("Usage: pfabric"), nothing.all());
    }

    @Test
    void theControllersKeyRecipeMakesAKeyItAccepts() throws Exception
    {
        final String help = run("controllerd", "--help").out().replaceAll("\\s+", " ");
        final Matcher recipe = Pattern.compile("\\((?:umask 077; )?head -c 32 /dev/urandom \\| xxd -p -c 64 > " +
            "control\\.key\\)").matcher(help);
        assertTrue(recipe.find(), help);
        final Process shell = new ProcessBuilder("bash", "-c", "umask 022; " + recipe.group())
            .directory(directory.toFile()).redirectErrorStream(true).start();
        assertTrue(shell.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, shell.exitValue(), new String(shell.getInputStream().readAllBytes(), StandardCharsets.UTF_8));

        assertTrue(ControlKeys.read(directory.resolve("control.key")).length > 0, "controllerd reads the key");
    }

    @Test
    void everyCommandsHelpRunsNothing()
    {
        for (final String command : List.of("testbed", "experiment", "sim", "hostd", "send", "recv", "demo"))
        {
            final Result help = run(command, "--help");
            assertEquals(0, help.exit(), help.all());
            assertTrue(help.out().startsWith("Usage: pfabric " + command) || help.out().contains("Usage: pfabric " +
                command), help.all());
        }
    }
}
