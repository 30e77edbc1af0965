package dev.shortgate.codegen;

import java.time.Clock;
import java.util.function.Function;

import org.springframework.modulith.NamedInterface;

/**
 * Makes the configured strategy's {@link CandidateSource} once the codegen secret is known (it is read from the
 * database when not configured, so it is not there when the application is wired).
 */
@NamedInterface("codes")
public final class CodeStrategies {

    private final CodeStrategy strategy;
    private final Function<byte[], CandidateSource> factory;

    CodeStrategies(CodeStrategy strategy, Function<byte[], CandidateSource> factory) {
        this.strategy = strategy;
        this.factory = factory;
    }

    /** Only the {@code hash} strategy: for tests and tools that need no database. */
    public static CodeStrategies hash(Clock clock) {
        return new CodeStrategies(
                CodeStrategy.HASH,
                key -> new HashCandidates(new CodeGenerator(key), CodeAllocator.timestampSalts(clock)));
    }

    public CodeStrategy strategy() {
        return strategy;
    }

    /** The candidates of the configured strategy, keyed by the codegen secret. */
    public CandidateSource forKey(byte[] secret) {
        return factory.apply(secret);
    }
}
