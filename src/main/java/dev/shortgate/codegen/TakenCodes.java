package dev.shortgate.codegen;

import java.util.Collection;
import java.util.Set;

import org.springframework.modulith.NamedInterface;
import reactor.core.publisher.Mono;

/** Which of some codes are already held by a link; the link feature answers, so codegen stays a leaf. */
@NamedInterface("codes")
public interface TakenCodes {

    /** The codes among these that a link (tombstones included) holds. */
    Mono<Set<String>> taken(Collection<String> codes);
}
