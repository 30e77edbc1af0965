package dev.shortgate.link.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Collection;

import dev.shortgate.domain.DomainCodes;
import dev.shortgate.domain.Domains;
import dev.shortgate.link.Link;
import dev.shortgate.link.LinkRules;
import io.r2dbc.spi.Readable;
import org.springframework.modulith.NamedInterface;
import org.springframework.r2dbc.core.DatabaseClient;
import tools.jackson.databind.json.JsonMapper;

/** How a link is stored in a row: its columns, values and keys, shared by the link tables' reads and writes. */
@NamedInterface("store")
public final class LinkRows {

    static final String COLUMNS = "code, long_url, redirect_status, alias, created_at, expires_at, "
            + "max_visits, disabled, forward_query, api_key_id, deleted_at";

    /** The rules of the link, read in the same statement as its row ({@code link_rules}; null when it has none). */
    static final String RULES_COLUMN = "(SELECT rules_json FROM link_rules r WHERE r.code = :code) AS rules_json";

    /** The longest rule set stored, as JSON characters ({@code link_rules.rules_json}). */
    public static final int MAX_RULES_JSON = 16_000;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private LinkRows() {}

    /** A link and its rules from a row holding the link columns and {@link #RULES_COLUMN}. */
    static Link toLinkWithRules(Readable row) {
        Link link = toLink(row);
        String rules = row.get("rules_json", String.class);
        return rules == null ? link : link.withRules(readRules(rules));
    }

    /** A rule set as stored. */
    public static String writeRules(LinkRules rules) {
        return JSON.writeValueAsString(rules);
    }

    /** A stored rule set. */
    public static LinkRules readRules(String json) {
        return JSON.readValue(json, LinkRules.class);
    }

    /** A link from a row holding the link columns (under their own names). */
    public static Link toLink(Readable row) {
        Object maxVisits = row.get("max_visits");
        Object apiKeyId = row.get("api_key_id");
        return new Link(
                row.get("code", String.class),
                row.get("long_url", String.class),
                ((Number) row.get("redirect_status")).intValue(),
                bool(row.get("alias")),
                fromDb(row.get("created_at", LocalDateTime.class)),
                fromDb(row.get("expires_at", LocalDateTime.class)),
                maxVisits == null ? null : ((Number) maxVisits).longValue(),
                bool(row.get("disabled")),
                bool(row.get("forward_query")),
                apiKeyId == null ? null : ((Number) apiKeyId).longValue(),
                fromDb(row.get("deleted_at", LocalDateTime.class)));
    }

    /** BOOLEAN is a real boolean in H2 and TINYINT(1) in MySQL; drivers hand back either. */
    public static boolean bool(Object value) {
        return value instanceof Boolean b ? b : value instanceof Number n && n.intValue() != 0;
    }

    /** Times are stored as UTC wall-clock values, so no driver or server time zone can shift them. */
    public static LocalDateTime toDb(Instant instant) {
        return instant == null ? null : LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    public static Instant fromDb(LocalDateTime value) {
        return value == null ? null : value.toInstant(ZoneOffset.UTC);
    }

    /**
     * What identifies a create for find-if-exists: the URL, the code length and every setting find-if-exists
     * compares ({@link Link#satisfies}). Only live, enabled generated links carry it (aliases and disabled links do
     * not take part in find-if-exists); a change or a delete clears it.
     */
    static byte[] createKey(Link link, int length) {
        if (link.alias() || link.disabled()) {
            return null;
        }
        int domainId = link.code() == null ? Domains.DEFAULT_ID : DomainCodes.domainId(link.code());
        // The default domain's keys are as they were before domains, so its existing rows keep theirs.
        String key =
                DomainCodes.prefix(domainId) + length + "\0" + link.redirectStatus() + "\0" + link.forwardQuery() + "\0"
                        + (link.expiresAt() == null ? "-" : link.expiresAt().toEpochMilli()) + "\0"
                        + (link.maxVisits() == null ? "-" : link.maxVisits()) + "\0"
                        + (link.apiKeyId() == null ? "-" : link.apiKeyId()) + "\0" + link.url();
        return hash(key);
    }

    static byte[] hash(String url) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(url.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }

    /**
     * Whether {@code key} is a stored key a statement may name as a literal: a code ({@link Link#CODE}), or a domain
     * id and a code ({@link DomainCodes}).
     */
    public static boolean isKey(String key) {
        int at = key.indexOf(DomainCodes.SEPARATOR);
        return Link.CODE.matcher(at < 0 ? key : key.substring(at + 1)).matches()
                && (at < 0 || key.substring(0, at).matches("[0-9]{1,9}"));
    }

    /**
     * Keys ({@link DomainCodes}) as SQL string literals; each is checked to be a code ({@link Link#CODE}: letters,
     * digits, {@code -} and {@code _}), after a domain's number and {@code ~} for another domain's, all of which a
     * quoted literal takes as they are, so nothing can be injected.
     */
    static String codeLiterals(Collection<String> codes) {
        StringBuilder sql = new StringBuilder();
        int i = 0;
        for (String code : codes) {
            if (!isKey(code)) {
                throw new IllegalArgumentException("not a code: " + code);
            }
            sql.append(i++ == 0 ? "'" : ", '").append(code).append('\'');
        }
        return sql.toString();
    }

    static Object orNull(Object value, Class<?> type) {
        return org.springframework.r2dbc.core.Parameter.fromOrEmpty(value, type);
    }

    static <T> DatabaseClient.GenericExecuteSpec bindNullable(
            DatabaseClient.GenericExecuteSpec spec, String name, T value, Class<T> type) {
        return value == null ? spec.bindNull(name, type) : spec.bind(name, value);
    }
}
