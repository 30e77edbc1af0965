/**
 * Moving links in and out (issue 27, docs/adr/0020-transfer.md). An import reads a source ({@code source/}: CSV,
 * Shortgate's JSON lines export, Shlink, YOURLS, Kutt, Bitly) a page at a time, and {@link dev.shortgate.transfer.ImportEngine} writes it in
 * batches through link's {@code imports} interface (a link's redirect rules checked first by rules' {@code check}
 * interface, as the native API checks them), with the tags, titles and click totals beside them
 * ({@code TransferMeta}) and a checkpoint per batch ({@code ImportJobs}), so a re-run changes nothing and an
 * interrupted job resumes. Two entry points run it: the {@code import} command ({@link
 * dev.shortgate.transfer.ImportCommand}, no web server) and the admin job API ({@code ImportController}). Exports
 * stream every link or visit in pages of keyed reads ({@code LinkExport}, {@code ExportController}).
 */
@ApplicationModule(
        allowedDependencies = {
            "link :: model",
            "link :: imports",
            "link :: store",
            "security :: principal",
            "domain :: registry",
            "rules :: check",
            "system :: *",
        })
package dev.shortgate.transfer;

import org.springframework.modulith.ApplicationModule;
