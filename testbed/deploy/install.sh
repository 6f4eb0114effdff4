#!/usr/bin/env bash
# Install pfabric on a server for the systemd units: builds the repository (through its launcher), copies the
# launcher, the cli jar and its libraries to PREFIX (default /opt/pfabric), the units to /etc/systemd/system, and
# creates the 'pfabric' system user and /etc/pfabric. Run as root from a checkout: testbed/deploy/install.sh
# Needs a JDK >= 21 on the server too (the launcher runs java from it).
set -euo pipefail

PREFIX="${PREFIX:-/opt/pfabric}"
UNIT_DIR="${UNIT_DIR:-/etc/systemd/system}"
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

[[ "$(id -u)" -eq 0 ]] || { echo "install.sh: run as root" >&2; exit 1; }

"$REPO/pfabric" --version >/dev/null
jar="$(ls "$REPO"/cli/target/pfabric-cli-*.jar | grep -v -- '-tests.jar' | head -n 1)"

mkdir -p "$PREFIX/cli/target" "$PREFIX/.pfabric"
install -m 0755 "$REPO/pfabric" "$PREFIX/pfabric"
rm -f "$PREFIX"/cli/target/pfabric-cli-*.jar
install -m 0644 "$jar" "$PREFIX/cli/target/"
rm -rf "$PREFIX/cli/target/lib"
cp -r "$REPO/cli/target/lib" "$PREFIX/cli/target/lib"
chmod -R a+rX "$PREFIX"
# The launcher rebuilds when sources are newer than this stamp; an install has no sources, so it never does.
touch "$PREFIX/.pfabric/build.stamp"

install -m 0644 "$REPO"/testbed/deploy/pfabric-*@.service "$UNIT_DIR/"
getent passwd pfabric >/dev/null || useradd --system --no-create-home --shell /usr/sbin/nologin pfabric
mkdir -p /etc/pfabric
command -v systemctl >/dev/null && systemctl daemon-reload || true
echo "installed pfabric in $PREFIX and its units in $UNIT_DIR; put the topology in /etc/pfabric/topology.yaml"
