package dev.shortgate.codegen;

/** How candidate codes are made ({@code shortgate.codegen.strategy}). */
public enum CodeStrategy {
    /** Keyed-hash candidates of the URL (seed 000, fixed): four per round, salted rounds after collisions. */
    HASH,
    /** A keyed permutation of a counter (seed 001, done right): no collisions, no retries, not enumerable. */
    SEQUENCE,
    /** Random codes checked in advance and kept in a shared pool (seed 002); a create takes one. */
    POOL
}
