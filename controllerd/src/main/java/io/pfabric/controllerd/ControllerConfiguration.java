package io.pfabric.controllerd;

import io.pfabric.common.control.ControlMode;
import io.pfabric.common.packet.NettyTransport;
import io.pfabric.common.topology.HostSpec;
import io.pfabric.common.topology.PortSpec;
import io.pfabric.common.topology.SwitchSpec;
import io.pfabric.common.topology.Topology;
import io.pfabric.controllerd.syn.LeafSpineFabric;
import io.pfabric.controllerd.syn.Metric;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The controller's settings: defaults, and a {@link Context} that takes overrides in code and checks them in
 * {@link Context#conclude()}.
 */
public final class ControllerConfiguration
{
    /**
     * UDP port the controller listens on by default.
     */
    public static final int DEFAULT_CONTROLLER_PORT = 7255;

    /**
     * UDP port each host's control socket listens on by default, at the host's topology address.
     */
    public static final int DEFAULT_HOST_CONTROL_PORT = 7254;

    /**
     * SYN: slots the allocator fills at a time.
     */
    public static final int DEFAULT_BATCH_SLOTS = 8;

    /**
     * SYN: how far ahead of the current slot allocation runs, in batches.
     */
    public static final int DEFAULT_LOOKAHEAD_BATCHES = 1;

    /**
     * SYN: a slot's grants leave at most this many slots, and at least half that, before the slot starts; the hosts
     * hold them until the slot (Fastpass's released code sends each slot's grants when wall-clock time reaches it and
     * its hosts send on arrival).
     */
    public static final int DEFAULT_EMIT_AHEAD_SLOTS = 6;

    /**
     * SYN: every host hears from the controller at least this often, in ns (cumulative grant totals), so that
     * a host with nothing granted does not take the silence for a dead controller.
     */
    public static final long DEFAULT_HEARTBEAT_NS = 1_000_000;

    /**
     * ASY: the normalization interval, in ns.
     */
    public static final long DEFAULT_INTERVAL_NS = 1_000_000;

    private ControllerConfiguration()
    {
    }

    /**
     * Settings under construction; {@link #conclude()} fills what follows from the topology and checks the rest.
     */
    public static final class Context
    {
        private ControlMode mode;
        private Topology topology;
        private byte[] key;
        private InetSocketAddress listen = new InetSocketAddress(DEFAULT_CONTROLLER_PORT);
        private List<InetSocketAddress> hostAddresses;
        private int hostControlPort = DEFAULT_HOST_CONTROL_PORT;
        private Metric metric = Metric.OCF;
        private int batchSlots = DEFAULT_BATCH_SLOTS;
        private int lookaheadBatches = DEFAULT_LOOKAHEAD_BATCHES;
        private int emitAheadSlots = DEFAULT_EMIT_AHEAD_SLOTS;
        private long heartbeatNs = DEFAULT_HEARTBEAT_NS;
        private long intervalNs = DEFAULT_INTERVAL_NS;
        private long linkRateBitsPerSec;
        private NettyTransport transport = NettyTransport.EPOLL;
        private String namespace;
        private LeafSpineFabric fabric;
        private boolean concluded;

        /**
         * @param mode SYN or ASY.
         * @return this.
         */
        public Context mode(final ControlMode mode)
        {
            this.mode = mode;
            return this;
        }

        /**
         * @return SYN or ASY.
         */
        public ControlMode mode()
        {
            return mode;
        }

        /**
         * @param topology the fabric; host indexes are its host order.
         * @return this.
         */
        public Context topology(final Topology topology)
        {
            this.topology = topology;
            return this;
        }

        /**
         * @return the fabric.
         */
        public Topology topology()
        {
            return topology;
        }

        /**
         * @param key the shared control key.
         * @return this.
         */
        public Context key(final byte[] key)
        {
            this.key = key.clone();
            return this;
        }

        /**
         * @return the shared control key.
         */
        public byte[] key()
        {
            return key.clone();
        }

        /**
         * @param listen address and port the controller binds (port 0: any).
         * @return this.
         */
        public Context listen(final InetSocketAddress listen)
        {
            this.listen = listen;
            return this;
        }

        /**
         * @return address and port the controller binds.
         */
        public InetSocketAddress listen()
        {
            return listen;
        }

        /**
         * Where each host's control socket is, in topology order; by default the host's topology address at
         * {@link #hostControlPort()}. Replies go only there, never to a datagram's source address.
         *
         * @param hostAddresses one per host.
         * @return this.
         */
        public Context hostAddresses(final List<InetSocketAddress> hostAddresses)
        {
            this.hostAddresses = List.copyOf(hostAddresses);
            return this;
        }

        /**
         * @return one per host, once concluded.
         */
        public List<InetSocketAddress> hostAddresses()
        {
            return hostAddresses;
        }

        /**
         * @param hostControlPort the port of each host's control socket at its topology address.
         * @return this.
         */
        public Context hostControlPort(final int hostControlPort)
        {
            this.hostControlPort = hostControlPort;
            return this;
        }

        /**
         * @return the port of each host's control socket at its topology address.
         */
        public int hostControlPort()
        {
            return hostControlPort;
        }

        /**
         * @param metric SYN's order of service.
         * @return this.
         */
        public Context metric(final Metric metric)
        {
            this.metric = metric;
            return this;
        }

        /**
         * @return SYN's order of service.
         */
        public Metric metric()
        {
            return metric;
        }

        /**
         * @param batchSlots SYN slots per allocation batch, 1 to 64.
         * @return this.
         */
        public Context batchSlots(final int batchSlots)
        {
            this.batchSlots = batchSlots;
            return this;
        }

        /**
         * @return SYN slots per allocation batch.
         */
        public int batchSlots()
        {
            return batchSlots;
        }

        /**
         * @param lookaheadBatches how many batches ahead of the current slot SYN allocates, at least 1.
         * @return this.
         */
        public Context lookaheadBatches(final int lookaheadBatches)
        {
            this.lookaheadBatches = lookaheadBatches;
            return this;
        }

        /**
         * @return how many batches ahead of the current slot SYN allocates.
         */
        public int lookaheadBatches()
        {
            return lookaheadBatches;
        }

        /**
         * @param emitAheadSlots at most how many slots before a slot its grants leave (at least half that), 0 or
         *                       more; allocation runs at least a batch beyond it, whatever the lookahead.
         * @return this.
         */
        public Context emitAheadSlots(final int emitAheadSlots)
        {
            this.emitAheadSlots = emitAheadSlots;
            return this;
        }

        /**
         * @return at most how many slots before a slot its grants leave.
         */
        public int emitAheadSlots()
        {
            return emitAheadSlots;
        }

        /**
         * @param heartbeatNs SYN: longest time a host goes without a message, ns.
         * @return this.
         */
        public Context heartbeatNs(final long heartbeatNs)
        {
            this.heartbeatNs = heartbeatNs;
            return this;
        }

        /**
         * @return SYN: longest time a host goes without a message, ns.
         */
        public long heartbeatNs()
        {
            return heartbeatNs;
        }

        /**
         * @param intervalNs ASY: normalization interval, ns.
         * @return this.
         */
        public Context intervalNs(final long intervalNs)
        {
            this.intervalNs = intervalNs;
            return this;
        }

        /**
         * @return ASY: normalization interval, ns.
         */
        public long intervalNs()
        {
            return intervalNs;
        }

        /**
         * @param linkRateBitsPerSec the host link rate; 0 (default): the rate of the switch port the first host
         *                           hangs on.
         * @return this.
         */
        public Context linkRateBitsPerSec(final long linkRateBitsPerSec)
        {
            this.linkRateBitsPerSec = linkRateBitsPerSec;
            return this;
        }

        /**
         * @return the host link rate, bits per second.
         */
        public long linkRateBitsPerSec()
        {
            return linkRateBitsPerSec;
        }

        /**
         * @param transport Netty's epoll or io_uring for the control socket.
         * @return this.
         */
        public Context transport(final NettyTransport transport)
        {
            this.transport = transport;
            return this;
        }

        /**
         * @return Netty's epoll or io_uring for the control socket.
         */
        public NettyTransport transport()
        {
            return transport;
        }

        /**
         * @param namespace network namespace the controller's socket is opened in, or null for the caller's.
         * @return this.
         */
        public Context namespace(final String namespace)
        {
            this.namespace = namespace;
            return this;
        }

        /**
         * @return network namespace the controller's socket is opened in, or null.
         */
        public String namespace()
        {
            return namespace;
        }

        /**
         * @return the leaf-spine shape SYN schedules, once concluded.
         */
        public LeafSpineFabric fabric()
        {
            return fabric;
        }

        /**
         * Fill what follows from the topology and check every setting.
         *
         * @return this.
         * @throws IllegalArgumentException naming the first setting that is wrong.
         */
        public Context conclude()
        {
            if (concluded)
            {
                return this;
            }
            if (null == mode)
            {
                throw new IllegalArgumentException("the control mode (syn or asy) is not set");
            }
            if (null == topology)
            {
                throw new IllegalArgumentException("the topology is not set");
            }
            if (null == key)
            {
                throw new IllegalArgumentException("the control key is not set");
            }
            if (null == listen)
            {
                throw new IllegalArgumentException("the listen address is not set");
            }
            final List<HostSpec> hosts = topology.hosts();
            if (hosts.size() < 2)
            {
                throw new IllegalArgumentException("a controller needs at least two hosts, the topology has " +
                    hosts.size());
            }
            if (0 == linkRateBitsPerSec)
            {
                linkRateBitsPerSec = attachmentRate(topology, hosts.get(0));
            }
            if (linkRateBitsPerSec <= 0)
            {
                throw new IllegalArgumentException("the host link rate is unknown (the topology's host ports are " +
                    "unpaced): give one");
            }
            if (null == hostAddresses)
            {
                if (hostControlPort < 1 || hostControlPort > 65_535)
                {
                    throw new IllegalArgumentException("host control port must be 1 to 65535, not " +
                        hostControlPort);
                }
                final List<InetSocketAddress> addresses = new ArrayList<>(hosts.size());
                for (final HostSpec host : hosts)
                {
                    addresses.add(new InetSocketAddress(ipv4(host.ip()), hostControlPort));
                }
                hostAddresses = List.copyOf(addresses);
            }
            if (hostAddresses.size() != hosts.size())
            {
                throw new IllegalArgumentException(hostAddresses.size() + " host control addresses for " +
                    hosts.size() + " hosts");
            }
            if (batchSlots < 1 || batchSlots > 64)
            {
                throw new IllegalArgumentException("batch slots must be 1 to 64, not " + batchSlots);
            }
            if (lookaheadBatches < 1)
            {
                throw new IllegalArgumentException("lookahead must be at least 1 batch, not " + lookaheadBatches);
            }
            if (emitAheadSlots < 0)
            {
                throw new IllegalArgumentException("emit-ahead slots must not be negative");
            }
            if (heartbeatNs <= 0 || intervalNs <= 0)
            {
                throw new IllegalArgumentException("heartbeat and interval must be positive");
            }
            if (null == metric || null == transport)
            {
                throw new IllegalArgumentException("metric and transport must be set");
            }
            fabric = fabricOf(topology, linkRateBitsPerSec);
            concluded = true;
            return this;
        }
    }

    /**
     * The leaf-spine shape of a topology: a switch with hosts is a leaf, a switch without is a spine; hosts must be
     * numbered leaf by leaf, the same number under each leaf (the last may have fewer). A leaf-spine link carries
     * its rate over the host rate packets per slot.
     *
     * @param topology           the fabric.
     * @param linkRateBitsPerSec the host link rate.
     * @return the shape.
     * @throws IllegalArgumentException if the topology is not shaped so.
     */
    public static LeafSpineFabric fabricOf(final Topology topology, final long linkRateBitsPerSec)
    {
        final List<HostSpec> hosts = topology.hosts();
        final Map<String, Integer> hostsPerSwitch = new LinkedHashMap<>();
        String previous = null;
        for (final HostSpec host : hosts)
        {
            if (!host.switchName().equals(previous) && hostsPerSwitch.containsKey(host.switchName()))
            {
                throw new IllegalArgumentException("hosts must be listed leaf by leaf; " + host.name() +
                    " returns to " + host.switchName());
            }
            hostsPerSwitch.merge(host.switchName(), 1, Integer::sum);
            previous = host.switchName();
        }
        if (1 == hostsPerSwitch.size())
        {
            return LeafSpineFabric.singleLeaf(hosts.size());
        }
        final List<Integer> counts = new ArrayList<>(hostsPerSwitch.values());
        final int perLeaf = counts.get(0);
        for (int i = 1; i < counts.size(); i++)
        {
            if (counts.get(i) > perLeaf || (counts.get(i) < perLeaf && i != counts.size() - 1))
            {
                throw new IllegalArgumentException("every leaf needs the same number of hosts (the last may have " +
                    "fewer): " + hostsPerSwitch);
            }
        }
        int spines = 0;
        for (final SwitchSpec spec : topology.switches())
        {
            if (!hostsPerSwitch.containsKey(spec.name()))
            {
                spines++;
            }
        }
        long uplinkRate = 0;
        final SwitchSpec firstLeaf = topology.switchNamed(hosts.get(0).switchName());
        for (final PortSpec port : firstLeaf.ports())
        {
            boolean hostPort = false;
            for (final HostSpec host : hosts)
            {
                hostPort |= host.switchName().equals(firstLeaf.name()) && host.portName().equals(port.name());
            }
            if (!hostPort)
            {
                uplinkRate = port.rateBitsPerSec();
                break;
            }
        }
        final int packetsPerSlot = uplinkRate > linkRateBitsPerSec ? (int)(uplinkRate / linkRateBitsPerSec) : 1;
        return new LeafSpineFabric(hosts.size(), perLeaf, spines, packetsPerSlot);
    }

    private static long attachmentRate(final Topology topology, final HostSpec host)
    {
        final PortSpec port = topology.switchNamed(host.switchName()).port(host.portName());
        return null == port ? 0 : port.rateBitsPerSec();
    }

    private static InetAddress ipv4(final int ip)
    {
        try
        {
            return InetAddress.getByAddress(new byte[] { (byte)(ip >>> 24), (byte)(ip >>> 16), (byte)(ip >>> 8),
                (byte)ip });
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
