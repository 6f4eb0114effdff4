/**
 * {@code pfabric bench forwarding}: switchd against the Linux bridge and Open vSwitch's userspace datapath on the same
 * two-host veth fabric, with the same traffic generator, in one run; and the paced egress rate against the configured
 * one.
 */
package io.pfabric.bench.forwarding;
