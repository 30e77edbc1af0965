package dev.shortgate.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProgressBarTest {

    @Test
    void showsTheShareDoneTheRateAndTheTimeLeftWhenTheSourceGivesItsSize() {
        assertThat(ProgressBar.line(250, 1000L, 0.5))
                .startsWith("[#######.......................] 25% 250/1000 links, 500 links/s, ETA 0m02s");
    }

    @Test
    void showsCountAndRateAloneWhenTheSizeIsUnknown() {
        assertThat(ProgressBar.line(300, null, 2))
                .startsWith("300 links, 150 links/s")
                .doesNotContain("ETA");
    }
}
