package io.pfabric.testbed.control;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * A bad network for control messages on loopback: each of its sockets forwards what it receives to one fixed
 * address, losing, duplicating and reordering datagrams, and a forger adds datagrams of its own (signed under another
 * key, or garbage) toward every destination once told that every destination is listening. Runs on its own thread
 * until closed.
 */
final class LossyControlRelay implements AutoCloseable
{
    private final List<DatagramChannel> channels = new ArrayList<>();
    private final List<InetSocketAddress> targets = new ArrayList<>();
    private final List<byte[]> forgeries;
    private final double lossRate;
    private final double duplicateRate;
    private final Random random = new Random(17);
    private final Thread thread;
    private static final long FORGER_INTERVAL_NS = 5_000_000L;

    private volatile boolean running = true;
    private volatile boolean forging;
    private volatile long forwarded;
    private volatile long lost;
    private volatile long duplicated;
    private volatile long forged;

    /**
     * A relay.
     *
     * @param targets       one socket is bound per target, forwarding to it.
     * @param lossRate      fraction of datagrams dropped.
     * @param duplicateRate fraction sent twice.
     * @param forgeries     datagrams the forger sends to every target every 5 ms once {@link #startForging()} was called.
     * @throws IOException if a socket cannot be bound.
     */
    LossyControlRelay(final List<InetSocketAddress> targets, final double lossRate, final double duplicateRate,
        final List<byte[]> forgeries) throws IOException
    {
        this.lossRate = lossRate;
        this.duplicateRate = duplicateRate;
        this.forgeries = forgeries;
        for (final InetSocketAddress target : targets)
        {
            final DatagramChannel channel = DatagramChannel.open();
            channel.bind(new InetSocketAddress("127.0.0.1", 0));
            channel.configureBlocking(false);
            channels.add(channel);
            this.targets.add(target);
        }
        thread = new Thread(this::run, "lossy-control-relay");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * The address that forwards to a target.
     *
     * @param index of the target.
     * @return the relay socket's address.
     */
    InetSocketAddress entry(final int index)
    {
        try
        {
            return (InetSocketAddress)channels.get(index).getLocalAddress();
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * Let the forger start: call once every target's socket is bound, so that no forgery meets a closed port.
     */
    void startForging()
    {
        forging = true;
    }

    private void run()
    {
        final ByteBuffer buffer = ByteBuffer.allocate(2_048);
        final List<Object[]> held = new ArrayList<>();
        long nextForgeryNs = 0;
        try (DatagramChannel out = DatagramChannel.open())
        {
            while (running)
            {
                boolean any = false;
                for (int i = 0; i < channels.size(); i++)
                {
                    buffer.clear();
                    final SocketAddress from = channels.get(i).receive(buffer);
                    if (null == from)
                    {
                        continue;
                    }
                    any = true;
                    buffer.flip();
                    final byte[] datagram = new byte[buffer.remaining()];
                    buffer.get(datagram);
                    if (random.nextDouble() < lossRate)
                    {
                        lost++;
                        continue;
                    }
                    held.add(new Object[] { datagram, targets.get(i) });
                    if (random.nextDouble() < duplicateRate)
                    {
                        held.add(new Object[] { datagram.clone(), targets.get(i) });
                        duplicated++;
                    }
                }
                if (!held.isEmpty() && (!any || held.size() >= 8))
                {
                    Collections.shuffle(held, random);
                    for (final Object[] datagram : held)
                    {
                        out.send(ByteBuffer.wrap((byte[])datagram[0]), (InetSocketAddress)datagram[1]);
                        forwarded++;
                    }
                    held.clear();
                }
                final long nowNs = System.nanoTime();
                if (forging && nowNs - nextForgeryNs >= 0)
                {
                    nextForgeryNs = nowNs + FORGER_INTERVAL_NS;
                    for (final InetSocketAddress target : targets)
                    {
                        for (final byte[] forgery : forgeries)
                        {
                            out.send(ByteBuffer.wrap(forgery), target);
                            forged++;
                        }
                    }
                }
                if (!any)
                {
                    // Back-off of an idle relay between polls, not a wait for a condition.
                    Thread.sleep(0, 50_000);
                }
            }
        }
        catch (final IOException | InterruptedException ex)
        {
            running = false;
        }
    }

    /**
     * @return datagrams passed on, duplicates included.
     */
    long forwarded()
    {
        return forwarded;
    }

    /**
     * @return datagrams dropped.
     */
    long lost()
    {
        return lost;
    }

    /**
     * @return datagrams sent twice.
     */
    long duplicated()
    {
        return duplicated;
    }

    /**
     * @return datagrams the forger sent.
     */
    long forged()
    {
        return forged;
    }

    public void close() throws IOException
    {
        running = false;
        try
        {
            thread.join(5_000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        for (final DatagramChannel channel : channels)
        {
            channel.close();
        }
    }
}
