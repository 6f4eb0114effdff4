/**
 * What the namespace benchmarks share: their fabric and the resources opened on it, closed as one.
 */
package io.pfabric.bench.netns;
