/**
 * The pacer that turns a port or a host NIC into a link of a configured rate.
 */
package io.pfabric.dataplane.pacer;
