/**
 * {@code pfabric bench transport}: hostd (over kernel UDP on drop-tail and on pFabric ports, and over raw IPv4) and
 * the kernel's TCP side by side, one flow each through the same paced switchd path: goodput, round trip and the
 * machine's CPU per megabyte.
 */
package io.pfabric.bench.transport;
