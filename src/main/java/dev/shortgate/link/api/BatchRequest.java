package dev.shortgate.link.api;

import java.util.List;

import tools.jackson.databind.JsonNode;

/**
 * Body of {@code POST /api/v1/links/batch}: 1 to 1000 create requests. Each item stays JSON until it is bound on
 * its own, so an item that does not bind gets its own problem instead of failing the whole batch.
 */
record BatchRequest(List<JsonNode> links) {}
