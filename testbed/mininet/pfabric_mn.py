"""pFabric in Mininet: a switch class that runs `pfabric switchd` on the switch's interfaces, a host class
that runs `pfabric hostd`, and star, leaf-spine and fat-tree topologies.

From the command line (as root, with the system python3 that Mininet is installed for):

    mn --custom testbed/mininet/pfabric_mn.py --topo leafspine,2,2,2 --switch pfabric --controller none

From Python:

    from pfabric_mn import PfabricSwitch, PfabricHost, StarTopo
    net = Mininet(topo=StarTopo(2), switch=PfabricSwitch, host=PfabricHost, controller=None)

Each switch writes a topology file (docs/topology.md; JSON, which reads as YAML) describing the Mininet network it
belongs to, every switch and host reachable from it over links, and starts
`pfabric switchd --topology FILE --name SWITCH` in the root namespace, where Mininet switches and their interfaces
(s1-eth1, ...) live. switchd answers ARP from the topology's hosts, so hosts need no static ARP. Files and daemon logs
go to $PFABRIC_MN_DIR (default /tmp/pfabric-mn-PID).

The command that runs pfabric is $PFABRIC_CMD (a shell-words prefix such as
`java --enable-native-access=ALL-UNNAMED -cp CLASSPATH io.pfabric.cli.PfabricCommand`), by default the
repository's `pfabric` launcher.
"""

import json
import os
import shlex
import signal
import subprocess
import time

from mininet.node import Host, Switch
from mininet.topo import Topo


def _here():
    """This file's directory; `mn --custom` runs the file through exec(), which defines no __file__."""
    return os.path.dirname(os.path.abspath(_here.__code__.co_filename))


REPO = os.path.dirname(os.path.dirname(_here()))
READY_TIMEOUT_SECONDS = 90
STOP_TIMEOUT_SECONDS = 15
OFFLOADS = ('rx', 'off', 'tx', 'off', 'sg', 'off', 'tso', 'off', 'gso', 'off', 'gro', 'off')


_launcher_ready = []


def pfabric_command():
    """The command prefix that runs pfabric: $PFABRIC_CMD split as shell words, or the repository's launcher.
    The launcher builds when sources changed; it is run once here first, so that daemons started together do
    not all build at once."""
    configured = os.environ.get('PFABRIC_CMD', '').strip()
    if configured:
        return shlex.split(configured)
    launcher = [os.path.join(REPO, 'pfabric')]
    if not _launcher_ready:
        result = subprocess.run(launcher + ['--version'], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, universal_newlines=True, timeout=900)
        if result.returncode != 0:
            raise RuntimeError('%s --version failed (exit %d):\n%s' % (launcher[0], result.returncode, result.stdout))
        _launcher_ready.append(True)
    return launcher


def run_dir():
    """Where topology files and daemon logs go: $PFABRIC_MN_DIR or /tmp/pfabric-mn-PID."""
    path = os.environ.get('PFABRIC_MN_DIR') or '/tmp/pfabric-mn-%d' % os.getpid()
    os.makedirs(path, exist_ok=True)
    return path


def _peer(intf):
    """The interface at the other end of intf's link, or None."""
    link = getattr(intf, 'link', None)
    if link is None:
        return None
    return link.intf2 if link.intf1 is intf else link.intf1


def _rate_text(bw_mbps):
    """A TCLink bandwidth in Mb/s as a topology rate (whole bits per second)."""
    return str(int(round(float(bw_mbps) * 1000000)))


def _switch_ports(switch):
    """(port name, interface) of every linked interface of a pfabric switch, in port-number order."""
    ports = []
    for intf in switch.intfList():
        if _peer(intf) is not None:
            ports.append(('p%d' % switch.ports[intf], intf))
    return ports


