/**
 * Links and their lifecycle. A create reads {@code api/LinkController → LinkService → create/LinkCreator →
 * codegen's CodeAllocator → store/LinkWrites}; a change or delete {@code LinkService → edit/LinkEditor →
 * store/LinkWrites}; either then tells the read path through {@link dev.shortgate.link.LinkChanges}, which the
 * redirect feature implements, so this feature never imports it. {@link dev.shortgate.link.LinkRequests} holds the
 * rules every field of a link follows.
 *
 * <p>Named interfaces: {@code model} ({@link dev.shortgate.link.Link}), {@code changes} ({@link
 * dev.shortgate.link.LinkChanges}), {@code service} ({@link dev.shortgate.link.LinkService} and its requests, for
 * Shlink's adapter) {@code store} (reads of the link tables: {@code LinkRepository} and {@code LinkRows}) and {@code imports}
 * ({@code create/LinkImports}: links brought in from other shorteners, for the transfer feature).
 */
@ApplicationModule(
        allowedDependencies = {
            "codegen :: codes",
            "domain :: registry",
            "security :: principal",
            "security :: url-policy",
            "system :: *"
        })
package dev.shortgate.link;

import org.springframework.modulith.ApplicationModule;
