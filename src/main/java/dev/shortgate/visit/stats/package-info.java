/**
 * The stats API: reads of the aggregates ({@code VisitQueries}), the top lists ({@code TopLabels}) and a date range
 * cut into whole months and days ({@code MonthSplit}).
 */
package dev.shortgate.visit.stats;