def topology_of(node):
    """The topology (a dict in the format of docs/topology.md) of the network node belongs to: every pfabric
    switch reachable from node over links, the hosts attached to them and the links between them."""
    switches, hosts, seen = [], [], set()
    pending = [node]
    while pending:
        current = pending.pop(0)
        if current.name in seen:
            continue
        seen.add(current.name)
        if isinstance(current, PfabricSwitch):
            switches.append(current)
        elif isinstance(current, Host):
            hosts.append(current)
        else:
            continue
        for intf in current.intfList():
            other = _peer(intf)
            if other is not None and other.node.name not in seen:
                pending.append(other.node)
    switches.sort(key=lambda s: s.name)
    hosts.sort(key=lambda h: (len(h.name), h.name))

    host_entries, switch_entries, links = [], [], []
    for host in hosts:
        for intf in host.intfList():
            other = _peer(intf)
            if other is not None and isinstance(other.node, PfabricSwitch):
                if not intf.IP():
                    raise ValueError('host %s has no IPv4 address on %s' % (host.name, intf.name))
                host_entries.append({'name': host.name, 'ip': intf.IP(), 'mac': intf.MAC(),
                                     'switch': other.node.name, 'port': 'p%d' % other.node.ports[other]})
                break
    for switch in switches:
        ports = []
        for port_name, intf in _switch_ports(switch):
            port = {'name': port_name, 'interface': intf.name, 'discipline': switch.discipline}
            rate = switch.rate or (_rate_text(intf.params['bw']) if intf.params.get('bw') else '1g')
            port['rate'] = rate
            if switch.buffer:
                port['buffer'] = int(switch.buffer)
            ports.append(port)
            other = _peer(intf)
            if isinstance(other.node, PfabricSwitch) and switch.name < other.node.name:
                links.append(['%s:%s' % (switch.name, port_name),
                              '%s:p%d' % (other.node.name, other.node.ports[other])])
        switch_entries.append({'name': switch.name, 'multipath': switch.multipath, 'ports': ports})
    return {'hosts': host_entries, 'switches': switch_entries, 'links': links}


def write_topology(node):
    """Write the topology of node's network to run_dir(); the same network always gives the same file, and it
    is replaced atomically, so every switch and host may write it."""
    topology = topology_of(node)
    names = '-'.join(s['name'] for s in topology['switches'])
    path = os.path.join(run_dir(), 'topology-%s.json' % names)
    temporary = '%s.%s.tmp' % (path, node.name)
    with open(temporary, 'w') as out:
        json.dump(topology, out, indent=2)
        out.write('\n')
    os.replace(temporary, path)
    return path


class Daemon(object):
    """One pfabric daemon started by a node: its process, its log and the line that says it is ready."""

    def __init__(self, name, process, log_path, ready_text):
        self.name = name
        self.process = process
        self.log_path = log_path
        self.ready_text = ready_text

    def log(self):
        """The daemon's output so far."""
        try:
            with open(self.log_path, errors='replace') as log:
                return log.read()
        except OSError:
            return ''

    def wait_ready(self, timeout=READY_TIMEOUT_SECONDS):
        """Wait until the daemon prints its ready line; raise with its log if it exits or takes too long."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.ready_text in self.log():
                return
            if self.process.poll() is not None:
                raise RuntimeError('%s exited with status %d before it was ready; its log (%s):\n%s'
                                   % (self.name, self.process.returncode, self.log_path, self.log()))
            time.sleep(0.1)
        raise RuntimeError('%s not ready after %d s; its log (%s):\n%s'
                           % (self.name, timeout, self.log_path, self.log()))

    def stop(self, timeout=STOP_TIMEOUT_SECONDS):
        """SIGTERM, wait for the exit, SIGKILL if it does not come; return the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout)
        return self.process.returncode


def _ignore_sigint():
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _start_daemon(node, name, args, ready_text):
    """Start a daemon in the node's namespaces but in this process's session, not a new one as Mininet does by
    default (mnexec -d). Linux schedules each session as one group (autogroup): a daemon alone in its own group was
    starved for seconds at a time beside a group of busy processes on a 2-core machine, with its forwarding thread
    runnable throughout. SIGINT is ignored, so that Ctrl-C in the terminal reaches Mininet, which stops the daemons
    with SIGTERM."""
    log_path = os.path.join(run_dir(), '%s.log' % name)
    with open(log_path, 'w') as log:
        process = node.popen(pfabric_command() + list(args), stdin=subprocess.DEVNULL, stdout=log,
                             stderr=subprocess.STDOUT, mncmd=['mnexec', '-a', str(node.pid)],
                             preexec_fn=_ignore_sigint)
    return Daemon(name, process, log_path, ready_text)


