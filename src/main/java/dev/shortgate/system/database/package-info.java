/**
 * Which database ({@link dev.shortgate.system.database.DatabaseDialect}) and which table holds a link ({@link
 * dev.shortgate.system.database.LinkTables}), how a transaction that lost a write conflict is tried again ({@link
 * dev.shortgate.system.database.ConflictRetry}); also Flyway's settings derived from R2DBC's, and readiness on the
 * database.
 */
@NamedInterface("database")
package dev.shortgate.system.database;

import org.springframework.modulith.NamedInterface;
