package dev.shortgate.shlink;

import java.time.Instant;
import java.util.List;

import dev.shortgate.link.Link;

/**
 * A link with what Shlink's short URL shows besides it: Shlink's own fields, its tags and its visit counts (from the
 * aggregates, so they trail the redirects by up to one counts flush).
 */
record ShortUrlRow(
        Link link,
        String title,
        boolean crawlable,
        Instant validSince,
        long visits,
        long botVisits,
        List<String> tags) {

    ShortUrlRow withTags(List<String> tags) {
        return new ShortUrlRow(link, title, crawlable, validSince, visits, botVisits, tags);
    }
}
