/**
 * FCT experiments on emulated fabrics (network namespaces, Mininet, loopback): the load sweep, the kernel TCP replay,
 * the testbeds and the virtual-time port of the demo.
 */
package io.pfabric.experiment;
