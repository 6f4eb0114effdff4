/**
 * Counters that one agent writes and any thread reads.
 */
package io.pfabric.common.status;
