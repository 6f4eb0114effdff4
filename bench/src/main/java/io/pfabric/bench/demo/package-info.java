/**
 * The {@code pfabric demo} command: the queue disciplines on one egress port, on virtual time.
 */
package io.pfabric.bench.demo;
