/** The links API ({@code /api/v1/links}): its controller, request and response bodies. */
package dev.shortgate.link.api;
