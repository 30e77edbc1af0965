/**
 * The {@code pool} strategy (seed 002): codes checked free in advance, taken from a pool shared by every pod (in
 * Redis, or in the database without it) and kept between its water marks by the {@code PoolFiller}.
 */
package dev.shortgate.codegen.pool;
