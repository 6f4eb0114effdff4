"""Build a pfabric fabric in Mininet and hold it for `pfabric experiment --testbed mininet`.

    /usr/bin/python3 testbed/mininet/fabric.py --topo star:4 --rate 100m --discipline pfabric \
        --buffer 36000 --netns-prefix pfexp

builds the topology with Mininet and PfabricSwitch (one `pfabric switchd` per switch, on the switch's interfaces),
waits until every switch forwards, attaches each host's network namespace as PREFIX-HOST for `ip netns`, prints
READY on standard output and holds the network until standard input closes (or SIGTERM, SIGINT), then removes the
attachments and stops the network. Errors go to standard error with a non-zero exit status.
"""

import argparse
import functools
import os
import re
import signal
import subprocess
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from mininet.clean import cleanup  # noqa: E402
from mininet.log import setLogLevel  # noqa: E402
from mininet.net import Mininet  # noqa: E402

import pfabric_mn  # noqa: E402


def topology(spec):
    """star:N, leafspine:LxHxS or fattree:K -> a Mininet Topo of pfabric_mn."""
    star = re.fullmatch(r'star:(\d+)', spec)
    if star:
        return pfabric_mn.StarTopo(n=int(star.group(1)))
    leaf_spine = re.fullmatch(r'leafspine:(\d+)x(\d+)x(\d+)', spec)
    if leaf_spine:
        leaves, hosts, spines = (int(g) for g in leaf_spine.groups())
        return pfabric_mn.LeafSpineTopo(leaves=leaves, hosts=hosts, spines=spines)
    fat_tree = re.fullmatch(r'fattree:(\d+)', spec)
    if fat_tree:
        return pfabric_mn.FatTreeTopo(k=int(fat_tree.group(1)))
    raise ValueError("--topo must be star:N, leafspine:LxHxS or fattree:K, not '%s'" % spec)


def attach(net, prefix):
    """Name every host's namespace PREFIX-HOST for ip netns; returns the names."""
    names = []
    for host in net.hosts:
        name = '%s-%s' % (prefix, host.name)
        subprocess.run(['ip', 'netns', 'delete', name], stderr=subprocess.DEVNULL, check=False)
        subprocess.run(['ip', 'netns', 'attach', name, str(host.pid)], check=True)
        names.append(name)
    return names


def detach(names):
    for name in names:
        subprocess.run(['ip', 'netns', 'delete', name], stderr=subprocess.DEVNULL, check=False)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--topo', required=True, help='star:N, leafspine:LxHxS or fattree:K')
    parser.add_argument('--rate', default='100m', help='every link, e.g. 100m')
    parser.add_argument('--discipline', default='pfabric', help='pfabric, droptail, ecn or strict')
    parser.add_argument('--buffer', type=int, default=None, help='bytes per port')
    parser.add_argument('--netns-prefix', default='pfmn', help='prefix of the attached namespace names')
    parser.add_argument('--run-dir', default=None, help='where topology files and switch logs go')
    args = parser.parse_args()
    if os.geteuid() != 0:
        sys.exit('fabric.py: Mininet needs root')
    if args.run_dir:
        os.environ['PFABRIC_MN_DIR'] = args.run_dir

    setLogLevel('warning')
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    net = None
    names = []
    try:
        switch = functools.partial(pfabric_mn.PfabricSwitch, rate=args.rate, discipline=args.discipline,
                                   buffer=args.buffer)
        net = Mininet(topo=topology(args.topo), switch=switch, host=pfabric_mn.PfabricHost, controller=None,
                      autoSetMacs=False)
        net.start()
        names = attach(net, args.netns_prefix)
        print('READY', flush=True)
        watcher = threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True)
        watcher.start()
        stop.wait()
        return 0
    except Exception as error:  # noqa: BLE001 - reported, then the network is cleaned up
        print('fabric.py: %s' % error, file=sys.stderr)
        return 1
    finally:
        detach(names)
        if net is not None:
            try:
                net.stop()
            except Exception as error:  # noqa: BLE001
                print('fabric.py: stopping the network: %s' % error, file=sys.stderr)
                cleanup()


if __name__ == '__main__':
    sys.exit(main())
