package io.pfabric.bench.forwarding;

import io.pfabric.common.os.Commands;
import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The bridge target hands no bridged frame to netfilter in its namespace, where {@code br_netfilter} is loaded and a
 * new namespace therefore starts with those hooks on.
 */
@Timeout(60)
@RequiresNetns
class LinuxBridgeSystemTest
{
    private static final List<String> HOOKS = List.of(
        "net.bridge.bridge-nf-call-iptables", "net.bridge.bridge-nf-call-ip6tables",
        "net.bridge.bridge-nf-call-arptables");

    @Test
    void turnsNetfilterHooksOffInItsNamespace() throws IOException
    {
        final String namespace = ForwardingBench.namespacePrefix() + "-brnf";
        Commands.run("ip", "netns", "add", namespace);
        try
        {
            assumeTrue("1".equals(sysctl(namespace, HOOKS.get(0))),
                "br_netfilter is not loaded here, so a new namespace has no hooks to turn off");
            final ForwardingTarget bridge = ForwardingTarget.LinuxBridge.start(namespace, List.of());
            try
            {
                for (final String hook : HOOKS)
                {
                    assertEquals("0", sysctl(namespace, hook), hook);
                }
            }
            finally
            {
                bridge.close();
            }
        }
        finally
        {
            Commands.run("ip", "netns", "del", namespace);
        }
    }

    private static String sysctl(final String namespace, final String key)
    {
        try
        {
            return Commands.run("ip", "netns", "exec", namespace, "sysctl", "-n", key).trim();
        }
        catch (final IOException ex)
        {
            return "";
        }
    }
}
