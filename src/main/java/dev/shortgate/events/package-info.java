/**
 * Live updates and integrations: every new visit, new orphan visit and new short URL, as Shlink publishes them.
 *
 * <p>{@code EventSource} is fed by the visit intake ({@code visit :: taps}) and by link creation ({@code link ::
 * events}), on the caller's thread, through a bounded buffer that sheds and counts; nothing on the redirect path
 * waits for it, and while no sink wants updates nothing is taken at all. A worker turns each fact into Shlink's
 * updates ({@code Topics}, {@code ShlinkPayloads}) and hands them to the sinks: the Mercure hub that Shortgate serves
 * itself ({@code MercureHub}, {@code MercureController}, shared between pods by {@code MercureFanOut} over Redis),
 * and Shlink's integrations ({@code RabbitTopics}, {@code RedisTopics}). The visit and link features do not know
 * this feature exists.
 */
@ApplicationModule(
        allowedDependencies = {
            "link :: model",
            "link :: events",
            "link :: store",
            "visit :: taps",
            "domain :: registry",
            "security :: principal",
            "system :: *"
        })
package dev.shortgate.events;

import org.springframework.modulith.ApplicationModule;
