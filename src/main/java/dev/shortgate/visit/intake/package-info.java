/**
 * Intake and buffer: the {@code VisitRecorder} takes visits from the redirect path without ever making it wait,
 * {@code VisitIntake} counts each on the event loop and offers its raw row to the bounded {@code RawVisitBuffer},
 * and the {@code VisitBatchWriter} writes the rows in batches.
 */
package dev.shortgate.visit.intake;
