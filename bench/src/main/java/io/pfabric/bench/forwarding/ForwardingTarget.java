package io.pfabric.bench.forwarding;

import io.pfabric.common.os.Commands;
import io.pfabric.common.packet.PacketSocketException;
import io.pfabric.common.topology.PortIo;
import io.pfabric.common.topology.PortSpec;
import io.pfabric.common.topology.SwitchSpec;
import io.pfabric.switchd.SwitchDaemon;
import io.pfabric.testbed.FabricRunner;
import io.pfabric.testbed.NetnsFabric;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What forwards between the hosts of a fabric: started in the switch's namespace on the switch-facing ends of the
 * veth pairs, closed to leave those interfaces as they were.
 */
public interface ForwardingTarget extends AutoCloseable
{
    /**
     * Stop forwarding and remove what was made.
     *
     * @throws IOException if something could not be removed.
     */
    void close() throws IOException;

    /**
     * The kinds of target, by their names on the command line and in the results.
     */
    enum Kind implements Labelled
    {
        /**
         * Nothing forwards: the generator sends into its own veth pair and the sink is on the peer, to measure what the
         * generator can offer at all.
         */
        GENERATOR("generator"),

        /**
         * pfabric's switchd on raw-socket ports.
         */
        SWITCHD("switchd"),

        /**
         * pfabric's switchd on AF_XDP ports.
         */
        SWITCHD_XDP("switchd-xdp"),

        /**
         * The kernel's bridge.
         */
        BRIDGE("bridge"),

        /**
         * Open vSwitch with the userspace (netdev) datapath.
         */
        OVS("ovs");

        private final String label;

        Kind(final String label)
        {
            this.label = label;
        }

        /**
         * The name on the command line and in the results.
         *
         * @return the name.
         */
        public String label()
        {
            return label;
        }

        /**
         * The kind of a name.
         *
         * @param label generator, switchd, switchd-xdp, bridge or ovs.
         * @return the kind.
         * @throws IllegalArgumentException for another name.
         */
        public static Kind byLabel(final String label)
        {
            return Labelled.byLabel(values(), label, "target");
        }
    }

    /**
     * Start a target on the one switch of a fabric.
     *
     * @param kind           which.
     * @param fabric         the namespaces and links.
     * @param rateBitsPerSec egress line rate for switchd (either kind), 0 for unpaced; the others are never paced.
     * @return the running target.
     * @throws IOException if it cannot start.
     */
    static ForwardingTarget start(final Kind kind, final NetnsFabric fabric, final long rateBitsPerSec)
        throws IOException
    {
        final SwitchSpec sw = fabric.topology().switches().get(0);
        final String namespace = fabric.namespace(sw.name());
        final List<String> interfaces = sw.ports().stream().map(PortSpec::interfaceName).toList();
        return switch (kind)
        {
            case GENERATOR -> () ->
            {
            };
            case SWITCHD -> switchd(fabric, rateBitsPerSec, PortIo.PACKET);
            case SWITCHD_XDP -> switchd(fabric, rateBitsPerSec, PortIo.XDP);
            case BRIDGE -> LinuxBridge.start(namespace, interfaces);
            case OVS -> OvsUserspace.start(namespace, interfaces);
        };
    }

    private static ForwardingTarget switchd(final NetnsFabric fabric, final long rateBitsPerSec, final PortIo io)
        throws IOException
    {
        try
        {
            return new Switchd(FabricRunner.start(fabric,
                new SwitchDaemon.Overrides(rateBitsPerSec, null, -1).withIo(io)),
                fabric.topology().switches().get(0).name());
        }
        catch (final PacketSocketException ex)
        {
            throw new IOException("switchd: " + ex.getMessage(), ex);
        }
    }

    /**
     * switchd, on raw-socket or AF_XDP ports, whose counters the benchmark may read while it forwards.
     *
     * @param runner     what runs it.
     * @param switchName the switch's name in the topology.
     */
    record Switchd(FabricRunner runner, String switchName) implements ForwardingTarget
    {
        /**
         * The running switch.
         *
         * @return the daemon.
         */
        SwitchDaemon daemon()
        {
            return runner.daemon(switchName);
        }

        /**
         * {@inheritDoc}
         */
        public void close()
        {
            runner.close();
        }
    }

    /**
     * A kernel bridge over the switch-facing interfaces, spanning tree off, and in its namespace no bridged frame
     * passed to iptables, ip6tables or arptables: where {@code br_netfilter} is loaded (Docker, Kubernetes and the
     * like load it) a new namespace has those hooks on, and they took about a quarter of the bridge's CPU per frame
     * (0.40 against 0.54 Mpps at 64 bytes, {@code bench/README.md}), which would measure netfilter rather than the
     * bridge. Where the module is absent the settings do not exist and nothing is changed.
     */
    final class LinuxBridge implements ForwardingTarget
    {
        static final String NAME = "pfbench-br";

        private final String namespace;

        private LinuxBridge(final String namespace)
        {
            this.namespace = namespace;
        }

