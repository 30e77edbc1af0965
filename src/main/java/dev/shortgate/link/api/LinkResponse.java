package dev.shortgate.link.api;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.shortgate.link.Link;

/** A link as the API shows it, with its tags. {@code status} is set only inside batch results. */
@JsonInclude(JsonInclude.Include.NON_NULL)
record LinkResponse(
        Integer status,
        String code,
        String domain,
        String shortUrl,
        String url,
        int redirectStatus,
        boolean alias,
        Instant createdAt,
        Instant expiresAt,
        Long maxVisits,
        boolean disabled,
        boolean forwardQuery,
        List<String> tags) {

    /** {@code domain} is {@code null} (left out) for the default domain; {@code tags} in name order. */
    static LinkResponse of(Link link, String code, String domain, String shortUrl, List<String> tags) {
        return new LinkResponse(
                null,
                code,
                domain,
                shortUrl,
                link.url(),
                link.redirectStatus(),
                link.alias(),
                link.createdAt(),
                link.expiresAt(),
                link.maxVisits(),
                link.disabled(),
                link.forwardQuery(),
                List.copyOf(tags));
    }

    LinkResponse withStatus(int status) {
        return new LinkResponse(
                status,
                code,
                domain,
                shortUrl,
                url,
                redirectStatus,
                alias,
                createdAt,
                expiresAt,
                maxVisits,
                disabled,
                forwardQuery,
                tags);
    }
}
