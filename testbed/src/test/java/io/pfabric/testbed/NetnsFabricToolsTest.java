package io.pfabric.testbed;

import io.pfabric.common.os.HostTools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The check a namespace fabric (the demo's, the experiments', `testbed up`'s) makes before it builds anything: with
 * ethtool missing from PATH it names the tool, its Debian package and the two ways to install it.
 */
class NetnsFabricToolsTest
{
    @TempDir
    Path bin;

    private void tool(final String name) throws IOException
    {
        final Path file = bin.resolve(name);
        Files.writeString(file, "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @Test
    void aMissingToolIsNamedWithItsPackageAndHowToInstallIt() throws Exception
    {
        tool("ip");
        tool("sysctl");
        Files.writeString(bin.resolve("ethtool"), "not executable");

        final IOException missing = assertThrows(IOException.class,
            () -> HostTools.require("/nonexistent:" + bin, NetnsFabric.TOOLS));

        assertEquals("not installed: ethtool (Debian package ethtool); run './pfabric setup' as root to install " +
            "what pfabric uses, or: sudo apt-get install ethtool", missing.getMessage());
    }

    @Test
    void severalMissingToolsNameEachPackageOnce() throws Exception
    {
        final IOException missing = assertThrows(IOException.class,
            () -> HostTools.require(bin.toString(), NetnsFabric.TOOLS));

        assertEquals("not installed: ip, ethtool, sysctl (Debian packages ethtool iproute2 procps); run " +
            "'./pfabric setup' as root to install what pfabric uses, or: sudo apt-get install ethtool iproute2 procps",
            missing.getMessage());
    }

    @Test
    void withEveryToolOnPathTheFabricMayBeBuilt() throws Exception
    {
        for (final String name : NetnsFabric.TOOLS)
        {
            tool(name);
        }
        assertDoesNotThrow(() -> HostTools.require(bin.toString(), NetnsFabric.TOOLS));
    }
}
