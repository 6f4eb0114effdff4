/**
 * The packet-level discrete-event simulator: hostd's transport and the data plane's queue disciplines on virtual
 * time, with modelled TCP and DCTCP baselines and the controller's allocators.
 */
package io.pfabric.sim;
