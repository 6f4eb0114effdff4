/**
 * A switch port's way out: the pacer that turns a port into a link of a configured rate.
 */
package io.pfabric.switchd.egress;
