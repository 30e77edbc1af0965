/**
 * The HTTP side of a redirect: the route and its handler, the fast path for near-cache hits below Spring's
 * dispatcher ({@code FastRedirects}, one {@code TrafficConnection} per connection, {@code FastHttp}), the answer
 * every path shares ({@code Redirects}, {@code RedirectAnswer}, {@code RedirectProblems}), its metrics, and orphan
 * visits for 404s.
 */
package dev.shortgate.redirect.http;
