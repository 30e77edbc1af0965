/**
 * The unknown-code guard: a Bloom filter of every code ({@code BloomShape}), per pod ({@code LocalCodeGuard}) or
 * shared in Redis ({@code RedisCodeGuard}), so a flood of random codes does not reach the database.
 */
package dev.shortgate.redirect.guard;
