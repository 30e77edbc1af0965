/**
 * The {@code sequence} strategy (seed 001): each candidate is a keyed permutation ({@code FeistelPermutation}) of a
 * counter, whose blocks each pod reserves in the database ({@code SequenceBlocks}). No retries, not enumerable.
 */
package dev.shortgate.codegen.sequence;
