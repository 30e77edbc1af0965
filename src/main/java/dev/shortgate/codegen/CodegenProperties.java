package dev.shortgate.codegen;

import java.time.Duration;

import dev.shortgate.system.settings.SecretSettings;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.modulith.NamedInterface;
import org.springframework.validation.annotation.Validated;

/**
 * Code generation settings ({@code shortgate.codegen.*}).
 *
 * @param secret        the HMAC key ({@code SHORTGATE_CODEGEN_SECRET}), at least 16 characters. Every pod must
 *                      share it. When unset, a random key is made once and kept in the database, which all pods
 *                      sharing that database then use. It also keys the {@code sequence} strategy's permutation.
 * @param maxRounds     how many rounds of candidates to try before answering 503 code-space-exhausted
 * @param defaultLength the code length when a request names none
 * @param strategy      how candidates are made: {@code hash} (default), {@code sequence} or {@code pool}
 * @param sequence      the {@code sequence} strategy's counter blocks
 * @param pool          the {@code pool} strategy's pool and filler
 */
@ConfigurationProperties("shortgate.codegen")
@Validated
@NamedInterface("codes")
public record CodegenProperties(
        String secret,
        @DefaultValue("8") @Min(1) @Max(1024) int maxRounds,

        @DefaultValue("7") @Min(CodeGenerator.MIN_LENGTH) @Max(CodeGenerator.MAX_LENGTH)
        int defaultLength,

        @NotNull @DefaultValue("hash") CodeStrategy strategy,
        @Valid @DefaultValue Sequence sequence,
        @Valid @DefaultValue Pool pool) {

    public CodegenProperties {
        SecretSettings.check("shortgate.codegen.secret", secret);
    }

    /**
     * @param blockSize counter values a pod reserves at once (one database round trip per block); a pod that stops
     *                  leaves at most this many unused, a gap in the sequence
     */
    public record Sequence(@Positive @DefaultValue("1000") long blockSize) {}

    /**
     * @param lowWater     the filler tops the pool up when it holds fewer codes of a length than this
     * @param highWater    ... up to this many
     * @param fillInterval how often each pod looks at the pool's level
     * @param chunk        codes generated, checked (one query) and added at a time
     * @param timeout      how long a create waits to take a pooled code before using a fresh random one instead
     */
    public record Pool(
            @Positive @DefaultValue("10000") long lowWater,
            @Positive @DefaultValue("50000") long highWater,
            @NotNull @DefaultValue("1s") Duration fillInterval,
            @Positive @Max(10000) @DefaultValue("1000") int chunk,
            @NotNull @DefaultValue("200ms") Duration timeout) {

        public Pool {
            if (highWater < lowWater) {
                throw new IllegalArgumentException("shortgate.codegen.pool.high-water (" + highWater
                        + ") must not be below low-water (" + lowWater + ")");
            }
        }
    }
}
