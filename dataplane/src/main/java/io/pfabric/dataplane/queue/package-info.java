/**
 * Egress queue disciplines, of a switch port or a host NIC: pFabric, drop-tail, ECN marking, strict priority, and
 * pFabric within weighted traffic classes, each byte-bounded over pre-allocated off-heap packet slots.
 */
package io.pfabric.dataplane.queue;
