package dev.shortgate.link;

import java.util.List;

/** Body of {@code POST /api/v1/links/batch}: 1 to 1000 create requests. */
record BatchRequest(List<CreateLinkRequest> links) {
}
