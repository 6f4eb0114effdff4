package io.pfabric.controllerd.session;

import io.pfabric.common.control.ControlAuthenticator;
import io.pfabric.common.control.ControlChannel;
import io.pfabric.common.control.ControlInbox;
import io.pfabric.common.control.ControlMessageFlyweight;
import io.pfabric.common.packet.NettyTransport;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * The controller's end of the control protocol: one {@link ControlChannel}, a {@link ControlInbox} judging what
 * arrives, and the hosts' control addresses from the topology, where every message goes (never to a datagram's
 * source address). Messages are built in place with {@link #start}, then signed and sent with {@link #send}. Owned by
 * the controller's thread.
 */
public final class ControllerSession implements AutoCloseable
{
    /**
     * Handles each accepted message.
     */
    @FunctionalInterface
    public interface MessageHandler
    {
        /**
         * An accepted message.
         *
         * @param message wrapped over it, valid only during the call.
         * @param newest  whether it is its sender's newest so far.
         */
        void onMessage(ControlMessageFlyweight message, boolean newest);
    }

    private final ControlChannel channel;
    private final ControlAuthenticator authenticator;
    private final ControlInbox inbox;
    private final InetSocketAddress[] hostAddresses;
    private final long epochNs;
    private final ControlMessageFlyweight inbound = new ControlMessageFlyweight();
    private final ControlMessageFlyweight outbound = new ControlMessageFlyweight();
    private final UnsafeBuffer sendBuffer =
        new UnsafeBuffer(ByteBuffer.allocateDirect(ControlMessageFlyweight.MAX_MESSAGE_LENGTH));
    private final ControlChannel.DatagramHandler datagramHandler = this::onDatagram;
    private MessageHandler handler;
    private long sequence;
    private long messagesSent;

    private ControllerSession(
        final ControlChannel channel, final byte[] key, final List<InetSocketAddress> hostAddresses)
    {
        this.channel = channel;
        this.authenticator = new ControlAuthenticator(key);
        this.inbox = ControlInbox.forController(authenticator, hostAddresses.size());
        this.hostAddresses = hostAddresses.toArray(new InetSocketAddress[0]);
        this.epochNs = System.currentTimeMillis() * 1_000_000L;
    }

    /**
     * Bind the controller's socket; the calling thread becomes its owner.
     *
     * @param listen        address to bind.
     * @param transport     epoll or io_uring.
     * @param key           the shared key.
     * @param hostAddresses each host's control address, in topology order.
     * @return the session.
     * @throws IOException if the socket cannot be bound.
     */
    public static ControllerSession open(
        final InetSocketAddress listen,
        final NettyTransport transport,
        final byte[] key,
        final List<InetSocketAddress> hostAddresses) throws IOException
    {
        return new ControllerSession(ControlChannel.open(listen, transport), key, hostAddresses);
    }

    /**
     * @return the bound address.
     */
    public InetSocketAddress localAddress()
    {
        return channel.localAddress();
    }

    /**
     * @return hosts of the fabric.
     */
    public int hostCount()
    {
        return hostAddresses.length;
    }

    /**
     * Take what arrived, handing every accepted message to the handler.
     *
     * @param messageHandler given each accepted message.
     * @return datagrams received.
     */
    public int poll(final MessageHandler messageHandler)
    {
        handler = messageHandler;
        return channel.poll(datagramHandler);
    }

    /**
     * Wait up to a time for datagrams, handing every accepted message to the handler.
     *
     * @param messageHandler given each accepted message.
     * @param timeoutNs      longest wait.
     * @return datagrams received.
     */
    public int await(final MessageHandler messageHandler, final long timeoutNs)
    {
        handler = messageHandler;
        return channel.await(datagramHandler, timeoutNs);
    }

    private void onDatagram(final MutableDirectBuffer buffer, final int offset, final int length)
    {
        if (ControlInbox.Outcome.ACCEPTED == inbox.accept(buffer, offset, length, inbound))
        {
            handler.onMessage(inbound, inbox.newest());
        }
    }

    /**
     * Start a message to a host in the session's buffer.
     *
     * @param type {@link ControlMessageFlyweight#TYPE_GRANTS} or {@link ControlMessageFlyweight#TYPE_RATES}.
     * @param host the host it is for.
     * @return the message, to append entries to.
     */
    public ControlMessageFlyweight start(final int type, final int host)
    {
        return outbound.wrap(sendBuffer, 0).start(type, host, ++sequence, epochNs);
    }

    /**
     * Sign the message last started and send it to its host's control address.
     *
     * @return false if the socket would not take it.
     */
    public boolean send()
    {
        final int length = authenticator.sign(sendBuffer, 0, outbound.bodyLength());
        messagesSent++;
        return channel.send(hostAddresses[outbound.host()], sendBuffer, 0, length);
    }

    /**
     * @return what the inbox accepted and refused.
     */
    public ControlInbox inbox()
    {
        return inbox;
    }

    /**
     * @return messages sent.
     */
    public long messagesSent()
    {
        return messagesSent;
    }

    /**
     * @return datagrams the socket would not take.
     */
    public long sendFailures()
    {
        return channel.sendFailures();
    }

    /**
     * Close the socket; from the owning thread.
     */
    public void close()
    {
        channel.close();
    }
}
