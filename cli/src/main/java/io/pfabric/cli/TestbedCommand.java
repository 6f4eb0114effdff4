package io.pfabric.cli;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.pfabric.common.packet.DataPathPlacement;
import io.pfabric.common.packet.DataPathScheduling;
import io.pfabric.common.topology.Rates;
import io.pfabric.common.topology.SwitchSpec;
import io.pfabric.common.topology.Topology;
import io.pfabric.common.topology.TopologyParser;
import io.pfabric.common.topology.TopologySpec;
import io.pfabric.experiment.Experiment;
import io.pfabric.switchd.SwitchDaemon;
import io.pfabric.switchd.SwitchMetrics;
import io.pfabric.testbed.FabricRunner;
import io.pfabric.testbed.NetnsFabric;
import io.pfabric.testbed.PfabricJvm;
import io.pfabric.testbed.StandingTestbed;
import io.pfabric.testbed.monitor.MetricsEndpoint;
import io.pfabric.testbed.monitor.RunningFabrics;
import org.agrona.concurrent.ShutdownSignalBarrier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

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
    static final String PREFIX = StandingTestbed.DEFAULT_PREFIX;


    static Path stateDirectory()
    {
        return pfabricDirectory().resolve(RunningFabrics.TESTBED);
    }

    /**
     * The project's {@code .pfabric} directory, which holds the testbed's state and the fabrics that runs publish.
     */
    static Path pfabricDirectory()
    {
        return Path.of(System.getProperty("pfabric.home", "."), ".pfabric");
    }

    /**
     * The prefix of the namespaces of {@code pfabric experiment} and {@code pfabric demo}: {@code pfexp}, or the
     * system property {@code pfabric.experiment.prefix} (to keep two users' runs apart on one machine).
     */
    static String experimentPrefix()
    {
        return System.getProperty("pfabric.experiment.prefix", Experiment.PREFIX);
    }

    /**
     * The prefix of the testbed's namespaces: {@value #PREFIX}, or the system property {@code pfabric.testbed.prefix}
     * (for tests that must not touch a user's testbed).
     */
    static String prefix()
    {
        return System.getProperty("pfabric.testbed.prefix", PREFIX);
    }

    static StandingTestbed testbed()
    {
        return new StandingTestbed(stateDirectory(), prefix());
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
        @Option(names = "--topo", required = true, paramLabel = "SPEC|FILE",
            description = "star:N, leafspine:LxHxS, fattree:K, or a topology file (YAML or JSON, " +
                "docs/topology.md), which gives every port's rate and discipline itself.")
        String spec;

        @Option(names = "--rate", paramLabel = "RATE",
            description = "Line rate of every switch port of a star, leaf-spine or fat-tree (default: 1g); 0 = " +
                "unpaced.")
        String rate;

        @Option(names = "--discipline", paramLabel = "NAME",
            description = "pfabric, droptail, ecn, pfabric-classes (with the default classes), pfabric-edf, " +
                "strict[:N:T1,T2,...], sp-pifo[:N[:shared]], aifo[:k=K,w=W,s=S] or pias[:N[:K]], for every port " +
                "of a star, leaf-spine or fat-tree (default: pfabric).")
        String discipline;

        @Option(names = "--metrics", defaultValue = "0", paramLabel = "[HOST:]PORT",
            description = "Where the switches serve their meters for Prometheus (/metrics; a PORT alone listens on " +
                "127.0.0.1; default 0, a free port), recorded in the testbed's state for 'pfabric monitor' and " +
                "'pfabric top'.")
        String metrics;

        public Integer call() throws Exception
        {
            CountersFileOptions.metricsAddress(metrics);
            final Topology topology;
            if (TopologySpec.namesFile(spec))
            {
                if (null != rate || null != discipline)
                {
                    throw new IllegalArgumentException("--rate and --discipline are for a shape; the topology file " +
                        spec + " gives every port's own");
                }
                topology = TopologyParser.parse(Path.of(spec));
            }
            else
            {
                final String name = null == discipline ? "pfabric" : discipline;
                DisciplineOption.checkGiven("--discipline", name);
                topology = topology(spec, Rates.parseOption("--rate", null == rate ? "1g" : rate, true), name);
            }
            final StandingTestbed testbed = testbed();
            final List<String> command = PfabricJvm.command();
            command.add("testbed");
            command.add("switches");
            command.add("--prefix");
            command.add(prefix());
            command.add("--metrics");
            command.add(metrics);
            testbed.up(topology, command, System.err);
            System.err.printf("pfabric testbed: %s, %s up (namespaces %s-*, switch log %s)%n",
                count(topology.hosts().size(), "host"), count(topology.switches().size(), "switch"), prefix(),
                testbed.switchLog());
            for (final var host : topology.hosts())
            {
                System.out.println(host.name() + " " + host.ipText());
            }
            return 0;
        }
    }

    static String count(final int n, final String noun)
    {
        return n + " " + (1 == n ? noun : noun.endsWith("h") ? noun + "es" : noun + "s");
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
            if (null == command || command.isEmpty())
            {
                throw new IllegalArgumentException("give the command to run in " + host + ", e.g. 'pfabric testbed " +
                    "exec " + host + " -- ping -c 3 10.0.0.2'");
            }
            final StandingTestbed testbed = testbed();
            final List<String> namespaces = testbed.namespaces();
            if (!namespaces.contains(prefix() + "-" + host))
            {
                if (namespaces.isEmpty())
                {
                    throw new IllegalStateException("no testbed is up; make one with 'pfabric testbed up'");
                }
                final List<String> names = new ArrayList<>();
                for (final String namespace : namespaces)
                {
                    names.add(namespace.substring(prefix().length() + 1));
                }
                throw new IllegalArgumentException("no host or switch " + host + " in the testbed; it has " +
                    String.join(", ", names));
            }
            final List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", prefix() + "-" + host));
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
            final List<String> removed = testbed().down();
            System.err.println("pfabric testbed: removed " + count(removed.size(), "namespace"));
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
                FabricRunner runner = FabricRunner.open(NetnsFabric.existing(topology, prefix),
                    SwitchDaemon.Overrides.NONE))
            {
                // meters bound and first written before forwarding starts: see FabricRunner.open
                CountersFile counters = null;
                if (countersFile.requested())
                {
                    final PrometheusMeterRegistry registry = CountersFile.newRegistry();
                    for (final SwitchSpec spec : topology.switches())
                    {
                        SwitchMetrics.bind(runner.daemon(spec.name()), registry);
                    }
                    counters = countersFile.start(registry, System.err, MetricsEndpoint.SWITCHES,
                        MetricsEndpoint.SWITCHES, topologyFile.toAbsolutePath().getParent());
                }
                runner.startForwarding();
                System.err.println("pfabric testbed: switches running: " + topology.switches().size() + " switches, " +
                    (null == runner.daemon(topology.switches().get(0).name()) ? "none" : "all") + " open");
                final SwitchDaemon first = runner.daemon(topology.switches().get(0).name());
                if (null != first && DataPathPlacement.enabled() && null != first.forwarder().placement())
                {
                    System.err.println("pfabric testbed: the forwarding thread runs " + first.forwarder().placement());
                }
                final String refusal = null == first || !DataPathScheduling.enabled() ? null :
                    first.forwarder().realtimeRefusal();
                if (null != refusal)
                {
                    System.err.println("pfabric testbed: the forwarding thread runs at ordinary priority (real-time " +
                        "scheduling " + refusal + "): another busy thread may delay its frames by milliseconds");
                }
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
