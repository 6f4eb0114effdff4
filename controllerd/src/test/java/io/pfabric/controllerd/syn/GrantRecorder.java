package io.pfabric.controllerd.syn;

import java.util.ArrayList;
import java.util.List;

/**
 * Keeps every grant, in the order received.
 */
final class GrantRecorder implements GrantHandler
{
    final List<long[]> grants = new ArrayList<>();

    public void onGrant(final long slot, final int srcHost, final int dstHost, final int spine)
    {
        grants.add(new long[]{ slot, srcHost, dstHost, spine });
    }

    void clear()
    {
        grants.clear();
    }

    /**
     * @return each grant as "slot:src>dst".
     */
    List<String> pairs()
    {
        final List<String> pairs = new ArrayList<>();
        for (final long[] grant : grants)
        {
            pairs.add(grant[0] + ":" + grant[1] + ">" + grant[2]);
        }
        return pairs;
    }
}
