/**
 * Forwarding: which egress ports lead to each host.
 */
package io.pfabric.switchd.table;
