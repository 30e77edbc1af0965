/**
 * Find-or-create: one link ({@code LinkCreator}), concurrent single creates grouped ({@code CreateQueue}), batches
 * ({@code BatchCreator}), both written a group at a time ({@code GroupCreator}), and the code generator's key.
 */
package dev.shortgate.link.create;
