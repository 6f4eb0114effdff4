package io.pfabric.common.config;

import io.pfabric.common.control.ControlKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Secret files are read only when private to their owner; anything the group or others can touch is refused with
 * the fix in the message, and so is a missing file.
 */
class SecretFilesTest
{
    private static final String KEY_HEX = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

    private static Path write(final Path directory, final String text, final String permissions) throws IOException
    {
        final Path file = directory.resolve("secret");
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
        return file;
    }

    @Test
    void anOwnerOnlyFileIsReadStripped(@TempDir final Path directory) throws IOException
    {
        assertEquals("s3cret-token", SecretFiles.readPrivate(write(directory, " s3cret-token\n", "rw-------"), "token file"));
        assertEquals("s3cret-token", SecretFiles.readPrivate(write(directory, "s3cret-token", "r--------"), "token file"));
    }

    @Test
    void aFileTheGroupOrOthersCanTouchIsRefusedWithTheFix(@TempDir final Path directory) throws IOException
    {
        for (final String permissions : new String[]{ "rw-r--r--", "rw-r-----", "rw----r--", "rw-----w-", "rw--w----",
            "rw----rw-", "rwx--x---" })
        {
            final Path file = write(directory, "s3cret-token", permissions);
            final IOException refused = assertThrows(IOException.class,
                () -> SecretFiles.readPrivate(file, "token file"), permissions);
            assertTrue(refused.getMessage().contains("token file " + file + " is open to others (permissions " +
                permissions + ")"), refused.getMessage());
            assertTrue(refused.getMessage().endsWith("chmod 600 " + file), refused.getMessage());
        }
    }

    @Test
    void aMissingFileIsNamed(@TempDir final Path directory)
    {
        final Path file = directory.resolve("absent");
        final IOException missing = assertThrows(IOException.class, () -> SecretFiles.readPrivate(file, "key file"));
        assertEquals("key file " + file + " does not exist", missing.getMessage());
    }

    @Test
    void aControlKeyFileOpenToOthersIsRefusedAndAPrivateOneRead(@TempDir final Path directory) throws IOException
    {
        final Path open = write(directory, KEY_HEX, "rw-r--r--");
        final IOException refused = assertThrows(IOException.class, () -> ControlKeys.read(open));
        assertTrue(refused.getMessage().startsWith("key file " + open + " is open to others"), refused.getMessage());

        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-------"));
        assertArrayEquals(HexFormat.of().parseHex(KEY_HEX), ControlKeys.read(open));
    }
}
