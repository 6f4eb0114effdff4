package io.pfabric.hostd.transport;

import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

/**
 * What other threads ask of the transport (a new flow, new settings), queued as commands that the transport's thread
 * runs in the order they came, a batch per duty cycle.
 */
final class CommandQueue
{
    private final ManyToOneConcurrentArrayQueue<Runnable> commands =
        new ManyToOneConcurrentArrayQueue<>(HostTransport.COMMAND_QUEUE_CAPACITY);

    /**
     * Any thread.
     *
     * @return false if the queue is full.
     */
    boolean offer(final Runnable command)
    {
        return commands.offer(command);
    }

    boolean isEmpty()
    {
        return commands.isEmpty();
    }

    /**
     * Run the commands waiting, at most a limit.
     *
     * @return the commands run.
     */
    int run(final int limit)
    {
        int ran = 0;
        for (int i = 0; i < limit; i++)
        {
            final Runnable command = commands.poll();
            if (null == command)
            {
                break;
            }
            command.run();
            ran++;
        }
        return ran;
    }

    /**
     * Run every command waiting, and those they queue.
     */
    void runAll()
    {
        Runnable command;
        while (null != (command = commands.poll()))
        {
            command.run();
        }
    }
}
