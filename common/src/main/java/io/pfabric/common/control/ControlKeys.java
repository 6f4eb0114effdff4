package io.pfabric.common.control;

import io.pfabric.common.config.SecretFiles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;

/**
 * Reads the shared control key from a file: either 32 to 128 hexadecimal digits (the bytes they spell) or any other
 * text of at least {@link ControlAuthenticator#MIN_KEY_LENGTH} bytes (its UTF-8 bytes), surrounding white space
 * ignored. The file must be private to its owner ({@link SecretFiles}):
 * {@code (umask 077; head -c 32 /dev/urandom | xxd -p -c 64 > control.key)} makes one.
 */
public final class ControlKeys
{
    private ControlKeys()
    {
    }

    /**
     * Read a key file.
     *
     * @param file the file.
     * @return the key's bytes.
     * @throws IOException naming the file and what is wrong with it.
     */
    public static byte[] read(final Path file) throws IOException
    {
        final String text = SecretFiles.readPrivate(file, "key file");
        final byte[] key = text.matches("(?i)([0-9a-f]{2}){16,64}") ?
            HexFormat.of().parseHex(text) : text.getBytes(StandardCharsets.UTF_8);
        if (key.length < ControlAuthenticator.MIN_KEY_LENGTH)
        {
            throw new IOException("key file " + file + " holds " + key.length + " bytes; a control key needs at least " +
                ControlAuthenticator.MIN_KEY_LENGTH);
        }
        return key;
    }
}
