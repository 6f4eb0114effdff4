/**
 * Helpers for reading settings: durations and sizes as written on a command line.
 */
package io.pfabric.common.config;
