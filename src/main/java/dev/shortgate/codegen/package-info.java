/**
 * Short-code generation, a leaf that imports no other feature. {@link dev.shortgate.codegen.CodeAllocator} tries a
 * URL's candidates round after round until the link feature claims one; the candidates come from the configured
 * {@link dev.shortgate.codegen.CodeStrategy}: {@code hash}, the default, here ({@link
 * dev.shortgate.codegen.CodeGenerator} and {@code HashCandidates}), {@code sequence} ({@code sequence/}) or {@code
 * pool} ({@code pool/}).
 *
 * <p>Named interface {@code codes}: the allocator, the strategies, the alphabet ({@link dev.shortgate.codegen.Base62})
 * and code lengths, the settings, and {@link dev.shortgate.codegen.TakenCodes}, which the link feature answers.
 */
@ApplicationModule(allowedDependencies = {"system :: *"})
package dev.shortgate.codegen;

import org.springframework.modulith.ApplicationModule;
