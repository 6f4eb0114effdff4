/**
 * {@code pfabric bench transport}: one hostd flow's goodput through switchd against the emulated line rate.
 */
package io.pfabric.bench.transport;
