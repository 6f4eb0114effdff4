/**
 * {@code pfabric reproduce}: the paper's figures as independent points, a registry of figures with their claims and
 * verdict rules ({@link io.pfabric.sim.reproduce.Figures}), plans for GNU parallel and Slurm, and the report.
 */
package io.pfabric.sim.reproduce;
