/**
 * Settings every feature reads ({@link dev.shortgate.system.settings.ShortgateProperties}), the check on configured
 * secrets, the random keys pods sharing a database agree on, and environment-variable names on the command line.
 */
@NamedInterface("settings")
package dev.shortgate.system.settings;

import org.springframework.modulith.NamedInterface;
