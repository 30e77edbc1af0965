package dev.shortgate.link;

import java.util.List;

import org.springframework.modulith.NamedInterface;

/**
 * Published (as a Spring application event, synchronously, on the creating thread) once new links are in the
 * database and the caches have been told: one link, a group or a batch. A link that was found rather than made is
 * not announced. A listener must not block or throw: it runs on the create's thread, often an event loop.
 */
@NamedInterface("events")
public record LinksCreated(List<Link> links) {}
