package dev.shortgate.shlink;

import dev.shortgate.system.database.LinkTables;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;

/**
 * Shlink's {@code robots.txt}: crawlers may follow the short URLs marked crawlable and nothing else, in Shlink's
 * exact text. The codes are streamed from the database as they are read, however many there are.
 */
@RestController
class ShlinkRobotsController {

    static final String HEADER =
            "# For more information about the robots.txt standard, see:\n# https://www.robotstxt.org/orig.html\n\n"
                    + "User-agent: *\n";

    private final DatabaseClient db;
    private final LinkTables tables;

    ShlinkRobotsController(DatabaseClient db, LinkTables tables) {
        this.db = db;
        this.tables = tables;
    }

    @GetMapping(path = "/robots.txt", produces = MediaType.TEXT_PLAIN_VALUE)
    Flux<String> robots() {
        Flux<String> allowed = db.sql("SELECT m.code FROM link_shlink_meta m JOIN " + tables.all()
                        + " l ON l.code = m.code AND l.deleted_at IS NULL WHERE m.crawlable = TRUE")
                .map(row -> "Allow: /" + row.get("code", String.class) + "\n")
                .all();
        return Flux.concat(Flux.just(HEADER), allowed, Flux.just("Disallow: /"));
    }
}