def quiet_host(host):
    """What a pfabric fabric needs of a host: IPv6 off (the kernel then sends nothing of its own) and
    offloads off, so that no frame larger than the MTU reaches a raw socket."""
    host.cmd('sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1')
    for intf in host.intfList():
        if intf.name != 'lo':
            host.cmd('ethtool -K %s %s' % (intf.name, ' '.join(OFFLOADS)))


class PfabricSwitch(Switch):
    """A Mininet switch that runs `pfabric switchd` on its interfaces.

    rate: line rate of every port (e.g. 100m, 1g); default the link's bw if TCLink gives one, else 1g.
    discipline: pfabric (default), droptail, ecn or strict. buffer: bytes per port (default: the discipline's).
    multipath: spray (default) or ecmp. admin: HOST:PORT of switchd's admin interface (for `pfabric switchctl`),
    none by default; switches share the root namespace, so each needs its own port."""

    def __init__(self, name, rate=None, discipline='pfabric', buffer=None, multipath='spray', admin=None, **params):
        Switch.__init__(self, name, **params)
        self.rate = rate
        self.discipline = discipline
        self.buffer = buffer
        self.multipath = multipath
        self.admin = admin
        self.daemon = None
        self.topology_path = None

    def start(self, _controllers):
        """Quiet the interfaces, write the topology and start switchd (batchStartup waits for it)."""
        for _, intf in _switch_ports(self):
            self.cmd('sysctl -qw net.ipv6.conf.%s.disable_ipv6=1' % intf.name.replace('.', '/'))
            self.cmd('ethtool -K %s %s' % (intf.name, ' '.join(OFFLOADS)))
            self.cmd('ip link set %s up' % intf.name)
            other = _peer(intf)
            if isinstance(other.node, Host):
                quiet_host(other.node)
        self.topology_path = write_topology(self)
        args = ['switchd', '--topology', self.topology_path, '--name', self.name]
        if self.admin:
            args += ['--admin', self.admin]
        self.daemon = _start_daemon(self, 'switchd-%s' % self.name, args, 'forwarding on')

    @classmethod
    def batchStartup(cls, switches, **_kwargs):
        """Wait until every switch's switchd forwards (they start in parallel); if one does not, stop them all,
        since Mininet will not stop switches whose start failed."""
        try:
            for switch in switches:
                if switch.daemon is not None:
                    switch.daemon.wait_ready()
        except BaseException:
            for switch in switches:
                switch.stop_daemon()
            raise
        return switches

    def connected(self):
        """Whether switchd is forwarding."""
        return self.daemon is not None and self.daemon.ready_text in self.daemon.log()

    def stop_daemon(self):
        """Stop switchd with SIGTERM; return its exit status (None if it was not running)."""
        if self.daemon is None:
            return None
        status = self.daemon.stop()
        self.daemon = None
        return status

    @classmethod
    def batchShutdown(cls, switches, **_kwargs):
        """Stop every switch's switchd."""
        for switch in switches:
            switch.stop(deleteIntfs=True)
        return switches

    def stop(self, deleteIntfs=True):
        """Stop switchd, then the switch."""
        self.stop_daemon()
        Switch.stop(self, deleteIntfs)


class PfabricHost(Host):
    """A Mininet host with IPv6 and offloads off that can run `pfabric hostd` and the other pfabric commands."""

    def __init__(self, name, **params):
        Host.__init__(self, name, **params)
        self.hostd = None

    def config(self, **params):
        result = Host.config(self, **params)
        quiet_host(self)
        return result

    def socket_path(self):
        """The application socket of this host's hostd."""
        return os.path.join(run_dir(), 'hostd-%s.sock' % self.name)

    def start_hostd(self, *args):
        """Start `pfabric hostd` for this host with extra args; wait until it serves its application socket
        (or, with --flows/--duration, until it runs). Returns the Daemon."""
        topology = write_topology(self)
        workload = any(a.startswith('--workload') for a in args)
        self.hostd = _start_daemon(self, 'hostd-%s' % self.name,
                                   ['hostd', '--topology', topology, '--name', self.name,
                                    '--socket', self.socket_path()] + list(args),
                                   'flows of the trace' if workload else 'application socket')
        self.hostd.wait_ready()
        return self.hostd

    def pfabric(self, *args, **kwargs):
        """Start another pfabric command (send, recv, ...) in this host; returns the Popen."""
        return self.popen(pfabric_command() + list(args), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True, **kwargs)

    def stop_hostd(self):
        """Stop hostd with SIGTERM; return its exit status (None if it was not running)."""
        if self.hostd is None:
            return None
        status = self.hostd.stop()
        self.hostd = None
        return status

    def terminate(self):
        self.stop_hostd()
        Host.terminate(self)


