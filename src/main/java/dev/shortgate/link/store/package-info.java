/**
 * The link tables: reads ({@code LinkRepository}), writes ({@code LinkWrites}), the row mapping ({@code LinkRows}),
 * and the move into the split tables with its management endpoint.
 */
package dev.shortgate.link.store;
