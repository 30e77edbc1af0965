/**
 * The API's shared web plumbing: the deadline on every {@code /api/**} request and its settings, strict binding of
 * request bodies, and which requests Spring's generic observation times.
 */
@NamedInterface("web")
package dev.shortgate.system.web;

import org.springframework.modulith.NamedInterface;
