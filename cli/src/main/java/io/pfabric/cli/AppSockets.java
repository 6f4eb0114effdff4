package io.pfabric.cli;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a host's application socket is: {@code /tmp/pfabric-hostd-NAME.sock} by default, so that the hosts of a
 * namespace testbed, which share the file system, each have their own.
 */
final class AppSockets
{
    static final Path DIRECTORY = Path.of(System.getProperty("java.io.tmpdir"));
    private static final String PREFIX = "pfabric-hostd-";
    private static final String SUFFIX = ".sock";

    private AppSockets()
    {
    }

    static Path forHost(final String hostName)
    {
        return DIRECTORY.resolve(PREFIX + hostName + SUFFIX);
    }

    /**
     * The socket to talk to: the one given, else the named host's, else the only one there is.
     */
    static Path resolve(final Path socket, final String hostName) throws IOException
    {
        if (null != socket)
        {
            return socket;
        }
        if (null != hostName)
        {
            return forHost(hostName);
        }
        final List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> sockets = Files.newDirectoryStream(DIRECTORY, PREFIX + "*" + SUFFIX))
        {
            sockets.forEach(found::add);
        }
        if (1 == found.size())
        {
            return found.get(0);
        }
        throw new IllegalArgumentException(found.isEmpty() ?
            "no hostd is running here (no " + DIRECTORY.resolve(PREFIX + "*" + SUFFIX) + "); start one with " +
                "'pfabric hostd'" :
            "several hostd sockets " + found + "; say which with --host NAME or --socket PATH");
    }
}
