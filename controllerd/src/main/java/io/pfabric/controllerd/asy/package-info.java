/**
 * ASY, central rate allocation: the offered-rate matrix scaled by rows and columns (Sinkhorn) into a doubly
 * sub-stochastic rate matrix, {@link io.pfabric.controllerd.asy.RateNormalizer}.
 */
package io.pfabric.controllerd.asy;
