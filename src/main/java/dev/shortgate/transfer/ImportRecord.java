package dev.shortgate.transfer;

import java.time.Instant;
import java.util.List;

/**
 * One link as a source describes it.
 *
 * @param ref          where it is in the source (a CSV line, a source id), for the report
 * @param resumeFrom   the checkpoint from which a re-read finds this record again: the source's own token
 * @param code         its short code, or {@code null} to generate one
 * @param url          its long URL, before the URL policy
 * @param tags         its tags, possibly empty
 * @param title        its title, or {@code null}
 * @param createdAt    when the source made it, or {@code null}
 * @param expiresAt    when it stops redirecting, or {@code null}
 * @param maxVisits    the visits it allows, or {@code null}
 * @param crawlable    Shlink's crawlable flag
 * @param forwardQuery whether the visitor's query string is forwarded
 * @param domain       the source's domain for it, or {@code null} for the default
 * @param clicks       the source's click total, when it gives only a total (seeds the aggregate), or {@code null}
 * @param unreadable   why the source's row could not be read (a bad date or number), or {@code null}
 * @param redirectStatus the redirect status (Shortgate's own export), or {@code null} for the default
 * @param disabled     whether the link is switched off (Shortgate's own export)
 * @param rulesJson    the link's redirect rules as Shortgate stores and exports them ({@code link.LinkRules} as
 *                     JSON; Shortgate's own export), or {@code null} when it has none
 */
public record ImportRecord(
        String ref,
        String resumeFrom,
        String code,
        String url,
        List<String> tags,
        String title,
        Instant createdAt,
        Instant expiresAt,
        Long maxVisits,
        boolean crawlable,
        boolean forwardQuery,
        String domain,
        Long clicks,
        String unreadable,
        Integer redirectStatus,
        boolean disabled,
        String rulesJson) {

    /** A row the source holds but that could not be read: reported, never written. */
    public static ImportRecord unreadable(String ref, String resumeFrom, String why) {
        return new ImportRecord(
                ref,
                resumeFrom,
                null,
                null,
                java.util.List.of(),
                null,
                null,
                null,
                null,
                false,
                false,
                null,
                null,
                why,
                null,
                false,
                null);
    }

    /**
     * One visit a source gives for a link.
     *
     * @param country ISO country code, or {@code null}
     */
    public record Visit(Instant at, String referer, String userAgent, String country, String city, boolean bot) {}
}
