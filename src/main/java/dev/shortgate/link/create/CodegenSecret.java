package dev.shortgate.link.create;

import java.nio.charset.StandardCharsets;

import dev.shortgate.codegen.CodegenProperties;
import dev.shortgate.system.settings.SharedSecrets;
import org.springframework.stereotype.Component;
import org.springframework.util.StringUtils;
import reactor.core.publisher.Mono;

/**
 * The key of the code generator's HMAC. A configured secret wins; otherwise the first pod to need one makes a
 * random key and stores it in the database, and every pod sharing that database reads the same key. Pods must
 * agree on the key so that they propose the same first candidates for a URL, which lets the unique key settle
 * concurrent creates into one code.
 */
@Component
class CodegenSecret {

    static final String SETTING = "codegen.secret";

    private final Mono<byte[]> secret;

    CodegenSecret(CodegenProperties properties, SharedSecrets shared) {
        this.secret = StringUtils.hasText(properties.secret())
                ? Mono.just(properties.secret().getBytes(StandardCharsets.UTF_8))
                : shared.get(SETTING);
    }

    Mono<byte[]> get() {
        return secret;
    }
}
