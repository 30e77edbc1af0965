/**
 * RFC 9457 problem details with a stable {@code type}: the {@link dev.shortgate.system.problem.Problem} types, the
 * {@link dev.shortgate.system.problem.ProblemException} a feature raises, and the one renderer every error goes
 * through. Also what tells a backend failure (503) from a bug (500).
 */
@NamedInterface("problem")
package dev.shortgate.system.problem;

import org.springframework.modulith.NamedInterface;
