package io.pfabric.testsupport;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Decides once per JVM whether this process can create a network namespace, by creating one with iproute2 and
 * deleting it again, and disables the tests marked {@link RequiresNetns} where it cannot, saying why.
 */
public final class NetnsCapability implements ExecutionCondition
{
    private static final long COMMAND_TIMEOUT_S = 10;
    private static volatile String missing;
    private static volatile boolean probed;

    /**
     * @return null if this process can create network namespaces, else what stops it.
     */
    public static synchronized String missing()
    {
        if (!probed)
        {
            missing = probe();
            probed = true;
        }
        return missing;
    }

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(final ExtensionContext context)
    {
        final String reason = missing();
        return null == reason ? ConditionEvaluationResult.enabled("this process can create network namespaces") :
            ConditionEvaluationResult.disabled("needs network namespaces: " + reason);
    }

    private static String probe()
    {
        final String namespace = "pfcap-" + ProcessHandle.current().pid();
        final String added = run("ip", "netns", "add", namespace);
        if (null != added)
        {
            return added + " (run as root, or install iproute2: apt-get install iproute2)";
        }
        final String deleted = run("ip", "netns", "del", namespace);
        return null == deleted ? null : "created a namespace but could not delete it: " + deleted;
    }

    private static String run(final String... command)
    {
        try
        {
            final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            if (!process.waitFor(COMMAND_TIMEOUT_S, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
                return String.join(" ", command) + " did not finish in " + COMMAND_TIMEOUT_S + " s";
            }
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return 0 == process.exitValue() ? null : String.join(" ", command) + ": " + output;
        }
        catch (final IOException ex)
        {
            return String.join(" ", command) + ": " + ex.getMessage();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return "interrupted while checking";
        }
    }
}
