package io.pfabric.common.control;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static io.pfabric.common.control.ControlInbox.Outcome.ACCEPTED;
import static io.pfabric.common.control.ControlInbox.Outcome.DUPLICATE;
import static io.pfabric.common.control.ControlInbox.Outcome.MALFORMED;
import static io.pfabric.common.control.ControlInbox.Outcome.STALE;
import static io.pfabric.common.control.ControlInbox.Outcome.UNAUTHENTICATED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ControlInboxTest
{
    static final byte[] KEY = "a shared key of thirty-two bytes".getBytes(StandardCharsets.US_ASCII);
    private static final long EPOCH_NS = 1_700_000_000_000_000_000L;

    private final ControlAuthenticator authenticator = new ControlAuthenticator(KEY);
    private final ControlMessageFlyweight message = new ControlMessageFlyweight();
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[ControlMessageFlyweight.MAX_MESSAGE_LENGTH]);

    private int demand(final int host, final long sequence, final long epochNs, final long... totals)
    {
        message.wrap(buffer, 0).start(ControlMessageFlyweight.TYPE_DEMAND, host, sequence, epochNs);
        for (int i = 0; i < totals.length; i++)
        {
            message.appendEntry(i, 0, 0, totals[i]);
        }
        return authenticator.sign(buffer, 0, message.bodyLength());
    }

    @Test
    void aSignedMessageIsReadBackEntryByEntry()
    {
        final ControlInbox controller = ControlInbox.forController(authenticator, 8);
        message.wrap(buffer, 0).start(ControlMessageFlyweight.TYPE_DEMAND, 5, 1, EPOCH_NS);
        message.appendEntry(3, 0, 0, 1_000_000_007L);
        message.appendEntry(7, 2, ControlMessageFlyweight.FLAG_TOTAL, Long.MAX_VALUE);
        final int length = authenticator.sign(buffer, 0, message.bodyLength());
        assertEquals(ControlMessageFlyweight.HEADER_LENGTH + 2 * ControlMessageFlyweight.ENTRY_LENGTH +
            ControlMessageFlyweight.MAC_LENGTH, length);

        final ControlMessageFlyweight read = new ControlMessageFlyweight();
        assertEquals(ACCEPTED, controller.accept(buffer, 0, length, read));
        assertEquals(ControlMessageFlyweight.TYPE_DEMAND, read.type());
        assertEquals(5, read.host());
        assertEquals(1, read.sequence());
        assertEquals(EPOCH_NS, read.epochNs());
        assertEquals(2, read.entryCount());
        assertEquals(3, read.entryPeer(0));
        assertEquals(1_000_000_007L, read.entryValue(0));
        assertEquals(7, read.entryPeer(1));
        assertEquals(2, read.entrySpine(1));
        assertEquals(ControlMessageFlyweight.FLAG_TOTAL, read.entryFlags(1));
        assertEquals(Long.MAX_VALUE, read.entryValue(1));
    }

    @Test
    void anAlteredMessageOrAnotherKeyIsRefusedAsUnauthenticated()
    {
        final ControlInbox controller = ControlInbox.forController(authenticator, 8);
        int length = demand(1, 1, EPOCH_NS, 10, 20);
        buffer.putByte(ControlMessageFlyweight.HEADER_LENGTH + 15, (byte)(buffer.getByte(
            ControlMessageFlyweight.HEADER_LENGTH + 15) + 1));
        assertEquals(UNAUTHENTICATED, controller.accept(buffer, 0, length, message));

        final ControlAuthenticator forger =
            new ControlAuthenticator("another key, also 32 bytes long!".getBytes(StandardCharsets.US_ASCII));
        message.wrap(buffer, 0).start(ControlMessageFlyweight.TYPE_DEMAND, 1, 2, EPOCH_NS);
        message.appendEntry(0, 0, 0, 1 << 20);
        length = forger.sign(buffer, 0, message.bodyLength());
        assertEquals(UNAUTHENTICATED, controller.accept(buffer, 0, length, message));
        assertEquals(2, controller.unauthenticated());
        assertEquals(0, controller.accepted());

        length = demand(1, 3, EPOCH_NS, 10);
        assertEquals(ACCEPTED, controller.accept(buffer, 0, length, message), "forgeries left the window intact");
    }

    @Test
    void replaysAreRefusedAndReorderingWithinTheWindowIsNot()
    {
        final ControlInbox controller = ControlInbox.forController(authenticator, 4);
        final int length5 = demand(2, 5, EPOCH_NS, 1);
        assertEquals(ACCEPTED, controller.accept(buffer, 0, length5, message));
        assertTrue(controller.newest());
        assertEquals(DUPLICATE, controller.accept(buffer, 0, length5, message));

        assertEquals(ACCEPTED, controller.accept(buffer, 0, demand(2, 9, EPOCH_NS, 1), message));
        assertTrue(controller.newest());
        assertEquals(ACCEPTED, controller.accept(buffer, 0, demand(2, 7, EPOCH_NS, 1), message));
        assertFalse(controller.newest(), "7 arrived after 9");
        assertEquals(DUPLICATE, controller.accept(buffer, 0, demand(2, 7, EPOCH_NS, 1), message));

        assertEquals(ACCEPTED, controller.accept(buffer, 0, demand(2, 9 + ReplayWindow.WINDOW, EPOCH_NS, 1), message));
        assertEquals(STALE, controller.accept(buffer, 0, demand(2, 9, EPOCH_NS, 1), message), "fell off the window");
        assertEquals(ACCEPTED, controller.accept(buffer, 0, demand(3, 9, EPOCH_NS, 1), message),
            "each host has its own window");

        assertEquals(STALE, controller.accept(buffer, 0, demand(2, 1_000, EPOCH_NS - 1, 1), message),
            "an earlier epoch of the sender");
        assertEquals(ACCEPTED, controller.accept(buffer, 0, demand(2, 1, EPOCH_NS + 1, 1), message),
            "a restarted sender begins a new window");
        assertEquals(STALE, controller.accept(buffer, 0, demand(2, 9 + ReplayWindow.WINDOW + 1, EPOCH_NS, 1),
            message), "the old epoch is over");
        assertEquals(2, controller.duplicates());
        assertEquals(3, controller.stale());
    }

    @Test
    void malformedMessagesAreCountedAndRefused()
    {
        final ControlInbox controller = ControlInbox.forController(authenticator, 4);
        final ControlInbox host = ControlInbox.forHost(authenticator, 2);

        assertEquals(MALFORMED, controller.accept(buffer, 0, 10, message), "shorter than a header and MAC");
        int length = demand(1, 1, EPOCH_NS, 1, 2);
        assertEquals(MALFORMED, controller.accept(buffer, 0, length - 1, message), "count and length disagree");
        assertEquals(MALFORMED, host.accept(buffer, 0, length, message), "a host takes no DEMAND");
        length = demand(4, 1, EPOCH_NS, 1);
        assertEquals(MALFORMED, controller.accept(buffer, 0, length, message), "no host 4 in a fabric of 4");
        length = demand(1, 1, EPOCH_NS, 1);
        buffer.putByte(0, (byte)0);
        assertEquals(MALFORMED, controller.accept(buffer, 0, length, message), "wrong magic");

        message.wrap(buffer, 0).start(ControlMessageFlyweight.TYPE_RATES, 3, 1, EPOCH_NS);
        message.appendEntry(2, 0, 0, 1_000_000);
        length = authenticator.sign(buffer, 0, message.bodyLength());
        assertEquals(MALFORMED, host.accept(buffer, 0, length, message), "addressed to host 3, not 2");
        message.wrap(buffer, 0).start(ControlMessageFlyweight.TYPE_RATES, 2, 1, EPOCH_NS);
        message.appendEntry(3, 0, 0, 1_000_000);
        length = authenticator.sign(buffer, 0, message.bodyLength());
        assertEquals(ACCEPTED, host.accept(buffer, 0, length, message));
        assertEquals(4, controller.malformed());
        assertEquals(2, host.malformed());
    }

    @Test
    void aMessageHoldsAtMostWhatOneDatagramCarries()
    {
        message.wrap(buffer, 0).start(ControlMessageFlyweight.TYPE_GRANTS, 0, 1, EPOCH_NS);
        for (int i = 0; i < ControlMessageFlyweight.MAX_ENTRIES; i++)
        {
            message.appendEntry(i, 0, 0, i);
        }
        assertFalse(message.hasRoom());
        assertTrue(message.messageLength() <= ControlMessageFlyweight.MAX_MESSAGE_LENGTH);
        assertThrows(IllegalStateException.class, () -> message.appendEntry(0, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new ControlAuthenticator(new byte[15]));
    }
}
