package dev.shortgate.redirect.lookup;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

import dev.shortgate.link.Link;
import dev.shortgate.link.LinkRules;
import dev.shortgate.link.store.LinkRows;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Redis tier's value format: a link in a few dozen bytes, read without reflection.
 *
 * <p>A JFR profile of the bench's redis scenario put Jackson's record binding at about 10% of the application's CPU
 * (a {@code MethodHandle.invokeWithArguments} per value, property lookups by name); this reads the same link in a
 * fraction of that. Layout, big-endian: version byte {@code 1}, a flags byte, the code and the URL as
 * length-prefixed UTF-8, the redirect status as a short, then only the fields the flags say are present (instants as
 * epoch seconds and nanos, numbers as longs).
 *
 * <p>A link with redirect rules is written as version {@code 2}: the same, followed by its {@link LinkRules} as
 * length-prefixed JSON (as {@code link_rules} stores them); a link without rules stays version 1, byte for byte.
 *
 * <p>Values written as JSON by an older build (they start with <code>{</code>) are still read, so a rolling upgrade
 * keeps its Redis hits. An older build cannot read this format: it counts such a value as a Redis error and asks the
 * database, which is slower but never wrong.
 */
final class LinkCodec {

    private static final byte VERSION = 1;
    private static final byte VERSION_WITH_RULES = 2;
    private static final int ALIAS = 1;
    private static final int DISABLED = 1 << 1;
    private static final int FORWARD_QUERY = 1 << 2;
    private static final int CREATED_AT = 1 << 3;
    private static final int EXPIRES_AT = 1 << 4;
    private static final int MAX_VISITS = 1 << 5;
    private static final int API_KEY_ID = 1 << 6;
    private static final int DELETED_AT = 1 << 7;

    private final JsonMapper json;

    LinkCodec(JsonMapper json) {
        this.json = json;
    }

    byte[] encode(Link link) {
        byte[] code = link.code().getBytes(StandardCharsets.UTF_8);
        byte[] url = link.url().getBytes(StandardCharsets.UTF_8);
        int flags = (link.alias() ? ALIAS : 0)
                | (link.disabled() ? DISABLED : 0)
                | (link.forwardQuery() ? FORWARD_QUERY : 0)
                | (link.createdAt() != null ? CREATED_AT : 0)
                | (link.expiresAt() != null ? EXPIRES_AT : 0)
                | (link.maxVisits() != null ? MAX_VISITS : 0)
                | (link.apiKeyId() != null ? API_KEY_ID : 0)
                | (link.deletedAt() != null ? DELETED_AT : 0);
        byte[] rules =
                link.rules() == null ? null : LinkRows.writeRules(link.rules()).getBytes(StandardCharsets.UTF_8);
        ByteBuffer out = ByteBuffer.allocate(
                2 + 4 + code.length + 4 + url.length + 2 + 3 * 12 + 2 * 8 + (rules == null ? 0 : 4 + rules.length));
        out.put(rules == null ? VERSION : VERSION_WITH_RULES).put((byte) flags);
        out.putInt(code.length).put(code).putInt(url.length).put(url);
        out.putShort((short) link.redirectStatus());
        instant(out, link.createdAt());
        instant(out, link.expiresAt());
        if (link.maxVisits() != null) {
            out.putLong(link.maxVisits());
        }
        if (link.apiKeyId() != null) {
            out.putLong(link.apiKeyId());
        }
        instant(out, link.deletedAt());
        if (rules != null) {
            out.putInt(rules.length).put(rules);
        }
        byte[] bytes = new byte[out.position()];
        out.flip().get(bytes);
        return bytes;
    }

    /** The link in {@code value}; an {@link IllegalArgumentException} when it is neither format. */
    Link decode(byte[] value) {
        if (value.length > 0 && value[0] == '{') {
            return json.readValue(value, Link.class);
        }
        if (value.length < 2 || (value[0] != VERSION && value[0] != VERSION_WITH_RULES)) {
            throw new IllegalArgumentException("not a link value this build can read");
        }
        try {
            ByteBuffer in = ByteBuffer.wrap(value, 2, value.length - 2);
            int flags = value[1] & 0xff;
            String code = text(in);
            String url = text(in);
            int status = in.getShort();
            Instant createdAt = (flags & CREATED_AT) != 0 ? instant(in) : null;
            Instant expiresAt = (flags & EXPIRES_AT) != 0 ? instant(in) : null;
            Long maxVisits = (flags & MAX_VISITS) != 0 ? in.getLong() : null;
            Long apiKeyId = (flags & API_KEY_ID) != 0 ? in.getLong() : null;
            Instant deletedAt = (flags & DELETED_AT) != 0 ? instant(in) : null;
            LinkRules rules = value[0] == VERSION_WITH_RULES ? LinkRows.readRules(text(in)) : null;
            return new Link(
                    code,
                    url,
                    status,
                    (flags & ALIAS) != 0,
                    createdAt,
                    expiresAt,
                    maxVisits,
                    (flags & DISABLED) != 0,
                    (flags & FORWARD_QUERY) != 0,
                    apiKeyId,
                    deletedAt,
                    rules);
        } catch (RuntimeException e) { // a truncated or corrupt value: buffer under- or overflow, bad length
            throw new IllegalArgumentException("corrupt link value", e);
        }
    }

    private static void instant(ByteBuffer out, Instant instant) {
        if (instant != null) {
            out.putLong(instant.getEpochSecond()).putInt(instant.getNano());
        }
    }

    private static Instant instant(ByteBuffer in) {
        return Instant.ofEpochSecond(in.getLong(), in.getInt());
    }

    private static String text(ByteBuffer in) {
        int length = in.getInt();
        String text = new String(in.array(), in.position(), length, StandardCharsets.UTF_8);
        in.position(in.position() + length);
        return text;
    }
}
