package io.pfabric.common.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * Reads a secret (a control key, an admin token) from a file that only its owner may read or write: as ssh does with
 * a private key, a file that its group or anyone else can access is refused, with the command that fixes it.
 */
public final class SecretFiles
{
    private static final Set<PosixFilePermission> NOT_OWNER = EnumSet.of(
        PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
        PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    private SecretFiles()
    {
    }

    /**
     * Read a secret file's text, surrounding white space removed.
     *
     * @param file the file.
     * @param what what it holds, for messages: "key file", "token file".
     * @return its text.
     * @throws IOException naming the file and what is wrong with it: missing, open to others, unreadable.
     */
    public static String readPrivate(final Path file, final String what) throws IOException
    {
        final Set<PosixFilePermission> permissions;
        try
        {
            permissions = Files.getPosixFilePermissions(file);
        }
        catch (final NoSuchFileException ex)
        {
            throw new IOException(what + " " + file + " does not exist", ex);
        }
        catch (final UnsupportedOperationException ex)
        {
            throw new IOException(what + " " + file + " is on a file system without owner-only permissions", ex);
        }
        final Set<PosixFilePermission> open = EnumSet.copyOf(NOT_OWNER);
        open.retainAll(permissions);
        if (!open.isEmpty())
        {
            throw new IOException(what + " " + file + " is open to others (permissions " +
                PosixFilePermissions.toString(permissions) + "); it must be private to its owner: chmod 600 " + file);
        }
        return Files.readString(file, StandardCharsets.UTF_8).strip();
    }
}