class StarTopo(Topo):
    """star,N: N hosts h1..hN on one switch s1; host i has IP 10.0.0.i and MAC 02:00:0a:00:00:ii."""

    def build(self, n=2, **_opts):
        switch = self.addSwitch('s1')
        for i in range(1, int(n) + 1):
            host = self.addHost('h%d' % i, cls=PfabricHost, ip='10.0.0.%d/8' % i, mac='02:00:0a:00:00:%02x' % i)
            self.addLink(host, switch)


class LeafSpineTopo(Topo):
    """leafspine,L,H,S: leaves l1..lL with H hosts each, spines sp1..spS, every leaf linked to every spine;
    hosts h1..h(L*H) leaf by leaf, host i of leaf j with IP 10.0.j.i and MAC 02:00:0a:00:jj:ii
    (the naming of Topologies.leafSpine)."""

    def build(self, leaves=2, hosts=2, spines=2, **_opts):
        leaves, hosts, spines = int(leaves), int(hosts), int(spines)
        spine_nodes = [self.addSwitch('sp%d' % k, dpid='%x' % (0x100 + k)) for k in range(1, spines + 1)]
        number = 0
        for j in range(1, leaves + 1):
            leaf = self.addSwitch('l%d' % j, dpid='%x' % j)
            for i in range(1, hosts + 1):
                number += 1
                host = self.addHost('h%d' % number, cls=PfabricHost, ip='10.0.%d.%d/8' % (j, i),
                                    mac='02:00:0a:00:%02x:%02x' % (j, i))
                self.addLink(host, leaf)
            for spine in spine_nodes:
                self.addLink(leaf, spine)


class FatTreeTopo(Topo):
    """fattree,K: the three-tier fat-tree of K-port switches (K even): K pods of K/2 edge switches and K/2
    aggregation switches, (K/2)^2 core switches, K/2 hosts per edge switch. Edge switches e1..e(K^2/2) and aggregation
    switches a1..a(K^2/2) pod by pod, every edge switch linked to every aggregation switch of its pod; core switches
    c1..c(K^2/4), the pod's a-th aggregation switch linked to c((a-1)K/2+1)..c(aK/2); hosts h1..h(K^3/4) edge switch by
    edge switch, host i of edge switch j with IP 10.0.j.i and MAC 02:00:0a:00:jj:ii (the naming of
    Topologies.fatTree)."""

    def build(self, k=4, **_opts):
        k = int(k)
        if k < 2 or k % 2 or k > 22:
            raise ValueError('fattree,K needs K even and 2 to 22, not %d' % k)
        half = k // 2
        edges = [self.addSwitch('e%d' % j, dpid='%x' % (0x1000 + j)) for j in range(1, k * half + 1)]
        aggregations = [self.addSwitch('a%d' % j, dpid='%x' % (0x2000 + j)) for j in range(1, k * half + 1)]
        cores = [self.addSwitch('c%d' % j, dpid='%x' % (0x3000 + j)) for j in range(1, half * half + 1)]
        number = 0
        for j, edge in enumerate(edges, start=1):
            for i in range(1, half + 1):
                number += 1
                host = self.addHost('h%d' % number, cls=PfabricHost, ip='10.0.%d.%d/8' % (j, i),
                                    mac='02:00:0a:00:%02x:%02x' % (j, i))
                self.addLink(host, edge)
            pod = (j - 1) // half
            for aggregation in aggregations[pod * half:(pod + 1) * half]:
                self.addLink(edge, aggregation)
        for j, aggregation in enumerate(aggregations):
            index_in_pod = j % half
            for core in cores[index_in_pod * half:(index_in_pod + 1) * half]:
                self.addLink(aggregation, core)


switches = {'pfabric': PfabricSwitch}
hosts = {'pfabric': PfabricHost}
topos = {'star': StarTopo, 'leafspine': LeafSpineTopo, 'fattree': FatTreeTopo}
