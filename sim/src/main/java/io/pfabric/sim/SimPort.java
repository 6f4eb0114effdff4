package io.pfabric.sim;

import io.pfabric.common.topology.DisciplineSpec;
import io.pfabric.dataplane.pacer.EgressPacer;
import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.dataplane.queue.EcnQueue;
import io.pfabric.dataplane.queue.QueueDiscipline;

/**
 * A simulated switch port or host NIC: switchd's queue drained by switchd's pacer at the link's rate onto a link of
 * a one-way delay to its peer, a host or a switch. A frame the queue drops goes back to the pool. A port of
 * pfabric-classes has the fabric's classes, and its longest frame is the pool's frame capacity, so a class's DRR
 * quantum is its weight times {@link PacketPool#FRAME_CAPACITY} bytes. Its role on a path is fixed when the fabric is
 * built, so that a drop is told with the port's role at no cost to the frames that pass.
 */
final class SimPort
{
    final QueueDiscipline queue;
    final EgressPacer pacer;
    final long rateBitsPerSec;
    final long delayNs;
    final boolean towardHost;
    final int peer;
    final PortRole role;
    long freeAtNs = Long.MIN_VALUE;
    long freeOrder;
    boolean freePending;

    SimPort(final DisciplineSpec kind, final SimFabric fabric, final long ecnThresholdLength,
        final long rateBitsPerSec, final long delayNs, final boolean towardHost, final int peer, final PortRole role,
        final PacketPool packets, final int storedLength, final int handleOffsetInStored, final DropListener drops)
    {
        this.queue = (EcnQueue.NAME.equals(kind.name()) ?
            new EcnQueue(fabric.bufferLength(), PacketPool.FRAME_CAPACITY, storedLength, ecnThresholdLength) :
            DisciplineKind.newQueue(kind, fabric.bufferLength(), PacketPool.FRAME_CAPACITY, storedLength,
                fabric.classes()))
            .dropHandler((buffer, offset, length, reason) ->
            {
                final int packet = buffer.getInt(offset + handleOffsetInStored);
                drops.onDrop(role, packet);
                packets.release(packet);
            });
        this.pacer = new EgressPacer(rateBitsPerSec, 1);
        this.rateBitsPerSec = rateBitsPerSec;
        this.delayNs = delayNs;
        this.towardHost = towardHost;
        this.peer = peer;
        this.role = role;
    }

    /**
     * Told of a frame a port's queue drops, before the frame goes back to the pool.
     */
    @FunctionalInterface
    interface DropListener
    {
        /**
         * @param role   the dropping port's role.
         * @param packet the frame, still described in the pool.
         */
        void onDrop(PortRole role, int packet);
    }
}
