package io.pfabric.common.control;

import org.agrona.MutableDirectBuffer;

/**
 * Judges received control messages: well formed, of an expected type, authentic, and new. Counts every message it
 * refuses by reason, so that forged, replayed and broken messages are visible and otherwise ignored.
 * <p>
 * The controller's inbox keeps a {@link ReplayWindow} per host, indexed by the message's host field; a host's inbox
 * accepts only messages addressed to it and keeps one window, for the controller.
 */
public final class ControlInbox
{
    /**
     * What became of a message.
     */
    public enum Outcome
    {
        /**
         * Well formed, authentic and new: act on it.
         */
        ACCEPTED,

        /**
         * Too short or long, a wrong magic, version, type, host or entry count.
         */
        MALFORMED,

        /**
         * The MAC does not match: not from a holder of the key, or altered.
         */
        UNAUTHENTICATED,

        /**
         * Accepted before.
         */
        DUPLICATE,

        /**
         * From an earlier epoch of its sender, or too far behind its newest message.
         */
        STALE
    }

    private final ControlAuthenticator authenticator;
    private final ReplayWindow[] windows;
    private final int addressedHost;
    private final int typeMask;
    private boolean newest;
    private long accepted;
    private long malformed;
    private long unauthenticated;
    private long duplicates;
    private long stale;

    private ControlInbox(
        final ControlAuthenticator authenticator, final int windowCount, final int addressedHost, final int typeMask)
    {
        this.authenticator = authenticator;
        this.addressedHost = addressedHost;
        this.typeMask = typeMask;
        windows = new ReplayWindow[windowCount];
        for (int i = 0; i < windowCount; i++)
        {
            windows[i] = new ReplayWindow();
        }
    }

    /**
     * The controller's inbox: DEMAND and OFFER messages from hosts 0 to {@code hostCount - 1}.
     *
     * @param authenticator under the shared key.
     * @param hostCount     hosts of the fabric.
     * @return the inbox.
     */
    public static ControlInbox forController(final ControlAuthenticator authenticator, final int hostCount)
    {
        return new ControlInbox(authenticator, hostCount, -1,
            (1 << ControlMessageFlyweight.TYPE_DEMAND) | (1 << ControlMessageFlyweight.TYPE_OFFER));
    }

    /**
     * A host's inbox: GRANTS and RATES messages addressed to it.
     *
     * @param authenticator under the shared key.
     * @param host          this host's index.
     * @return the inbox.
     */
    public static ControlInbox forHost(final ControlAuthenticator authenticator, final int host)
    {
        return new ControlInbox(authenticator, 1, host,
            (1 << ControlMessageFlyweight.TYPE_GRANTS) | (1 << ControlMessageFlyweight.TYPE_RATES));
    }

    /**
     * Judge a received datagram; on {@link Outcome#ACCEPTED} the flyweight is left wrapped over it.
     *
     * @param buffer  holding the datagram.
     * @param offset  of its first byte.
     * @param length  of the datagram.
     * @param message flyweight to wrap over it.
     * @return the outcome, also counted.
     */
    public Outcome accept(
        final MutableDirectBuffer buffer, final int offset, final int length, final ControlMessageFlyweight message)
    {
        if (length < ControlMessageFlyweight.HEADER_LENGTH + ControlMessageFlyweight.MAC_LENGTH ||
            length > ControlMessageFlyweight.MAX_MESSAGE_LENGTH)
        {
            malformed++;
            return Outcome.MALFORMED;
        }
        message.wrap(buffer, offset);
        final int type = message.type();
        final int host = message.host();
        if (ControlMessageFlyweight.MAGIC != message.magic() || ControlMessageFlyweight.VERSION != message.version() ||
            type > 30 || 0 == (typeMask & (1 << type)) || message.messageLength() != length ||
            (addressedHost >= 0 ? host != addressedHost : host >= windows.length))
        {
            malformed++;
            return Outcome.MALFORMED;
        }
        if (!authenticator.verify(buffer, offset, length))
        {
            unauthenticated++;
            return Outcome.UNAUTHENTICATED;
        }
        final ReplayWindow window = windows[addressedHost >= 0 ? 0 : host];
        final ReplayWindow.Verdict verdict = window.accept(message.epochNs(), message.sequence());
        newest = window.newestAccepted();
        switch (verdict)
        {
            case DUPLICATE:
                duplicates++;
                return Outcome.DUPLICATE;
            case STALE:
                stale++;
                return Outcome.STALE;
            default:
                accepted++;
                return Outcome.ACCEPTED;
        }
    }

    /**
     * Whether the message last accepted is the newest its sender has sent so far; a late one that was overtaken may
     * still carry grants, but its absolute values (rates, offers) are out of date.
     *
     * @return true if newest.
     */
    public boolean newest()
    {
        return newest;
    }

    /**
     * Messages accepted.
     *
     * @return the count.
     */
    public long accepted()
    {
        return accepted;
    }

    /**
     * Messages refused as malformed.
     *
     * @return the count.
     */
    public long malformed()
    {
        return malformed;
    }

    /**
     * Messages refused for a MAC that does not match.
     *
     * @return the count.
     */
    public long unauthenticated()
    {
        return unauthenticated;
    }

    /**
     * Messages refused as seen before.
     *
     * @return the count.
     */
    public long duplicates()
    {
        return duplicates;
    }

    /**
     * Messages refused as stale.
     *
     * @return the count.
     */
    public long stale()
    {
        return stale;
    }
}
