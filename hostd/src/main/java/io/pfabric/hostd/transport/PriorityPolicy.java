package io.pfabric.hostd.transport;

/**
 * What a data packet's priority number says (smaller is more urgent); ACKs always carry 0.
 */
public enum PriorityPolicy
{
    /**
     * The flow's remaining size: bytes neither cumulatively acknowledged nor SACKed (pFabric's SRPT approximation).
     */
    REMAINING_SIZE,

    /**
     * The flow's whole size in bytes (shortest flow first, whatever has been sent).
     */
    FLOW_SIZE,

    /**
     * The bytes of the flow sent so far, each counted once (the first bytes of every flow are the most urgent: the
     * size-agnostic policy of the paper's Fig 14, and PIAS's starting point).
     */
    BYTES_SENT,

    /**
     * pFabric-EDF: a flow with a deadline carries it, in microseconds since the deadline epoch, with the DEADLINE
     * flag (earliest deadline first, in a queue of their own at {@code pfabric-edf} switches), and the least urgent
     * priority without the flag once it cannot finish in time at line rate; a flow without a deadline carries its
     * remaining size.
     */
    DEADLINE;

    /**
     * The names the command line gives the policies, in the order of the constants.
     */
    public static final java.util.List<String> NAMES = java.util.List.of("remaining", "size", "bytes-sent", "deadline");

    /**
     * The name the command line gives this policy.
     *
     * @return such as {@code remaining} or {@code bytes-sent}.
     */
    public String cliName()
    {
        return NAMES.get(ordinal());
    }

    /**
     * The policy of a command-line name.
     *
     * @param option the option that gave it, for the error.
     * @param name   remaining, size, bytes-sent or deadline.
     * @return the policy.
     * @throws IllegalArgumentException naming the option if the name is none of those.
     */
    public static PriorityPolicy byName(final String option, final String name)
    {
        final int index = NAMES.indexOf(name);
        if (index < 0)
        {
            throw new IllegalArgumentException(option + " must be one of " + String.join(", ", NAMES) + ", not '" +
                name + "'");
        }
        return values()[index];
    }
}
