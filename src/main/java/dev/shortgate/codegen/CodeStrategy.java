package dev.shortgate.codegen;

import dev.shortgate.codegen.sequence.FeistelPermutation;

/** How candidate codes are made ({@code shortgate.codegen.strategy}; {@code docs/adr/0007-code-strategies.md}). */
public enum CodeStrategy {
    /** Keyed-hash candidates of the URL ({@link CodeGenerator}): four per round, salted rounds after collisions. */
    HASH,
    /** A keyed permutation of a counter ({@link FeistelPermutation}): no collisions, no retries, not enumerable. */
    SEQUENCE,
    /** Random codes checked in advance and kept in a shared pool; a create takes one. */
    POOL
}
