package dev.shortgate.link;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;

/**
 * Where a page of the link list ends: the creation time and code of its last link, given out as an opaque,
 * URL-safe token ({@code base64url("<epoch millis>:<code>")}).
 */
record LinkCursor(Instant createdAt, String code) {

    /** The start of the list. */
    static final LinkCursor START = new LinkCursor(null, null);

    static LinkCursor after(Link last) {
        return new LinkCursor(last.createdAt(), last.code());
    }

    /** The cursor a token names; {@link #START} for none; a 400 problem for a token this API did not give out. */
    static LinkCursor decode(String token) {
        if (token == null || token.isEmpty()) {
            return START;
        }
        try {
            String decoded = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            Instant createdAt = Instant.ofEpochMilli(Long.parseLong(decoded.substring(0, Math.max(colon, 0))));
            return new LinkCursor(createdAt, decoded.substring(colon + 1));
        } catch (IllegalArgumentException e) { // bad base64, or NumberFormatException
            throw LinkRequests.invalid("cursor", "cursor is not one this API gave out.");
        }
    }

    String encode() {
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString((createdAt.toEpochMilli() + ":" + code).getBytes(StandardCharsets.UTF_8));
    }
}
