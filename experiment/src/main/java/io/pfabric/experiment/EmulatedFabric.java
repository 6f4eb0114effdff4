package io.pfabric.experiment;

import io.pfabric.common.topology.DisciplineSpec;
import io.pfabric.hostd.io.PacketIos;
import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.testbed.FabricRunner;

import java.io.IOException;

/**
 * A fabric an experiment runs its hosts on: a network namespace per host, and switches that forward between them.
 */
interface EmulatedFabric extends AutoCloseable
{
    /**
     * Brings fabrics up, one per scheme.
     */
    @FunctionalInterface
    interface Testbed
    {
        /**
         * Bring the fabric up with one queue discipline and its default buffer on every switch port.
         *
         * @param discipline pfabric or droptail.
         * @return the running fabric.
         * @throws IOException if it cannot be built.
         */
        EmulatedFabric up(DisciplineKind discipline) throws IOException;

        /**
         * Bring the fabric up with a discipline and its parameters on every switch port; by default only a
         * discipline as its name alone gives it, with its default buffer.
         *
         * @param discipline   {@code NAME[:PARAMS]}, with strict:N's thresholds given.
         * @param bufferLength bytes per port.
         * @return the running fabric.
         * @throws IOException if it cannot be built.
         * @throws IllegalArgumentException if this testbed cannot set the parameters.
         */
        default EmulatedFabric up(final String discipline, final long bufferLength) throws IOException
        {
            final DisciplineSpec spec = DisciplineSpec.parse(discipline);
            final DisciplineKind kind = DisciplineKind.byName(spec.name());
            if (!DisciplineSpec.parse(kind.cliName()).equals(spec) || kind.defaultCapacityLength() != bufferLength)
            {
                throw new IllegalArgumentException("this testbed runs disciplines without parameters, not '" +
                    discipline + "'");
            }
            return up(kind);
        }
    }

    /**
     * The network namespace a host runs in.
     *
     * @param host the host's name.
     * @return the namespace's name, for {@code ip netns}, or null for the namespace of this process.
     */
    String namespace(String host);

    /**
     * How hostd reaches the switches.
     *
     * @return a mode of {@link PacketIos}.
     */
    default String hostIo()
    {
        return PacketIos.UDP;
    }

    /**
     * The switches, when they run in this process (their counters are then reported).
     *
     * @return the switches, or null.
     */
    FabricRunner switches();

    /**
     * Tear the fabric down.
     *
     * @throws IOException if something could not be removed.
     */
    void close() throws IOException;
}