        static LinuxBridge start(final String namespace, final List<String> interfaces) throws IOException
        {
            Commands.run("ip", "-n", namespace, "link", "add", NAME, "type", "bridge", "stp_state", "0",
                "forward_delay", "0");
            final LinuxBridge bridge = new LinuxBridge(namespace);
            try
            {
                for (final String interfaceName : interfaces)
                {
                    Commands.run("ip", "-n", namespace, "link", "set", interfaceName, "master", NAME);
                }
                Commands.run("ip", "netns", "exec", namespace, "sysctl", "-q", "-e", "-w",
                    "net.bridge.bridge-nf-call-iptables=0", "net.bridge.bridge-nf-call-ip6tables=0",
                    "net.bridge.bridge-nf-call-arptables=0");
                Commands.run("ip", "-n", namespace, "link", "set", NAME, "up");
                return bridge;
            }
            catch (final IOException ex)
            {
                bridge.close();
                throw ex;
            }
        }

        public void close() throws IOException
        {
            Commands.run("ip", "-n", namespace, "link", "del", NAME);
        }
    }

    /**
     * Open vSwitch's database server and switch daemon with a private run directory, and one bridge of the userspace
     * datapath whose ports are the switch-facing interfaces, forwarding with the NORMAL (learning) action.
     */
    final class OvsUserspace implements ForwardingTarget
    {
        private static final String BRIDGE = "pfbench-ovs";
        private static final String SCHEMA = "/usr/share/openvswitch/vswitch.ovsschema";

        private final Path directory;
        private final String namespace;

        private OvsUserspace(final Path directory, final String namespace)
        {
            this.directory = directory;
            this.namespace = namespace;
        }

        static OvsUserspace start(final String namespace, final List<String> interfaces) throws IOException
        {
            if (!Files.isRegularFile(Path.of(SCHEMA)))
            {
                throw new IOException("Open vSwitch is not installed (no " + SCHEMA + "); apt-get install " +
                    "openvswitch-switch, or leave ovs out of --targets");
            }
            final OvsUserspace ovs = new OvsUserspace(Files.createTempDirectory("pfabric-ovs-"), namespace);
            try
            {
                final String database = ovs.directory.resolve("conf.db").toString();
                final String socket = "unix:" + ovs.directory.resolve("db.sock");
                ovs.run("ovsdb-tool", "create", database, SCHEMA);
                ovs.run("ovsdb-server", database, "--remote=p" + socket, "--detach", "--no-chdir",
                    "--pidfile=" + ovs.directory.resolve("ovsdb-server.pid"),
                    "--log-file=" + ovs.directory.resolve("ovsdb-server.log"));
                ovs.run("ovs-vsctl", "--db=" + socket, "--no-wait", "init");
                ovs.run("ip", "netns", "exec", namespace, "ovs-vswitchd", socket, "--detach", "--no-chdir",
                    "--pidfile=" + ovs.directory.resolve("ovs-vswitchd.pid"),
                    "--log-file=" + ovs.directory.resolve("ovs-vswitchd.log"));
                final List<String> vsctl = new ArrayList<>(List.of("ovs-vsctl", "--db=" + socket, "--timeout=30",
                    "add-br", BRIDGE, "--", "set", "bridge", BRIDGE, "datapath_type=netdev"));
                for (final String interfaceName : interfaces)
                {
                    vsctl.addAll(List.of("--", "add-port", BRIDGE, interfaceName));
                }
                ovs.run(vsctl.toArray(new String[0]));
                return ovs;
            }
            catch (final IOException ex)
            {
                ovs.close();
                throw ex;
            }
        }

        private void run(final String... command) throws IOException
        {
            final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            final Map<String, String> environment = builder.environment();
            for (final String variable : List.of("OVS_RUNDIR", "OVS_DBDIR", "OVS_LOGDIR", "OVS_SYSCONFDIR"))
            {
                environment.put(variable, directory.toString());
            }
            final Process process = builder.start();
            try
            {
                final String output = new String(process.getInputStream().readAllBytes());
                if (!process.waitFor(60, TimeUnit.SECONDS) || 0 != process.exitValue())
                {
                    process.destroyForcibly();
                    throw new IOException(String.join(" ", command) + " failed: " + output.trim() +
                        " (logs in " + directory + ")");
                }
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
                throw new IOException("interrupted: " + String.join(" ", command), ex);
            }
        }

        public void close() throws IOException
        {
            for (final String daemon : List.of("ovs-vswitchd", "ovsdb-server"))
            {
                final Path pidFile = directory.resolve(daemon + ".pid");
                if (Files.isRegularFile(pidFile))
                {
                    ProcessHandle.of(Long.parseLong(Files.readString(pidFile).trim())).ifPresent(process ->
                    {
                        process.destroy();
                        process.onExit().completeOnTimeout(null, 5, TimeUnit.SECONDS).join();
                        process.destroyForcibly();
                    });
                }
            }
            for (final String tap : List.of(BRIDGE, "ovs-netdev"))
            {
                try
                {
                    Commands.run("ip", "-n", namespace, "link", "del", tap);
                }
                catch (final IOException ex)
                {
                    // Not made, or gone with its daemon.
                }
            }
            try (Stream<Path> files = Files.walk(directory))
            {
                for (final Path file : files.sorted(Comparator.reverseOrder()).toList())
                {
                    Files.deleteIfExists(file);
                }
            }
        }
    }
}
