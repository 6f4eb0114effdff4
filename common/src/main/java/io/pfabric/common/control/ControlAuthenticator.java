package io.pfabric.common.control;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;

/**
 * Signs and verifies control messages with HMAC-SHA256 under a key shared by the controller and its hosts, so that
 * no other process on the network can grant itself bandwidth. One instance per thread; it copies each message into
 * a scratch array owned by the instance and allocates nothing per message.
 */
public final class ControlAuthenticator
{
    /**
     * Shortest key accepted, in bytes.
     */
    public static final int MIN_KEY_LENGTH = 16;

    private static final String ALGORITHM = "HmacSHA256";

    private final Mac mac;
    private final byte[] scratch = new byte[ControlMessageFlyweight.MAX_MESSAGE_LENGTH];
    private final byte[] digest = new byte[ControlMessageFlyweight.MAC_LENGTH];

    /**
     * An authenticator for a key.
     *
     * @param key the shared key, at least {@link #MIN_KEY_LENGTH} bytes.
     * @throws IllegalArgumentException if the key is too short.
     */
    public ControlAuthenticator(final byte[] key)
    {
        if (null == key || key.length < MIN_KEY_LENGTH)
        {
            throw new IllegalArgumentException("the control key must be at least " + MIN_KEY_LENGTH + " bytes");
        }
        try
        {
            mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(key, ALGORITHM));
        }
        catch (final NoSuchAlgorithmException | InvalidKeyException ex)
        {
            throw new IllegalStateException("this JDK cannot compute " + ALGORITHM + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * Write the MAC of a message's body after it.
     *
     * @param buffer     holding the message.
     * @param offset     of the message.
     * @param bodyLength bytes the MAC covers.
     * @return the message's whole length.
     */
    public int sign(final MutableDirectBuffer buffer, final int offset, final int bodyLength)
    {
        compute(buffer, offset, bodyLength);
        buffer.putBytes(offset + bodyLength, digest);
        return bodyLength + ControlMessageFlyweight.MAC_LENGTH;
    }

    /**
     * Whether a message ends in the MAC of what precedes it, compared in constant time.
     *
     * @param buffer holding the message.
     * @param offset of the message.
     * @param length the whole message, MAC included.
     * @return true if authentic.
     */
    public boolean verify(final DirectBuffer buffer, final int offset, final int length)
    {
        final int bodyLength = length - ControlMessageFlyweight.MAC_LENGTH;
        if (bodyLength < 0 || length > ControlMessageFlyweight.MAX_MESSAGE_LENGTH)
        {
            return false;
        }
        compute(buffer, offset, bodyLength);
        int difference = 0;
        for (int i = 0; i < ControlMessageFlyweight.MAC_LENGTH; i++)
        {
            difference |= digest[i] ^ buffer.getByte(offset + bodyLength + i);
        }
        return 0 == difference;
    }

    private void compute(final DirectBuffer buffer, final int offset, final int bodyLength)
    {
        buffer.getBytes(offset, scratch, 0, bodyLength);
        mac.update(scratch, 0, bodyLength);
        try
        {
            mac.doFinal(digest, 0);
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
