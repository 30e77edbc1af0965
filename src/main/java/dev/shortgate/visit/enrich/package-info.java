/**
 * Enrichment, off the event loop: the user agent ({@code UserAgentParser}, Yauaa), the network's country and city
 * ({@code GeoLocator}, GeoIP2), the anonymised address and the client id ({@code VisitEnricher}).
 */
package dev.shortgate.visit.enrich;
