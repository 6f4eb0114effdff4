package io.pfabric.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.pfabric.common.control.ControlAuthenticator;
import io.pfabric.common.control.ControlInbox;
import io.pfabric.common.control.ControlMessageFlyweight;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Control messages from anyone, judged by a controller's inbox and a host's: raw bytes, raw bytes signed with the
 * right key (so the fuzzer gets past the MAC), and well-formed messages with fuzzed header and entries, signed or
 * not. Judging never throws; an accepted message is read through every header accessor and every entry, from a
 * buffer of exactly its length, without reading past it; and a message refused as malformed or unauthenticated
 * leaves the inbox as it was: a twin inbox that never saw the refused ones judges every other message the same.
 */
class ControlMessageFuzzTest
{
    private static final byte[] KEY = "the fuzzed controller's key, 32 b".getBytes(StandardCharsets.UTF_8);
    private static final int HOSTS = 4;
    private static final int MAX_MESSAGES = 8;
    private static final Accessors HEADER = new Accessors(ControlMessageFlyweight.class);

    private final ControlAuthenticator authenticator = new ControlAuthenticator(KEY);
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[ControlMessageFlyweight.MAX_MESSAGE_LENGTH + 64]);
    private final ControlMessageFlyweight message = new ControlMessageFlyweight();

    @FuzzTest
    void anyMessageIsJudgedSafelyAndARefusedOneChangesNothing(final FuzzedDataProvider data)
    {
        final ControlInbox controller = ControlInbox.forController(authenticator, HOSTS);
        final ControlInbox controllerTwin = ControlInbox.forController(authenticator, HOSTS);
        final ControlInbox host = ControlInbox.forHost(authenticator, 1);
        final ControlInbox hostTwin = ControlInbox.forHost(authenticator, 1);
        final int count = data.consumeInt(1, MAX_MESSAGES);
        for (int m = 0; m < count && data.remainingBytes() > 0; m++)
        {
            final byte[] datagram = datagram(data);
            judge(controller, controllerTwin, datagram);
            judge(host, hostTwin, datagram);
        }
    }

    private byte[] datagram(final FuzzedDataProvider data)
    {
        final int shape = data.consumeInt(0, 3);
        final int length;
        if (shape < 2)
        {
            final byte[] raw = data.consumeBytes(ControlMessageFlyweight.MAX_MESSAGE_LENGTH + 16);
            scratch.putBytes(0, raw);
            length = 0 == shape || raw.length > ControlMessageFlyweight.MAX_MESSAGE_LENGTH -
                ControlMessageFlyweight.MAC_LENGTH ? raw.length : authenticator.sign(scratch, 0, raw.length);
        }
        else
        {
            message.wrap(scratch, 0).start(data.consumeInt(0, 5), data.consumeInt(0, HOSTS + 1), data.consumeLong(),
                data.consumeLong());
            final int entries = data.consumeInt(0, ControlMessageFlyweight.MAX_ENTRIES);
            for (int i = 0; i < entries && message.hasRoom(); i++)
            {
                message.appendEntry(data.consumeInt(0, HOSTS + 1), data.consumeInt(0, 255), data.consumeInt(0, 255),
                    data.consumeLong(), data.consumeLong());
            }
            length = 3 == shape ? authenticator.sign(scratch, 0, message.bodyLength()) : message.messageLength();
        }
        final byte[] datagram = new byte[length];
        scratch.getBytes(0, datagram);
        return datagram;
    }

    private void judge(final ControlInbox inbox, final ControlInbox twin, final byte[] datagram)
    {
        final long acceptedBefore = inbox.accepted();
        final UnsafeBuffer exact = new UnsafeBuffer(datagram.clone());
        final ControlInbox.Outcome outcome = inbox.accept(exact, 0, datagram.length, message);
        switch (outcome)
        {
            case ACCEPTED ->
            {
                HEADER.readAll(message);
                for (int i = 0; i < message.entryCount(); i++)
                {
                    message.entryPeer(i);
                    message.entrySpine(i);
                    message.entryFlags(i);
                    message.entryExtra(i);
                    message.entryValue(i);
                }
            }
            case MALFORMED, UNAUTHENTICATED ->
            {
                assertEquals(acceptedBefore, inbox.accepted());
                return;
            }
            default -> assertEquals(acceptedBefore, inbox.accepted());
        }
        final ControlInbox.Outcome twinOutcome =
            twin.accept(new UnsafeBuffer(datagram.clone()), 0, datagram.length, new ControlMessageFlyweight());
        assertEquals(outcome, twinOutcome, "a twin that never saw the refused messages judges this one the same");
    }
}
