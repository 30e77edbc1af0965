/**
 * What every feature shares: the problem details every error becomes ({@code problem/}), the API's deadlines and
 * strict JSON ({@code web/}), which database and which link tables ({@code database/}), the one Redis connection
 * ({@code redis/}), and the settings and secrets all features read ({@code settings/}). Each of those is a named
 * interface that any module may use; the wiring (health, readiness, environment post-processors, observations and
 * the injected clock) stays internal.
 */
@ApplicationModule(allowedDependencies = {})
package dev.shortgate.system;

import org.springframework.modulith.ApplicationModule;
