/**
 * Testbeds: a topology made real in network namespaces, with the switches run in one process.
 */
package io.pfabric.testbed;
