package dev.shortgate.visit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DimensionTest {

    @Test
    void anAgentLabelGivesBackItsBrowserOsAndDeviceClassWithTheMissingOnesAsNull() {
        assertThat(Dimension.agentParts(Dimension.agentLabel("Chrome", "Windows NT", "Desktop")))
                .containsExactly("Chrome", "Windows NT", "Desktop");
        assertThat(Dimension.agentParts(Dimension.agentLabel(null, "Linux", null)))
                .containsExactly(null, "Linux", null);
        assertThat(Dimension.agentParts(Dimension.agentLabel("Ünïcødé 🦊", null, "Phone")))
                .containsExactly("Ünïcødé 🦊", null, "Phone");
    }

    @Test
    void partsThatCouldNotBeToldApartAgainMakeNoAgentLabel() {
        assertThat(Dimension.agentLabel(null, null, null)).isNull(); // nothing to count
        assertThat(Dimension.agentLabel("", "Linux", "Desktop")).isNull(); // would read back as none
        assertThat(Dimension.agentLabel("A\u001fB", "Linux", "Desktop")).isNull();
        assertThat(Dimension.agentLabel("x".repeat(250), "Linux", "Desktop")).isNull(); // past 255 in all
        assertThat(Dimension.agentLabel("x".repeat(244), "Linux", "Desk")).hasSize(Dimension.MAX_LABEL);
    }

    @Test
    void aLabelThatIsNotAnAgentLabelHasNoParts() {
        assertThat(Dimension.agentParts("Chrome")).isNull();
        assertThat(Dimension.agentParts("a\u001fb")).isNull();
        assertThat(Dimension.agentParts("a\u001fb\u001fc\u001fd")).isNull();
    }
}
