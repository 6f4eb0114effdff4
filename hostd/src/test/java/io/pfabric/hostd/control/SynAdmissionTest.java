package io.pfabric.hostd.control;

import io.pfabric.common.control.ControlMessageFlyweight;
import io.pfabric.hostd.transport.Admission;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SYN admission on scripted time: a grant admits exactly one packet toward its destination on its spine; without a
 * grant nothing; a grant past its lifetime is dropped.
 */
class SynAdmissionTest
{
    @Test
    void aGrantAdmitsExactlyOnePacketOnItsSpine()
    {
        final SynAdmission syn = new SynAdmission(4, 10_000);
        assertFalse(syn.mayAdmit(1, 0), "no grant, no packet");
        syn.onGrant(1, 3, 100);
        syn.onGrant(2, ControlMessageFlyweight.NO_SPINE, 100);
        assertFalse(syn.mayAdmit(3, 200), "a grant is for its destination only");
        assertTrue(syn.mayAdmit(1, 200));
        assertEquals(3, syn.pathHint(1));
        syn.onAdmitted(1);
        assertFalse(syn.mayAdmit(1, 300), "one grant, one packet");
        assertTrue(syn.mayAdmit(2, 300));
        assertEquals(Admission.NO_PATH, syn.pathHint(2), "a grant within the leaf names no spine");
        syn.onAdmitted(2);
        assertEquals(2, syn.grantsUsed());
        assertEquals(0, syn.grantsExpired());
    }

    @Test
    void grantsAreUsedInArrivalOrderAndExpireAfterTheirLifetime()
    {
        final SynAdmission syn = new SynAdmission(2, 10_000);
        syn.onGrant(1, 0, 0);
        syn.onGrant(1, 1, 5_000);
        syn.onGrant(1, 2, 12_000);
        assertTrue(syn.mayAdmit(1, 12_000));
        assertEquals(1, syn.pathHint(1), "the first grant expired at 10 us");
        assertEquals(1, syn.grantsExpired());
        syn.onAdmitted(1);
        assertFalse(syn.mayAdmit(1, 30_000), "the last one expired too");
        assertEquals(2, syn.grantsExpired());
        assertEquals(0, syn.queued(1));
    }

    @Test
    void aFullQueueDropsAndCounts()
    {
        final SynAdmission syn = new SynAdmission(2, Long.MAX_VALUE);
        for (int i = 0; i < SynAdmission.MAX_QUEUED_GRANTS + 5; i++)
        {
            syn.onGrant(1, 0, i);
        }
        assertEquals(SynAdmission.MAX_QUEUED_GRANTS, syn.queued(1));
        assertEquals(5, syn.grantsOverflowed());
    }
}
