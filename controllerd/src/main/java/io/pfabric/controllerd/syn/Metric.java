package io.pfabric.controllerd.syn;

/**
 * The order in which the {@link TimeslotAllocator} offers source-destination pairs a slot: smallest value first, ties
 * broken by source then destination.
 */
public enum Metric
{
    /**
     * Oldest cell first: the arrival slot of the pair's oldest cell not yet allocated.
     */
    OCF,

    /**
     * Shortest remaining job first: the pair's backlog in cells.
     */
    SRJF,

    /**
     * Max-min fair: the slot in which the pair was last allocated a cell, least recently served first; a pair never
     * served comes before every pair that has been.
     */
    MMF
}
