package io.pfabric.hostd.app;

import io.pfabric.hostd.transport.MessageChunks;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The messages a host received, on their way to the application socket's subscribers ({@link AppServer}): each goes
 * to every client subscribed when it arrives; one that arrives while no client is subscribed is kept, and the next
 * client to subscribe gets the kept ones first, in the order they arrived. At most {@link #maxKeptMessages()}
 * messages and {@link #maxKeptBytes()} bytes are kept: beyond either bound the oldest are dropped (a message longer
 * than the byte bound on its own at once), and counted. Memory grows with what arrived, up to the bounds. A
 * subscriber that falls {@link #SUBSCRIBER_QUEUE_CAPACITY} messages behind (or the kept count, if larger) loses
 * messages, counted, rather than stalling the transport.
 * <p>
 * The arrays are kept as given, never copied: whoever publishes one gives it up. {@link #publish} runs on the
 * transport's thread, once per message, and never waits but for a short lock it shares with subscribing. Cold path.
 */
public final class MessageInbox
{
    /**
     * Messages kept for the next subscriber by default.
     */
    public static final int DEFAULT_MAX_KEPT_MESSAGES = 1_024;

    /**
     * Bytes of messages kept for the next subscriber by default: 256 MiB.
     */
    public static final long DEFAULT_MAX_KEPT_BYTES = 256L * 1024 * 1024;

    /**
     * Messages a subscriber may fall behind before it loses some.
     */
    public static final int SUBSCRIBER_QUEUE_CAPACITY = 1_024;

    private final int maxKeptMessages;
    private final long maxKeptBytes;
    private final ArrayDeque<Message> kept = new ArrayDeque<>();
    private final List<Subscriber> subscribers = new ArrayList<>();
    private long keptBytes;
    private final AtomicLong keptDropped = new AtomicLong();
    private final AtomicLong subscriberDropped = new AtomicLong();

    /**
     * An inbox with the default bounds.
     */
    public MessageInbox()
    {
        this(DEFAULT_MAX_KEPT_MESSAGES, DEFAULT_MAX_KEPT_BYTES);
    }

    /**
     * An inbox keeping at most so many messages and bytes while no client is subscribed.
     *
     * @param maxKeptMessages messages kept, 0 or more.
     * @param maxKeptBytes    bytes kept, 0 or more.
     */
    public MessageInbox(final int maxKeptMessages, final long maxKeptBytes)
    {
        if (maxKeptMessages < 0 || maxKeptBytes < 0)
        {
            throw new IllegalArgumentException("the bounds of the kept messages must not be negative: " +
                maxKeptMessages + " messages, " + maxKeptBytes + " bytes");
        }
        this.maxKeptMessages = maxKeptMessages;
        this.maxKeptBytes = maxKeptBytes;
    }

    /**
     * Hand a received message to every subscriber, or keep it for the next one if there is none.
     *
     * @param sourceHost the sender's name.
     * @param flowId     the flow that carried it.
     * @param message    the message, given up by the caller.
     */
    public void publish(final String sourceHost, final long flowId, final byte[] message)
    {
        publish(sourceHost, flowId, MessageChunks.of(message));
    }

    /**
     * Hand a received message to every subscriber, or keep it for the next one if there is none.
     *
     * @param sourceHost the sender's name.
     * @param flowId     the flow that carried it.
     * @param message    the message in the transport's chunks, given up by the caller.
     */
    public synchronized void publish(final String sourceHost, final long flowId, final MessageChunks message)
    {
        final Message received = new Message(sourceHost, flowId, message);
        if (subscribers.isEmpty())
        {
            keep(received);
            return;
        }
        for (final Subscriber subscriber : subscribers)
        {
            if (!subscriber.messages.offer(received))
            {
                subscriberDropped.incrementAndGet();
            }
        }
    }

    private void keep(final Message message)
    {
        final int length = message.bytes().length();
        if (length > maxKeptBytes || 0 == maxKeptMessages)
        {
            keptDropped.incrementAndGet();
            return;
        }
        kept.addLast(message);
        keptBytes += length;
        while (kept.size() > maxKeptMessages || keptBytes > maxKeptBytes)
        {
            keptBytes -= kept.removeFirst().bytes().length();
            keptDropped.incrementAndGet();
        }
    }

    /**
     * A new subscriber, given the kept messages first.
     *
     * @return its queue of messages.
     */
    synchronized Subscriber subscribe()
    {
        final Subscriber subscriber = new Subscriber(Math.max(SUBSCRIBER_QUEUE_CAPACITY, maxKeptMessages));
        subscriber.messages.addAll(kept);
        kept.clear();
        keptBytes = 0;
        subscribers.add(subscriber);
        return subscriber;
    }

    /**
     * A subscriber leaves; messages from now on no longer go to it.
     *
     * @param subscriber the one that leaves.
     */
    synchronized void unsubscribe(final Subscriber subscriber)
    {
        subscribers.remove(subscriber);
    }

    /**
     * Subscribers now.
     *
     * @return the count.
     */
    public synchronized int subscribers()
    {
        return subscribers.size();
    }

    /**
     * Messages kept now for the next subscriber.
     *
     * @return the count.
     */
    public synchronized int keptMessages()
    {
        return kept.size();
    }

    /**
     * Messages that arrived while no client was subscribed and were dropped beyond the bounds.
     *
     * @return the count.
     */
    public long keptDropped()
    {
        return keptDropped.get();
    }

    /**
     * Messages subscribers lost because they did not keep up.
     *
     * @return the count.
     */
    public long subscriberDropped()
    {
        return subscriberDropped.get();
    }

    /**
     * The most messages kept while no client is subscribed.
     *
     * @return the count.
     */
    public int maxKeptMessages()
    {
        return maxKeptMessages;
    }

    /**
     * The most bytes of messages kept while no client is subscribed.
     *
     * @return bytes.
     */
    public long maxKeptBytes()
    {
        return maxKeptBytes;
    }

    /**
     * A message on its way to a subscriber.
     *
     * @param sourceHost the sender's name.
     * @param flowId     the flow that carried it.
     * @param bytes      the message.
     */
    record Message(String sourceHost, long flowId, MessageChunks bytes)
    {
    }

    /**
     * One subscriber's messages, in the order they arrived.
     */
    static final class Subscriber
    {
        private final BlockingQueue<Message> messages;

        Subscriber(final int capacity)
        {
            this.messages = new LinkedBlockingQueue<>(capacity);
        }

        /**
         * The next message, waiting for one.
         *
         * @return the message.
         * @throws InterruptedException if interrupted while waiting.
         */
        Message take() throws InterruptedException
        {
            return messages.take();
        }
    }
}
