/**
 * Visits: the redirect hands each one to {@code intake/VisitRecorder}, which counts it at once ({@code counts/}) and
 * offers its raw row to a bounded buffer that {@code intake/VisitBatchWriter} writes in batches, enriched on the way
 * ({@code enrich/}: user agent, GeoIP). The stats API reads the counts ({@code stats/}); orphan visits, requests that
 * reached no link, have their own reads and API ({@code orphan/}). This package holds what they share: the visit's
 * shape ({@link dev.shortgate.visit.RawVisit}, {@link dev.shortgate.visit.Visit}, {@link dev.shortgate.visit.Visitor},
 * {@link dev.shortgate.visit.VisitId}), the multi-row SQL and retries of the writers, the settings, the wiring and
 * the retention of raw rows.
 *
 * <p>Named interfaces: {@code recording} (the {@code VisitRecorder} and {@link dev.shortgate.visit.OrphanVisitType}),
 * {@code counts} ({@code VisitCounts}, for {@code maxVisits}), {@code orphans} (orphan visits as recorded, for
 * Shlink's adapter) and {@code geo} ({@code enrich/GeoLocator}, the in-memory GeoIP database, for redirect rules).
 */
@ApplicationModule(
        allowedDependencies = {
            "domain :: registry",
            "link :: model",
            "security :: clients",
            "security :: principal",
            "system :: *"
        })
package dev.shortgate.visit;

import org.springframework.modulith.ApplicationModule;
