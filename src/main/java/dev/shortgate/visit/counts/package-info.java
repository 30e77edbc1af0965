/**
 * Counts that never drop: the in-memory {@code VisitTally} and {@code UniqueVisitors} sketches, classified ({@code
 * CountClassifier}) and upserted as deltas by the {@code VisitCountFlusher} ({@code VisitCountWriter}) on its {@code
 * CountFlushSchedule}; and {@code VisitCounts}, a link's visits for {@code maxVisits}.
 */
package dev.shortgate.visit.counts;
