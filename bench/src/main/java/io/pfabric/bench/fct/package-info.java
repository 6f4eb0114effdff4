/**
 * Flow completion times: the Ideal scheduler of the pFabric paper at flow level, and (to come) the normalization,
 * binning and plots of the experiments.
 */
package io.pfabric.bench.fct;
