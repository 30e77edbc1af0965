package dev.shortgate.codegen;

import org.springframework.modulith.NamedInterface;

/** Every candidate of every allowed round was taken by another URL. */
@NamedInterface("codes")
public final class CodeSpaceExhaustedException extends RuntimeException {

    private final int length;
    private final int rounds;

    public CodeSpaceExhaustedException(int length, int rounds) {
        super("No free code of length " + length + " after " + rounds + " rounds of candidates");
        this.length = length;
        this.rounds = rounds;
    }

    public int length() {
        return length;
    }

    public int rounds() {
        return rounds;
    }
}
