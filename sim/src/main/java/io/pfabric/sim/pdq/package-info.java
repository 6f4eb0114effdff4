/**
 * PDQ (Hong, Caesar and Godfrey, SIGCOMM 2012), the pFabric paper's strongest baseline, as pure classes on time passed
 * in: the sender's state machine ({@link io.pfabric.sim.pdq.PdqSender}), each link's flow controller
 * ({@link io.pfabric.sim.pdq.PdqLinkController}), the scheduling header and the packets that carry it
 * ({@link io.pfabric.sim.pdq.PdqPacketFlyweight}), and the variants' settings ({@link io.pfabric.sim.pdq.PdqSettings}).
 * They run in the simulator only: the 16-byte scheduling header and the per-link flow lists are not in pfabric's wire
 * format or in switchd.
 */
package io.pfabric.sim.pdq;
