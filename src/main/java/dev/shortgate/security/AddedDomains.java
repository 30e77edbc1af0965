package dev.shortgate.security;

import org.springframework.modulith.NamedInterface;

/**
 * The short domains added at run time (issue 26), which {@link UrlPolicy} refuses as this shortener's own, as it
 * refuses the host of {@code shortgate.base-url}: a link to a short link on another of our domains would loop. This
 * feature defines it and the domain feature implements it from the list it holds in memory, so the check does no I/O
 * and this feature does not depend on that one.
 */
@NamedInterface("url-policy")
@FunctionalInterface
public interface AddedDomains {

    /** None: only the configured hosts are this shortener's own. */
    AddedDomains NONE = host -> false;

    /** Whether {@code host}, written as {@link UrlPolicy#normalize} writes hosts, is one of the short domains. */
    boolean contains(String host);
}
