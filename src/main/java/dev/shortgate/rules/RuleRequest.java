package dev.shortgate.rules;

import java.net.InetAddress;

import org.springframework.modulith.NamedInterface;

/**
 * What rules are tested against: facts of one redirect request, all at hand on the event loop.
 *
 * @param code           the short code (for the variant of a split)
 * @param rawQuery       the raw query string, or {@code null}
 * @param clientIp       the client address as the trusted-proxy settings resolve it, or {@code null}
 * @param userAgent      the {@code User-Agent} header, or {@code null}
 * @param acceptLanguage the {@code Accept-Language} header, or {@code null}
 */
@NamedInterface("evaluation")
public record RuleRequest(
        String code, String rawQuery, InetAddress clientIp, String userAgent, String acceptLanguage) {}
