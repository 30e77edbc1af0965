package dev.shortgate.system.database;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Where link rows live (docs/adr/0014-link-table-split.md).
 *
 * @param tableSplit    {@code none}: every link in the table {@code link}; {@code first-char}: each link in one of
 *                      {@code link_00 … link_61}, chosen by its code's first character ({@link LinkTables})
 * @param moveBatchSize rows the move command ({@code POST :8081/actuator/linktables}) takes from {@code link} into
 *                      the split tables per transaction
 */
@ConfigurationProperties("shortgate.storage")
@Validated
public record StorageProperties(
        @NotNull @DefaultValue("none") TableSplit tableSplit,
        @Positive @DefaultValue("500") int moveBatchSize) {

    /** The table layouts. */
    public enum TableSplit {
        /** One table, {@code link}. */
        NONE,
        /** 62 tables by the code's first character; rows still in {@code link} are read until they are moved. */
        FIRST_CHAR
    }
}
