"""Self-test of pFabric in Mininet: build a network with PfabricSwitch, check Mininet's pingAll loses nothing,
run hostd on every host, send one pFabric flow from the first host to the last and check it completed, then stop
every daemon with SIGTERM and check each exits cleanly.

Run as root with the system python3 (Mininet's):

    /usr/bin/python3 testbed/mininet/selftest.py [star,2 | leafspine,2,2,2 | fattree,4]

Exits 0 when every check passes, 1 with a message naming the failed check otherwise. Always stops the network and
removes what it made (daemons, interfaces) before exiting. PFABRIC_CMD chooses how pfabric runs (see pfabric_mn.py).
"""

import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from mininet.log import setLogLevel  # noqa: E402
from mininet.net import Mininet  # noqa: E402

import pfabric_mn  # noqa: E402

FLOW_TIMEOUT_SECONDS = 60
SIZE = '1MB'
SIZE_BYTES = 1000000
# The JVM exits with 128 + SIGTERM once its shutdown hooks (the daemons' orderly stop) have run.
CLEAN_EXITS = (0, 143)


class CheckFailed(Exception):
    """A check of the self-test failed; the message says which and why."""


def check(condition, message):
    if not condition:
        raise CheckFailed(message)


def build_topo(spec):
    parts = spec.split(',')
    name, args = parts[0], [int(a) for a in parts[1:]]
    check(name in pfabric_mn.topos, 'unknown topology %r; use star,N, leafspine,L,H,S or fattree,K' % spec)
    return pfabric_mn.topos[name](*args)


def send_one_flow(net):
    source, destination = net.hosts[0], net.hosts[-1]
    for host in net.hosts:
        host.start_hostd('--base-rtt', '200us')
        print('*** hostd %s serves %s' % (host.name, host.socket_path()), flush=True)
    sender = source.pfabric('send', '--socket', source.socket_path(), '--to', destination.name, '--size', SIZE)
    try:
        output, _ = sender.communicate(timeout=FLOW_TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        sender.kill()
        output, _ = sender.communicate()
        raise CheckFailed('pfabric send %s -> %s did not finish in %d s; its output:\n%s'
                          % (source.name, destination.name, FLOW_TIMEOUT_SECONDS, output))
    print('*** pfabric send: %s' % output.strip(), flush=True)
    check(sender.returncode == 0 and ('sent %s bytes to %s' % (format(SIZE_BYTES, ','), destination.name)) in output,
          'pfabric send %s -> %s failed (exit %d):\n%s' % (source.name, destination.name, sender.returncode, output))

    for host in net.hosts:
        daemon = host.hostd
        status = host.stop_hostd()
        check(status in CLEAN_EXITS, 'hostd %s exited with status %s on SIGTERM; its log:\n%s'
              % (host.name, status, daemon.log()))


def stop_switches(net):
    for switch in net.switches:
        daemon = switch.daemon
        status = switch.stop_daemon()
        check('pfabric switchd %s: stopped' % switch.name in daemon.log(),
              'switchd %s did not report its counters at stop; its log:\n%s' % (switch.name, daemon.log()))
        check(status in CLEAN_EXITS, 'switchd %s exited with status %s on SIGTERM; its log:\n%s'
              % (switch.name, status, daemon.log() if daemon else ''))


def cleanup(net):
    """What `mn -c` would do, limited to this network: stop its daemons and delete interfaces left behind."""
    if net is None:
        return
    for host in net.hosts:
        host.stop_hostd()
    for switch in net.switches:
        switch.stop_daemon()
    try:
        net.stop()
    except Exception as ex:  # noqa: BLE001 - cleanup goes on whatever failed
        print('*** net.stop failed: %s' % ex, flush=True)
    for switch in net.switches:
        for intf in switch.intfNames():
            if intf != 'lo' and os.path.exists('/sys/class/net/%s' % intf):
                subprocess.call(['ip', 'link', 'del', intf])


def interrupted(signum, _frame):
    raise CheckFailed('stopped by signal %d' % signum)


def main():
    signal.signal(signal.SIGTERM, interrupted)
    spec = sys.argv[1] if len(sys.argv) > 1 else 'star,2'
    if not os.environ.get('PFABRIC_MN_DIR'):
        os.environ['PFABRIC_MN_DIR'] = tempfile.mkdtemp(prefix='pfabric-mn-')
    setLogLevel('info')
    started = time.monotonic()
    net = None
    try:
        net = Mininet(topo=build_topo(spec), switch=pfabric_mn.PfabricSwitch, host=pfabric_mn.PfabricHost,
                      controller=None, autoStaticArp=False)
        net.start()
        loss = net.pingAll(timeout=5)
        check(loss == 0, 'pingAll lost %s%% of pings through switchd; switch logs:\n%s'
              % (loss, '\n'.join(s.daemon.log() for s in net.switches if s.daemon)))
        send_one_flow(net)
        stop_switches(net)
        print('*** selftest %s passed in %.1f s (logs in %s)'
              % (spec, time.monotonic() - started, os.environ['PFABRIC_MN_DIR']), flush=True)
        return 0
    except (CheckFailed, RuntimeError) as ex:
        print('*** selftest %s FAILED: %s' % (spec, ex), flush=True)
        return 1
    finally:
        cleanup(net)


if __name__ == '__main__':
    sys.exit(main())
