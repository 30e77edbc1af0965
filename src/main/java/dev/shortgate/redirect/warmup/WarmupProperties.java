package dev.shortgate.redirect.warmup;

import java.time.Duration;

import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Warm before ready ({@code shortgate.warmup.*}).
 *
 * @param enabled        warm up before reporting ready; {@code false}: ready as soon as the application is
 * @param deadline       the longest the warm-up may hold readiness down; past it the pod reports ready anyway
 * @param requests       internal redirect requests sent to the pod, after the preload, to compile its request path
 *                       (near-cache misses answered from Redis, near-cache hits, and unknown codes)
 * @param requestsWithin the longest those requests may take; then the pod reports ready
 * @param concurrency    of those requests
 * @param hotCodes       how many of the hottest codes a starting pod preloads, and the size the hot set in Redis is
 *                       trimmed to
 * @param sampleOneIn    one redirect in this many is counted in the pod's hot-code sketch
 * @param publishEvery   how often a pod adds its sketch's hottest codes to the hot set in Redis
 * @param preloadMax     after the hot codes, fill the near cache with up to this many more of the links Redis holds
 *                       (whichever Redis walks first), never past the near cache's {@code max-size}; 0: none
 * @param preloadWithin  the longest that fill may take; then the warm-up ends with what it holds
 * @param jitQuietBelow  after {@code requests}, the internal requests go on in passes (within
 *                       {@code requests-within}) until, over a second or more, the JIT compilers compiled for less
 *                       than this share of the time (1.0: one compiler thread busy throughout); 0: stop at
 *                       {@code requests}
 * @param window         the hot set's time window: a set covers one window and expires after the next, so codes
 *                       that have cooled down leave it; a starting pod reads the current and the previous window
 */
@ConfigurationProperties("shortgate.warmup")
@Validated
public record WarmupProperties(
        @DefaultValue("true") boolean enabled,
        @NotNull @DefaultValue("35s") Duration deadline,
        @Min(0) @DefaultValue("20000") int requests,
        @NotNull @DefaultValue("20s") Duration requestsWithin,
        @Min(1) @DefaultValue("16") int concurrency,
        @Min(0) @DefaultValue("1000") int hotCodes,
        @Min(1) @DefaultValue("8") int sampleOneIn,
        @NotNull @DefaultValue("30s") Duration publishEvery,
        @NotNull @DefaultValue("10m") Duration window,
        @Min(0) @DefaultValue("100000") int preloadMax,
        @NotNull @DefaultValue("8s") Duration preloadWithin,
        @DecimalMin("0.0") @DefaultValue("0.25") double jitQuietBelow) {}
