/**
 * The fabric's topology file: an immutable model of hosts, switches, ports and links, its YAML parser and writer,
 * generators for star and leaf-spine fabrics, and the shortest-path routes a switch derives from it.
 */
package io.pfabric.common.topology;
