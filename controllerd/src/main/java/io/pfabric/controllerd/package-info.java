/**
 * The optional central controller: timeslot allocation ({@link io.pfabric.controllerd.syn}, SYN) and rate
 * normalization ({@link io.pfabric.controllerd.asy}, ASY).
 */
package io.pfabric.controllerd;
