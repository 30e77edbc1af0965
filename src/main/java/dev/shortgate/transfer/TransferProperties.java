package dev.shortgate.transfer;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Positive;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Imports and exports ({@code shortgate.transfer.*}).
 *
 * @param apiKey        the source's credential: Shlink's API key, YOURLS's signature token, Kutt's API key or
 *                      Bitly's access token. Set it as {@code SHORTGATE_TRANSFER_API_KEY}, never on a command line
 * @param onConflict    what an import does with a code another URL holds: {@code skip} it or give the link a
 *                      {@code new-code}
 * @param batchSize     links written by one multi-row insert
 * @param writers       batches written at once
 * @param pageSize      links asked of an HTTP source per page
 * @param maxRetries    how often a page is asked again after a 429 or a 5xx before the import fails
 * @param maxRetryAfter the longest {@code Retry-After} honoured; a longer one is cut to this
 * @param exportPage    links read per keyed query of an export
 */
@ConfigurationProperties("shortgate.transfer")
@Validated
public record TransferProperties(
        String apiKey,
        @DefaultValue("skip") String onConflict,
        @DefaultValue("1000") @Min(1) @Max(5000) int batchSize,
        @DefaultValue("4") @Min(1) @Max(16) int writers,
        @DefaultValue("100") @Min(1) @Max(1000) int pageSize,
        @DefaultValue("5") @Min(0) int maxRetries,
        @DefaultValue("60s") Duration maxRetryAfter,
        @DefaultValue("5000") @Positive int exportPage) {

    public TransferProperties {
        if (!"skip".equals(onConflict) && !"new-code".equals(onConflict)) {
            throw new IllegalArgumentException(
                    "shortgate.transfer.on-conflict must be skip or new-code, got " + onConflict);
        }
    }
}
