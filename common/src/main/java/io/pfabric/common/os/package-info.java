/**
 * The operating system's own tools, run from Java on the cold path.
 */
package io.pfabric.common.os;
