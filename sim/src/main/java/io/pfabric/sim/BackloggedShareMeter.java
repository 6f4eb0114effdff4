package io.pfabric.sim;

import io.pfabric.dataplane.queue.PfabricClassQueue;
import io.pfabric.dataplane.queue.QueueDiscipline;

/**
 * Bytes each traffic class sends at each port with a {@link PfabricClassQueue} (switch ports, and hosts' NICs when
 * they have classes), counted in two ways: every frame that starts to leave the port, and only the frames that leave
 * while every class of the queue is backlogged there, that is while the departing frame's class held it and every
 * other class still holds a frame once it has left. Deficit round robin splits a port by weight only in that time,
 * so the second count is where the weights apply; a frame sent with its queue empty (passing straight through)
 * counts only in the first. Counted in frame lengths, the bytes the round robin charges, ACKs included.
 * <p>
 * The queues are read on the simulator's thread, their owner, as each frame leaves; the counters are allocated when
 * the meter is given to a simulator ({@link Simulator#transmitObserver(TransmitObserver)}) and nothing after.
 */
public final class BackloggedShareMeter implements TransmitObserver
{
    private int[] portOffset = new int[0];
    private int[] switchOfPort = new int[0];
    private int[] portOfPort = new int[0];
    private PfabricClassQueue[] queues = new PfabricClassQueue[0];
    private int stride;
    private long[] departedBytes = new long[0];
    private long[] backloggedBytes = new long[0];
    private long[] stretches = new long[0];
    private boolean[] inStretch = new boolean[0];

    /**
     * {@inheritDoc}
     */
    public void onAttach(final Simulator simulator)
    {
        final int switchCount = simulator.switchCount();
        portOffset = new int[switchCount];
        int portTotal = 0;
        for (int s = 0; s < switchCount; s++)
        {
            portOffset[s] = portTotal;
            portTotal += simulator.portCount(s);
        }
        switchOfPort = new int[portTotal];
        portOfPort = new int[portTotal];
        queues = new PfabricClassQueue[portTotal];
        int maxClasses = 0;
        for (int s = 0; s < switchCount; s++)
        {
            for (int p = 0; p < simulator.portCount(s); p++)
            {
                final int index = portOffset[s] + p;
                switchOfPort[index] = s;
                portOfPort[index] = p;
                final QueueDiscipline queue = simulator.queue(s, p);
                if (queue instanceof final PfabricClassQueue classQueue)
                {
                    queues[index] = classQueue;
                    maxClasses = Math.max(maxClasses, classQueue.classes().classCount());
                }
            }
        }
        stride = maxClasses;
        departedBytes = new long[portTotal * stride];
        backloggedBytes = new long[portTotal * stride];
        stretches = new long[portTotal];
        inStretch = new boolean[portTotal];
    }

    /**
     * Counts nothing: without its DSCP a frame has no class.
     *
     * {@inheritDoc}
     */
    public void onTransmit(final int switchIndex, final int port, final long nowNs, final int payloadLength)
    {
    }

    /**
     * {@inheritDoc}
     */
    public void onTransmit(
        final int switchIndex, final int port, final long nowNs, final int payloadLength, final int frameLength,
        final int dscp)
    {
        final int index = portOffset[switchIndex] + port;
        final PfabricClassQueue queue = queues[index];
        if (null == queue)
        {
            return;
        }
        final int trafficClass = queue.classOf(dscp);
        departedBytes[index * stride + trafficClass] += frameLength;
        final int classCount = queue.classes().classCount();
        for (int k = 0; k < classCount; k++)
        {
            if (k != trafficClass && 0 == queue.classPacketCount(k))
            {
                inStretch[index] = false;
                return;
            }
        }
        backloggedBytes[index * stride + trafficClass] += frameLength;
        if (!inStretch[index])
        {
            stretches[index]++;
        }
        inStretch[index] = 0 != queue.classPacketCount(trafficClass);
    }

    /**
     * Ports counted: every port of every switch, the hosts' NICs last, numbered as the simulator numbers them,
     * switch by switch.
     *
     * @return the ports, 0 before the meter is given to a simulator.
     */
    public int ports()
    {
        return queues.length;
    }

    /**
     * The switch of a port, as {@link Simulator#queue(int, int)} numbers it.
     *
     * @param index the port, from 0 to {@link #ports()}.
     * @return the switch.
     */
    public int switchIndex(final int index)
    {
        return switchOfPort[index];
    }

    /**
     * The port's number on its switch, as {@link Simulator#queue(int, int)} numbers it.
     *
     * @param index the port, from 0 to {@link #ports()}.
     * @return the port on its switch.
     */
    public int port(final int index)
    {
        return portOfPort[index];
    }

    /**
     * How many classes the port's queue has.
     *
     * @param index the port.
     * @return the classes, 0 if its queue has none.
     */
    public int classCount(final int index)
    {
        final PfabricClassQueue queue = queues[index];
        return null == queue ? 0 : queue.classes().classCount();
    }

    /**
     * Bytes of a class that left the port.
     *
     * @param index        the port.
     * @param trafficClass the class.
     * @return frame bytes.
     */
    public long departedBytes(final int index, final int trafficClass)
    {
        return departedBytes[index * stride + trafficClass];
    }

    /**
     * Bytes of a class that left the port while every class of its queue was backlogged there.
     *
     * @param index        the port.
     * @param trafficClass the class.
     * @return frame bytes.
     */
    public long backloggedBytes(final int index, final int trafficClass)
    {
        return backloggedBytes[index * stride + trafficClass];
    }

    /**
     * Stretches at the port in which every class stayed backlogged: runs of consecutive frames each sent while every
     * class was backlogged, a run ending when a class is left without frames. Deficit round robin's bound on the
     * split by weight holds over each stretch, so the bound on a port's bytes is this many times it.
     *
     * @param index the port.
     * @return the stretches.
     */
    public long stretches(final int index)
    {
        return stretches[index];
    }

    /**
     * Bytes of a class that left any port while every class of that port's queue was backlogged there.
     *
     * @param trafficClass the class.
     * @return frame bytes, summed over the ports.
     */
    public long backloggedBytes(final int trafficClass)
    {
        long sum = 0;
        for (int index = 0; index < queues.length; index++)
        {
            if (trafficClass < classCount(index))
            {
                sum += backloggedBytes[index * stride + trafficClass];
            }
        }
        return sum;
    }
}
