/**
 * Flow completion times: the Ideal scheduler of the pFabric paper at flow level, the best possible FCT per path,
 * normalized FCT by size bin, results tables and plots.
 */
package io.pfabric.analysis;
