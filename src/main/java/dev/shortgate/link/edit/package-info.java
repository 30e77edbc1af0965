/** Changes and deletes ({@code LinkEditor}), and who may see and change which link ({@code LinkAccess}). */
package dev.shortgate.link.edit;
