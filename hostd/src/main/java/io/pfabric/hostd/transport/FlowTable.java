package io.pfabric.hostd.transport;

import org.agrona.collections.Long2LongHashMap;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The flows this host is sending, each in a slot (the index the {@link SendScheduler}'s heaps keep): its
 * {@link FlowSender}, its payload (null for zeros) and the future the application waits on, and the slot of each flow
 * id, for its ACKs. A finished flow's slot is reused; the arrays grow by doubling and never shrink.
 */
final class FlowTable
{
    /**
     * {@link #slotOf} of a flow not in the table.
     */
    static final int NO_SLOT = -1;

    private static final int INITIAL_CAPACITY = 64;

    private final Long2LongHashMap slotByFlow = new Long2LongHashMap(NO_SLOT);
    private FlowSender[] senders = new FlowSender[INITIAL_CAPACITY];
    private byte[][] payloads = new byte[INITIAL_CAPACITY][];
    @SuppressWarnings({ "unchecked", "rawtypes" })
    private CompletableFuture<FlowRecord>[] futures = new CompletableFuture[INITIAL_CAPACITY];
    private int[] freeSlots = new int[INITIAL_CAPACITY];
    private int freeCount;
    private int slotLimit;

    /**
     * Take a slot for a new flow.
     *
     * @return the slot.
     */
    int add(final FlowSender sender, final byte[] payload, final CompletableFuture<FlowRecord> future)
    {
        final int slot = allocateSlot();
        senders[slot] = sender;
        payloads[slot] = payload;
        futures[slot] = future;
        slotByFlow.put(sender.flowId(), slot);
        return slot;
    }

    /**
     * Free a flow's slot.
     *
     * @return the future its application waits on, for the caller to complete.
     */
    CompletableFuture<FlowRecord> remove(final int slot)
    {
        slotByFlow.remove(senders[slot].flowId());
        final CompletableFuture<FlowRecord> future = futures[slot];
        senders[slot] = null;
        payloads[slot] = null;
        futures[slot] = null;
        freeSlots[freeCount++] = slot;
        return future;
    }

    int slotOf(final long flowId)
    {
        return (int)slotByFlow.get(flowId);
    }

    /**
     * The slot of the flow whose application waits on a future: a walk over the slots, for rare commands only.
     */
    int slotOf(final CompletableFuture<FlowRecord> future)
    {
        for (int slot = 0; slot < slotLimit; slot++)
        {
            if (future == futures[slot])
            {
                return slot;
            }
        }
        return NO_SLOT;
    }

    FlowSender sender(final int slot)
    {
        return senders[slot];
    }

    byte[] payload(final int slot)
    {
        return payloads[slot];
    }

    int size()
    {
        return slotByFlow.size();
    }

    /**
     * The slots in use now, in order: a copy, so that flows may finish while the caller walks it.
     */
    int[] occupiedSlots()
    {
        final int[] occupied = new int[slotLimit];
        int count = 0;
        for (int slot = 0; slot < slotLimit; slot++)
        {
            if (null != senders[slot])
            {
                occupied[count++] = slot;
            }
        }
        return Arrays.copyOf(occupied, count);
    }

    void forEach(final Consumer<FlowSender> visitor)
    {
        for (int slot = 0; slot < slotLimit; slot++)
        {
            if (null != senders[slot])
            {
                visitor.accept(senders[slot]);
            }
        }
    }

    /**
     * See {@link HostTransport#destinationBacklog(int[], int[])}.
     */
    void destinationBacklog(final int[] sendablePackets, final int[] activeFlows)
    {
        Arrays.fill(sendablePackets, 0);
        Arrays.fill(activeFlows, 0);
        for (int slot = 0; slot < slotLimit; slot++)
        {
            final FlowSender sender = senders[slot];
            if (null != sender && !sender.isComplete())
            {
                final int destination = sender.destinationHost();
                sendablePackets[destination] += sender.sendablePackets();
                activeFlows[destination]++;
            }
        }
    }

    private int allocateSlot()
    {
        if (freeCount > 0)
        {
            return freeSlots[--freeCount];
        }
        if (slotLimit == senders.length)
        {
            final int capacity = senders.length * 2;
            senders = Arrays.copyOf(senders, capacity);
            payloads = Arrays.copyOf(payloads, capacity);
            futures = Arrays.copyOf(futures, capacity);
            freeSlots = Arrays.copyOf(freeSlots, capacity);
        }
        return slotLimit++;
    }
}
