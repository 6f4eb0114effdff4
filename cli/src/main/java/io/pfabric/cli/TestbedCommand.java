package io.pfabric.cli;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.pfabric.common.topology.Rates;
import io.pfabric.common.topology.SwitchSpec;
import io.pfabric.common.topology.Topology;
import io.pfabric.common.topology.TopologyParser;
import io.pfabric.common.topology.TopologySpec;
import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.switchd.SwitchDaemon;
import io.pfabric.switchd.SwitchMetrics;
import io.pfabric.testbed.FabricRunner;
import io.pfabric.testbed.NetnsFabric;
import io.pfabric.testbed.PfabricJvm;
import org.agrona.concurrent.ShutdownSignalBarrier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code pfabric testbed}: a fabric of network namespaces on this machine, with its switches running in one
 * background process.
 */
@Command(
    name = "testbed",
    mixinStandardHelpOptions = true,
    header = "Build, use and remove a fabric of network namespaces on this machine.",
    description = "Every namespace and link it makes is named with the prefix " + TestbedCommand.PREFIX + "-, so " +
        "'down' removes them all, also after a crash. Needs root.",
    subcommands = {
        TestbedCommand.Up.class, TestbedCommand.Exec.class, TestbedCommand.Down.class, TestbedCommand.Switches.class })
public final class TestbedCommand
{
    static final String PREFIX = "pftb";


    static Path stateDirectory()
    {
        return Path.of(System.getProperty("pfabric.home", "."), ".pfabric", "testbed");
    }

    static Topology topology(final String spec, final long rateBitsPerSec, final String discipline)
    {
        return TopologySpec.parse(spec).toTopology(rateBitsPerSec, discipline);
    }

    /**
     * {@code pfabric testbed up}.
     */
    @Command(name = "up", mixinStandardHelpOptions = true,
        description = "Make the namespaces and links of a topology and start its switches in the background.")
    static final class Up implements Callable<Integer>
    {
        @Option(names = "--topo", required = true, paramLabel = "SPEC",
            description = "star:N, leafspine:LxHxS or fattree:K (docs/topology.md).")
        String spec;

        @Option(names = "--rate", defaultValue = "1g", paramLabel = "RATE",
            description = "Line rate of every switch port (default: ${DEFAULT-VALUE}); 0 = unpaced.")
        String rate;

        @Option(names = "--discipline", defaultValue = "pfabric", paramLabel = "NAME",
            description = "pfabric, droptail, ecn, strict, pfabric-classes (with the default classes) or pfabric-edf " +
                "(default: ${DEFAULT-VALUE}).")
        String discipline;

        public Integer call() throws Exception
        {
            DisciplineKind.byName(discipline);
            final Topology topology = topology(spec, Rates.parseBitsPerSec(rate), discipline);
            final List<String> leftovers = NetnsFabric.removeLeftovers(PREFIX);
            if (!leftovers.isEmpty())
            {
                System.err.println("pfabric testbed: removed leftovers " + leftovers);
            }
            final Path state = stateDirectory();
            Files.createDirectories(state);
            final Path topologyFile = state.resolve("topology.yaml");
            Files.writeString(topologyFile, topology.toYaml(), StandardCharsets.UTF_8);
            final NetnsFabric fabric = NetnsFabric.build(topology, PREFIX);
            final List<String> command = PfabricJvm.command();
            command.add("testbed");
            command.add("switches");
            command.add(topologyFile.toString());
            final File log = state.resolve("switches.log").toFile();
            final Process switches = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            Files.writeString(state.resolve("switches.pid"), Long.toString(switches.pid()));
            if (switches.waitFor(3, TimeUnit.SECONDS))
            {
                fabric.close();
                System.err.println("pfabric testbed: the switches stopped at once; see " + log);
                return 1;
            }
            System.err.printf("pfabric testbed: %d hosts, %d switches up (namespaces %s-*, switch log %s)%n",
                topology.hosts().size(), topology.switches().size(), PREFIX, log);
            for (final var host : topology.hosts())
            {
                System.out.println(host.name() + " " + host.ipText());
            }
            return 0;
        }
    }

    /**
     * {@code pfabric testbed exec}.
     */
    @Command(name = "exec", mixinStandardHelpOptions = true, description = "Run a command in a host's namespace.")
    static final class Exec implements Callable<Integer>
    {
        @Parameters(index = "0", paramLabel = "HOST", description = "A host (or switch) of the testbed, e.g. h1.")
        String host;

        @Parameters(index = "1..*", paramLabel = "CMD", description = "The command and its arguments (after --).")
        List<String> command;

        public Integer call() throws Exception
        {
            final List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", PREFIX + "-" + host));
            full.addAll(command);
            return new ProcessBuilder(full).inheritIO().start().waitFor();
        }
    }

    /**
     * {@code pfabric testbed down}.
     */
    @Command(name = "down", mixinStandardHelpOptions = true,
        description = "Stop the switches and remove every namespace of the testbed, also after a crash.")
    static final class Down implements Callable<Integer>
    {
        public Integer call() throws Exception
        {
            final Path pidFile = stateDirectory().resolve("switches.pid");
            if (Files.exists(pidFile))
            {
                final long pid = Long.parseLong(Files.readString(pidFile).trim());
                ProcessHandle.of(pid).ifPresent(process ->
                {
                    process.destroy();
                    try
                    {
                        process.onExit().get(15, TimeUnit.SECONDS);
                    }
                    catch (final Exception ex)
                    {
                        process.destroyForcibly();
                    }
                });
                Files.delete(pidFile);
            }
            final List<String> removed = NetnsFabric.removeLeftovers(PREFIX);
            System.err.println("pfabric testbed: removed " + removed.size() + " namespaces");
            return 0;
        }
    }

    /**
     * {@code pfabric testbed switches}: the background process that {@code up} starts.
     */
    @Command(name = "switches", hidden = true, description = "Run every switch of a testbed until SIGTERM.")
    static final class Switches implements Callable<Integer>
    {
        @Parameters(index = "0", paramLabel = "TOPOLOGY")
        Path topologyFile;

        @Option(names = "--prefix", defaultValue = PREFIX, paramLabel = "NAME",
            description = "Prefix of the fabric's namespaces (default: ${DEFAULT-VALUE}).")
        String prefix;

        @Mixin
        CountersFileOptions countersFile = new CountersFileOptions();

        public Integer call() throws Exception
        {
            final Topology topology = TopologyParser.parse(topologyFile);
            try (ShutdownSignalBarrier barrier = new ShutdownSignalBarrier();
                FabricRunner runner = FabricRunner.start(NetnsFabric.existing(topology, prefix),
                    SwitchDaemon.Overrides.NONE))
            {
                CountersFile counters = null;
                if (countersFile.requested())
                {
                    final PrometheusMeterRegistry registry = CountersFile.newRegistry();
                    for (final SwitchSpec spec : topology.switches())
                    {
                        SwitchMetrics.bind(runner.daemon(spec.name()), registry);
                    }
                    counters = countersFile.start(registry, System.err);
                }
                System.err.println("pfabric testbed: switches running: " + topology.switches().size() + " switches, " +
                    (null == runner.daemon(topology.switches().get(0).name()) ? "none" : "all") + " open");
                barrier.await();
                System.err.println("pfabric testbed: switches stopping");
                runner.stopForwarding();
                if (null != counters)
                {
                    counters.close();
                }
            }
            return 0;
        }
    }
}
