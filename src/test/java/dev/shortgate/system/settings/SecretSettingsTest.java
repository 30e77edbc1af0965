package dev.shortgate.system.settings;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SecretSettingsTest {

    @Test
    void unsetAndStrongSecretsPass() {
        assertThatCode(() -> SecretSettings.check("x.secret", null)).doesNotThrowAnyException();
        assertThatCode(() -> SecretSettings.check("x.secret", "")).doesNotThrowAnyException();
        assertThatCode(() -> SecretSettings.check("x.secret", "k3y-0f-sixteen-ch"))
                .doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "short",
                "fifteen-chars!!",
                "PLACEHOLDER-CHANGE-ME-AT-LEAST-16-CHARS",
                "my-placeholder-secret-value"
            })
    void shortSecretsAndTheExamplesPlaceholderAreRefusedByName(String value) {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> SecretSettings.check("x.secret", value))
                .withMessageStartingWith("x.secret ");
    }
}
