package dev.shortgate.link.store;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.modulith.NamedInterface;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Tags on links ({@code tag}, {@code link_tag}), for Shortgate's API and Shlink's alike: the rule a list of tags
 * follows ({@link #normalize}) and how a link's tags are read and written. Tags exist on their own (a tag outlives its
 * last link, as in Shlink); names compare byte for byte.
 */
@Repository
@NamedInterface("store")
public class LinkTags {

    /** The longest tag name, in characters (the column's size). */
    public static final int MAX_LENGTH = 255;

    private final DatabaseClient db;

    LinkTags(DatabaseClient db) {
        this.db = db;
    }

    /**
     * The tags a request gives, trimmed, without blanks and repeats, in the order given; empty (no value) when the
     * list holds something other than texts of at most {@value #MAX_LENGTH} characters. {@code null} is no tags.
     */
    public static Optional<List<String>> normalize(List<?> given) {
        if (given == null) {
            return Optional.of(List.of());
        }
        LinkedHashSet<String> tags = new LinkedHashSet<>();
        for (Object tag : given) {
            if (!(tag instanceof String name) || name.trim().length() > MAX_LENGTH) {
                return Optional.empty();
            }
            if (!name.isBlank()) {
                tags.add(name.trim());
            }
        }
        return Optional.of(List.copyOf(tags));
    }

    /** The tags of each code, by name; a code without tags is not in the map. */
    public Mono<Map<String, List<String>>> of(List<String> codes) {
        if (codes.isEmpty()) {
            return Mono.just(Map.of());
        }
        return db.sql(
                        "SELECT lt.code, t.name FROM link_tag lt JOIN tag t ON t.id = lt.tag_id WHERE lt.code IN (:codes) "
                                + "ORDER BY t.name")
                .bind("codes", codes)
                .map(row -> Map.entry(row.get("code", String.class), row.get("name", String.class)))
                .all()
                .collect(LinkedHashMap::new, (map, entry) -> map.computeIfAbsent(
                                entry.getKey(), code -> new ArrayList<>())
                        .add(entry.getValue()));
    }

    /**
     * Gives a link exactly these tags, creating the tags that do not exist yet. It adds before it removes, so a
     * reader never sees the link with fewer tags than before and after.
     */
    public Mono<Void> set(String code, List<String> tags) {
        Mono<Void> add = Flux.fromIterable(tags)
                .concatMap(name -> create(name)
                        .then(db.sql("INSERT INTO link_tag (code, tag_id) SELECT :code, t.id "
                                        + "FROM tag t WHERE t.name = :name AND NOT EXISTS (SELECT 1 FROM link_tag x "
                                        + "WHERE x.code = :code AND x.tag_id = t.id)")
                                .bind("code", code)
                                .bind("name", name)
                                .fetch()
                                .rowsUpdated()
                                .onErrorResume(DuplicateKeyException.class, e -> Mono.just(0L))))
                .then();
        Mono<Long> removeOthers = tags.isEmpty()
                ? db.sql("DELETE FROM link_tag WHERE code = :code")
                        .bind("code", code)
                        .fetch()
                        .rowsUpdated()
                : db.sql("DELETE FROM link_tag WHERE code = :code AND tag_id NOT IN (SELECT id FROM tag WHERE name IN "
                                + "(:names))")
                        .bind("code", code)
                        .bind("names", tags)
                        .fetch()
                        .rowsUpdated();
        return add.then(removeOthers).then();
    }

    /** Takes every tag off a link (a deleted one); the tags themselves stay. */
    public Mono<Void> forget(String code) {
        return db.sql("DELETE FROM link_tag WHERE code = :code")
                .bind("code", code)
                .fetch()
                .rowsUpdated()
                .then();
    }

    /** Creates the tag unless it exists; two creators racing both succeed. */
    private Mono<Void> create(String name) {
        return db.sql("INSERT INTO tag (name) SELECT :name FROM (SELECT 1 AS one) x WHERE NOT EXISTS "
                        + "(SELECT 1 FROM tag WHERE name = :name)")
                .bind("name", name)
                .fetch()
                .rowsUpdated()
                .onErrorResume(DuplicateKeyException.class, e -> Mono.just(0L))
                .then();
    }
}
