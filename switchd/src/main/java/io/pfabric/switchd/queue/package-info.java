/**
 * Egress queue disciplines of the switch: pFabric, drop-tail, ECN marking and strict priority, each byte-bounded
 * over pre-allocated off-heap packet slots.
 */
package io.pfabric.switchd.queue;
