package dev.shortgate.codegen;

import dev.shortgate.system.SecretSettings;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Code generation settings ({@code shortgate.codegen.*}).
 *
 * @param secret        the HMAC key ({@code SHORTGATE_CODEGEN_SECRET}), at least 16 characters. Every pod must
 *                      share it. When unset, a random key is made once and kept in the database, which all pods
 *                      sharing that database then use.
 * @param maxRounds     how many hash rounds of 4 candidates to try before answering 503 code-space-exhausted
 * @param defaultLength the code length when a request names none
 */
@ConfigurationProperties("shortgate.codegen")
@Validated
public record CodegenProperties(
        String secret,
        @DefaultValue("8") @Min(1) @Max(1024) int maxRounds,
        @DefaultValue("7") @Min(CodeGenerator.MIN_LENGTH) @Max(CodeGenerator.MAX_LENGTH) int defaultLength) {

    public CodegenProperties {
        SecretSettings.check("shortgate.codegen.secret", secret);
    }
}
