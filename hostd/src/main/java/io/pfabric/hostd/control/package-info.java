/**
 * The host's side of central control: SYN timeslot grants ({@link io.pfabric.hostd.control.SynAdmission}),
 * ASY rate buckets ({@link io.pfabric.hostd.control.AsyAdmission}) and the control session that reports demand,
 * applies what the controller sends and falls back to pFabric when it is silent
 * ({@link io.pfabric.hostd.control.HostControl}).
 */
package io.pfabric.hostd.control;
