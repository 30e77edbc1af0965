/** Orphan visits, requests that reached no link: their rows and totals ({@code OrphanVisits}) and their API. */
package dev.shortgate.visit.orphan;
