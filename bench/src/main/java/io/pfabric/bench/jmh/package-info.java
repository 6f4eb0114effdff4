/**
 * JMH micro-benchmarks and the command that runs them.
 */
package io.pfabric.bench.jmh;
