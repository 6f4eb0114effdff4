/**
 * The workload generator of the pFabric evaluation: flow sizes drawn from a CDF as ns-2 draws them, Poisson arrivals
 * at a load counted on the access link, uniformly random destinations; and the FCT log every flow ends in.
 */
package io.pfabric.hostd.workload;
