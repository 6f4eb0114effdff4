package io.pfabric.cli.testbed;

import io.pfabric.common.os.Commands;
import io.pfabric.common.topology.HostSpec;
import io.pfabric.common.topology.LinkSpec;
import io.pfabric.common.topology.PortSpec;
import io.pfabric.common.topology.SwitchSpec;
import io.pfabric.common.topology.Topology;
import io.pfabric.common.topology.TopologyParser;
import io.pfabric.testsupport.Await;
import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The systemd units of {@code testbed/deploy} run the way systemd would run them, on the deploy examples' topologies
 * made real in network namespaces ({@code pfd<pid>-<name>}, one per switch server and per host server, veth pairs for
 * the cables, a veth with the example's addresses for the network between two switch servers): each unit's
 * {@code ExecStart} is read from the unit file, with {@code %i} the instance, {@code /opt/pfabric/pfabric} replaced by
 * this JVM's java and class path, and {@code /etc/pfabric}, {@code /run} and {@code /var/lib} moved into a temporary
 * directory; it runs under {@code setpriv} with the unit's capability bounding set and ambient capabilities (as root:
 * the unit's {@code User=} is not applied). switchd must forward ping between two hosts and report it through
 * {@code switchctl}, hostd must serve its application socket and carry a message (with extra options from
 * {@code PFABRIC_ARGS} in one example, the unit's defaults in the other), and every daemon must exit cleanly on
 * SIGTERM, the unit's {@code KillSignal} (status 0 or one of its {@code SuccessExitStatus}). Namespaces named like
 * these whose test process is gone (a killed run) are deleted first.
 */
@Timeout(240)
class DeployUnitsSystemTest
{
    private static final String INSTALLED_LAUNCHER = "/opt/pfabric/pfabric";
    private static final long READY_TIMEOUT_MS = 60_000;
    private static final long STOP_TIMEOUT_MS = 20_000;
    private static final long COMMAND_TIMEOUT_SECONDS = 60;
    private static final String[] SYSTEM_DIRECTORIES = { "/etc/pfabric/", "/run/", "/var/lib/" };

    private final String prefix = "pfd" + ProcessHandle.current().pid() + "-";
    private final List<String> namespaces = new ArrayList<>();
    private final List<Daemon> daemons = new ArrayList<>();
    private final Path deploy = PfabricJava.repository().resolve("testbed/deploy");
    private Path root;

    private record Daemon(String name, Process process, Path log, List<String> command, List<Integer> cleanExits)
    {
        String output()
        {
            return PfabricJava.text(log);
        }

        List<String> arguments()
        {
            return command.subList(command.indexOf(PfabricJava.MAIN_CLASS) + 1, command.size());
        }
    }

    private record Result(int exit, String output)
    {
    }

    @AfterEach
    void tearDown() throws Exception
    {
        try
        {
            for (final Daemon daemon : daemons)
            {
                if (daemon.process().isAlive())
                {
                    PfabricJava.terminate(daemon.process(), STOP_TIMEOUT_MS);
                }
            }
        }
        finally
        {
            Commands.deleteNamespaces(namespaces);
        }
    }

    @Test
    @RequiresNetns
    void rawNicsExampleForwardsAndServesHosts(@TempDir final Path directory) throws Exception
    {
        assumeSetpriv();
        final Topology topology = install(directory, "raw-nics");
        buildNamespaces(topology);
        final HostSpec h1 = topology.host("h1");
        final HostSpec h2 = topology.host("h2");

        final Daemon s1 = startUnit("pfabric-switchd@.service", "s1", Map.of());
        awaitLine(s1, "forwarding on 4 ports");
        ping(h1, h2);
        final String ports = pfabric(namespace("s1"), "switchctl", "ports");
        assertTrue(sentOn(ports, h2.portName()) >= 3, () -> "switchctl shows no pings sent to h2:\n" + ports);
        assertTrue(sentOn(ports, h1.portName()) >= 3, () -> "switchctl shows no replies sent to h1:\n" + ports);

        sendMessage("h1", "h2", Map.of("PFABRIC_ARGS", "--base-rtt 200us"));
        stop(s1, "pfabric switchd s1: stopped");
    }

    @Test
    @RequiresNetns
    void vxlanExampleForwardsBetweenTwoSwitchServers(@TempDir final Path directory) throws Exception
    {
        assumeSetpriv();
        final Topology topology = install(directory, "vxlan");
        buildNamespaces(topology);

        final Daemon s1 = startUnit("pfabric-switchd@.service", "s1", Map.of());
        final Daemon s2 = startUnit("pfabric-switchd@.service", "s2", Map.of());
        awaitLine(s1, "forwarding on 3 ports");
        awaitLine(s2, "forwarding on 3 ports");
        ping(topology.host("h1"), topology.host("h3"));
        final String ports = pfabric(namespace("s1"), "switchctl", "ports");
        assertTrue(sentOn(ports, "up") >= 3, () -> "switchctl shows no pings sent over s1's VXLAN port:\n" + ports);
        sendMessage("h1", "h3", Map.of());

        stop(s1, "pfabric switchd s1: stopped");
        stop(s2, "pfabric switchd s2: stopped");
    }

    @Test
    void controllerdUnitRunsTheSynController() throws Exception
    {
        final SystemdUnit unit = SystemdUnit.read(deploy.resolve("pfabric-controllerd@.service"));
        assertEquals(List.of(INSTALLED_LAUNCHER, "controllerd", "--mode", "syn", "--topology",
            "/etc/pfabric/topology.yaml", "--key-file", "/etc/pfabric/controller.key"),
            unit.execStart("syn", Map.of()));
        assertEquals("SIGTERM", unit.value("KillSignal", "syn"));
        assertEquals("on-failure", unit.value("Restart", "syn"));

        final List<String> help = new ArrayList<>(PfabricJava.command());
        help.addAll(List.of("controllerd", "--help"));
        final Result result = run(help);
        assumeTrue(0 == result.exit() && result.output().contains("Usage: pfabric controllerd"),
            "pfabric has no controllerd command yet (it arrives with a later release); its unit's command line is " +
            "checked, not run");
        for (final String option : List.of("--mode", "--topology", "--key-file"))
        {
            assertTrue(result.output().contains(option), () -> "controllerd has no " + option + " option, which its " +
                "unit uses:\n" + result.output());
        }
    }

    private void sendMessage(final String from, final String to, final Map<String, String> environment)
        throws IOException, InterruptedException
    {
        final Daemon sender = startUnit("pfabric-hostd@.service", from, environment);
        final Daemon receiver = startUnit("pfabric-hostd@.service", to, environment);
        final String extra = environment.getOrDefault("PFABRIC_ARGS", "");
        assertTrue(extra.isEmpty() || Collections.indexOfSubList(sender.command(), List.of(extra.split(" "))) > 0,
            () -> "PFABRIC_ARGS '" + extra + "' did not reach the command line: " + sender.arguments());
        awaitLine(sender, "application socket");
        awaitLine(receiver, "application socket");
        final Path socket = Paths.get(argumentAfter(sender, "--socket"));
        assertTrue(Files.exists(socket), () -> sender.name() + " reports no socket at " + socket + "; its log:\n" +
            sender.output());
        final String sent = pfabric(namespace(from), "send", "--socket", socket.toString(), "--to", to,
            "--size", "100KB");
        assertTrue(sent.contains("sent 100,000 bytes to " + to), () -> "pfabric send " + from + " -> " + to + ":\n" +
            sent);
        stop(sender, null);
        stop(receiver, null);
    }

    private static void assumeSetpriv() throws IOException
    {
        assumeTrue(Files.isExecutable(Paths.get("/usr/bin/setpriv")), "no setpriv (util-linux) to apply the " +
            "units' capabilities");
        removeLeftovers();
    }

    private static void removeLeftovers() throws IOException
    {
        final Pattern ours = Pattern.compile("pfd(\\d+)-\\S+");
        final List<String> stale = new ArrayList<>();
        for (final String line : Commands.run("ip", "netns", "list").split("\n"))
        {
            final Matcher matcher = ours.matcher(line.strip().split(" ")[0]);
            if (matcher.matches() && ProcessHandle.of(Long.parseLong(matcher.group(1))).isEmpty())
            {
                stale.add(matcher.group());
            }
        }
        Commands.deleteNamespaces(stale);
    }

    private Topology install(final Path directory, final String example) throws IOException
    {
        root = directory;
        final Path topology = Files.createDirectories(root.resolve("etc/pfabric")).resolve("topology.yaml");
        Files.copy(deploy.resolve(example).resolve("topology.yaml"), topology);
        return TopologyParser.parse(topology);
    }

    private String namespace(final String name)
    {
        return prefix + name;
    }

    private void buildNamespaces(final Topology topology) throws IOException
    {
        for (final SwitchSpec sw : topology.switches())
        {
            addNamespace(sw.name());
        }
        for (final HostSpec host : topology.hosts())
        {
            addNamespace(host.name());
            final String switchNamespace = namespace(host.switchName());
            final String hostNamespace = namespace(host.name());
            final String cable = topology.switchNamed(host.switchName()).port(host.portName()).interfaceName();
            Commands.run("ip", "-n", switchNamespace, "link", "add", cable, "type", "veth", "peer", "name", "eth0",
                "netns", hostNamespace);
            Commands.run("ip", "-n", hostNamespace, "link", "set", "eth0", "address", host.macText());
            Commands.run("ip", "-n", hostNamespace, "addr", "add", host.ipText() + "/24", "dev", "eth0");
            Commands.inNamespace(hostNamespace, "ethtool", "-K", "eth0", "rx", "off", "tx", "off", "sg", "off",
                "tso", "off", "gso", "off", "gro", "off");
            Commands.run("ip", "-n", hostNamespace, "link", "set", "eth0", "up");
            Commands.inNamespace(switchNamespace, "ethtool", "-K", cable, "gro", "off");
            Commands.run("ip", "-n", switchNamespace, "link", "set", cable, "up");
        }
        int underlay = 0;
        for (final LinkSpec link : topology.links())
        {
            final PortSpec a = topology.switchNamed(link.a().switchName()).port(link.a().portName());
            final PortSpec b = topology.switchNamed(link.b().switchName()).port(link.b().portName());
            assertTrue(a.isUdp() && b.isUdp(), () -> "the deploy examples link switch servers over VXLAN: " + link);
            final String name = "underlay" + underlay++;
            final String aNamespace = namespace(link.a().switchName());
            final String bNamespace = namespace(link.b().switchName());
            Commands.run("ip", "-n", aNamespace, "link", "add", name, "type", "veth", "peer", "name", name, "netns",
                bNamespace);
            Commands.run("ip", "-n", aNamespace, "addr", "add", a.udp().localHost() + "/24", "dev", name);
            Commands.run("ip", "-n", bNamespace, "addr", "add", b.udp().localHost() + "/24", "dev", name);
            Commands.run("ip", "-n", aNamespace, "link", "set", name, "up");
            Commands.run("ip", "-n", bNamespace, "link", "set", name, "up");
        }
    }

    private void addNamespace(final String name) throws IOException
    {
        final String namespace = namespace(name);
        Commands.run("ip", "netns", "add", namespace);
        namespaces.add(namespace);
        Commands.inNamespace(namespace, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1",
            "net.ipv6.conf.default.disable_ipv6=1");
        Commands.run("ip", "-n", namespace, "link", "set", "lo", "up");
    }

    private Daemon startUnit(final String unitName, final String instance, final Map<String, String> environment)
        throws IOException
    {
        final SystemdUnit unit = SystemdUnit.read(deploy.resolve(unitName));
        assertEquals("SIGTERM", unit.value("KillSignal", instance), unitName + ": KillSignal");
        assertEquals("on-failure", unit.value("Restart", instance), unitName + ": Restart");
        final List<String> words = unit.execStart(instance, environment);
        assertEquals(INSTALLED_LAUNCHER, words.get(0), unitName + ": ExecStart runs the installed launcher");

        final List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", namespace(instance), "setpriv"));
        final String ambient = capabilities(unit.value("AmbientCapabilities", instance));
        command.addAll(List.of("--inh-caps", ambient, "--ambient-caps", ambient));
        final String bounding = unit.value("CapabilityBoundingSet", instance);
        if (null != bounding)
        {
            command.addAll(List.of("--bounding-set", capabilities(bounding)));
        }
        if ("yes".equals(unit.value("NoNewPrivileges", instance)))
        {
            command.add("--no-new-privs");
        }
        command.addAll(PfabricJava.command());
        for (final String word : words.subList(1, words.size()))
        {
            command.add(relocated(word));
        }

        for (final String key : List.of("RuntimeDirectory", "StateDirectory"))
        {
            final String directory = unit.value(key, instance);
            if (null != directory)
            {
                Files.createDirectories(root.resolve("RuntimeDirectory".equals(key) ? "run" : "var/lib")
                    .resolve(directory));
            }
        }
        final String working = unit.value("WorkingDirectory", instance);
        final Path workingDirectory = Files.createDirectories(null == working ? root : Paths.get(relocated(working)));
        final String name = unitName.replace("@.service", "@" + instance);
        final Path log = root.resolve(name + ".log");
        final Process process = new ProcessBuilder(command)
            .directory(workingDirectory.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
        final Daemon daemon = new Daemon(name, process, log, command, cleanExits(unit, instance));
        daemons.add(daemon);
        return daemon;
    }

    private String relocated(final String word)
    {
        for (final String system : SYSTEM_DIRECTORIES)
        {
            if (word.startsWith(system))
            {
                return root.resolve(system.substring(1)).resolve(word.substring(system.length())).toString();
            }
        }
        assertTrue(!word.startsWith("/opt/") && !word.startsWith("/etc/") && !word.startsWith("/var/"),
            () -> "a unit names " + word + ", which this test does not know how to move into its directory");
        return word;
    }

    private static List<Integer> cleanExits(final SystemdUnit unit, final String instance)
    {
        final List<Integer> clean = new ArrayList<>(List.of(0));
        final String success = unit.value("SuccessExitStatus", instance);
        if (null != success)
        {
            for (final String status : success.strip().split("\\s+"))
            {
                if (status.matches("\\d+"))
                {
                    clean.add(Integer.parseInt(status));
                }
            }
        }
        return clean;
    }

    private static String capabilities(final String unitValue)
    {
        final StringBuilder setpriv = new StringBuilder("-all");
        if (null != unitValue)
        {
            for (final String capability : unitValue.strip().split("\\s+"))
            {
                if (!capability.isEmpty())
                {
                    setpriv.append(",+").append(capability.toLowerCase(Locale.ROOT).replaceFirst("^cap_", ""));
                }
            }
        }
        return setpriv.toString();
    }

    private static void awaitLine(final Daemon daemon, final String text)
    {
        Await.await(() -> daemon.output().contains(text) || !daemon.process().isAlive(),
            Duration.ofMillis(READY_TIMEOUT_MS), () -> daemon.name() + " printed '" + text + "'; its log:\n" +
            daemon.output());
        if (!daemon.output().contains(text))
        {
            fail(daemon.name() + " exited with status " + daemon.process().exitValue() + " before printing '" + text +
                "'; its log:\n" + daemon.output());
        }
    }

    private static void stop(final Daemon daemon, final String stoppedLine) throws InterruptedException
    {
        final int exit = PfabricJava.terminate(daemon.process(), STOP_TIMEOUT_MS);
        assertTrue(daemon.cleanExits().contains(exit), () -> daemon.name() + " exited with status " + exit +
            " on SIGTERM (clean for its unit: " + daemon.cleanExits() + "); its log:\n" + daemon.output());
        if (null != stoppedLine)
        {
            assertTrue(daemon.output().contains(stoppedLine), () -> daemon.name() + " did not print '" + stoppedLine +
                "' on SIGTERM; its log:\n" + daemon.output());
        }
    }

    private void ping(final HostSpec from, final HostSpec to) throws IOException
    {
        final String ping = Commands.inNamespace(namespace(from.name()), "ping", "-c", "3", "-i", "0.2", "-W", "2",
            to.ipText());
        assertTrue(ping.contains(" 0% packet loss"), () -> "ping " + from.name() + " -> " + to.name() + ":\n" + ping);
    }

    private static long sentOn(final String ports, final String port)
    {
        final Matcher matcher = Pattern.compile("(?m)^" + Pattern.quote(port) + " .*\\bsent=(\\d+)").matcher(ports);
        return matcher.find() ? Long.parseLong(matcher.group(1)) : -1;
    }

    private static String argumentAfter(final Daemon daemon, final String option)
    {
        final List<String> arguments = daemon.command();
        final int at = arguments.indexOf(option);
        assertTrue(at >= 0 && at + 1 < arguments.size(),
            () -> daemon.name() + " has no " + option + ": " + daemon.arguments());
        return arguments.get(at + 1);
    }

    private String pfabric(final String namespace, final String... arguments) throws IOException,
        InterruptedException
    {
        final List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
        command.addAll(PfabricJava.command());
        command.addAll(List.of(arguments));
        final Result result = run(command);
        assertEquals(0, result.exit(), () -> "pfabric " + String.join(" ", arguments) + " in " + namespace +
            " failed; its output:\n" + result.output());
        return result.output();
    }

    private static Result run(final List<String> command) throws IOException, InterruptedException
    {
        final Path output = Files.createTempFile("pfabric-deploy-test", ".out");
        try
        {
            final Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(output.toFile()).start();
            if (!process.waitFor(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS))
            {
                PfabricJava.terminate(process, 5_000);
                fail(String.join(" ", command.subList(Math.max(0, command.size() - 6), command.size())) +
                    ": no exit in " + COMMAND_TIMEOUT_SECONDS + " s; its output:\n" + PfabricJava.text(output));
            }
            return new Result(process.exitValue(), PfabricJava.text(output));
        }
        finally
        {
            Files.deleteIfExists(output);
        }
    }
}
