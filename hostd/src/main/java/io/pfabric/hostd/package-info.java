/**
 * pFabric's host transport: per-flow sender and receiver state machines on an injected clock, the host scheduler
 * that sends the most urgent flow's next packet at the NIC's rate, the I/O that carries packets, the application API
 * and the workload generator.
 */
package io.pfabric.hostd;
