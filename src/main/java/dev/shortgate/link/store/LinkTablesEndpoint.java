package dev.shortgate.link.store;

import java.util.Map;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * The move command, on the management port only: {@code GET :8081/actuator/linktables} tells the layout and how
 * many rows {@code link} still holds; {@code POST} moves them into the split tables ({@link LinkMove}) and answers
 * when done, with the count moved. 409 when this pod does not run {@code shortgate.storage.table-split=first-char}.
 */
@Component
@Endpoint(id = "linktables")
class LinkTablesEndpoint {

    private final LinkMove move;

    LinkTablesEndpoint(LinkMove move) {
        this.move = move;
    }

    @ReadOperation
    public Mono<Map<String, Object>> layout() {
        return move.remaining()
                .map(left -> Map.<String, Object>of(
                        "tableSplit", move.enabled() ? "first-char" : "none", "rowsInLink", left));
    }

    @WriteOperation
    public Mono<WebEndpointResponse<Map<String, Object>>> moveAll() {
        if (!move.enabled()) {
            return Mono.just(new WebEndpointResponse<>(
                    Map.<String, Object>of(
                            "error", "set shortgate.storage.table-split=first-char on every pod before moving links"),
                    409));
        }
        return move.moveAll().flatMap(moved -> move.remaining()
                .map(left -> new WebEndpointResponse<>(Map.<String, Object>of("moved", moved, "rowsInLink", left))));
    }
}
