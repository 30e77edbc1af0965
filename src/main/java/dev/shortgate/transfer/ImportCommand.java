package dev.shortgate.transfer;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import dev.shortgate.link.create.LinkImports.Conflict;
import dev.shortgate.transfer.source.Sources;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@code java -jar shortgate.jar import --from csv|jsonl|shlink|yourls|kutt|bitly [--file F] [--url U] [--dry-run]
 * [--with-visits] [--on-conflict skip|new-code]} ({@code jsonl}: Shortgate's own JSON lines export): runs one import in an application without its web server (the
 * usual settings, the embedded database in the working folder by default), shows a progress bar on stderr, prints a
 * summary and exits 0 when the import is done, 1 when it failed, 2 for a usage error. Other {@code --name=value}
 * arguments are settings. The source's credential is a setting ({@code SHORTGATE_TRANSFER_API_KEY}), never an
 * argument: a command line is visible to every user of the machine.
 */
public final class ImportCommand {

    private static final String USAGE = "usage: import --from csv|jsonl|shlink|yourls|kutt|bitly [--file F] [--url U] "
            + "[--dry-run] [--with-visits] [--on-conflict skip|new-code] [--spring.r2dbc.url=...]\n"
            + "The source's API key, token or signature goes in SHORTGATE_TRANSFER_API_KEY.";

    private ImportCommand() {}

    /** Runs the command; {@code args} are those after {@code import}. Returns the exit status. */
    public static int run(Class<?> application, String[] args, PrintStream out, PrintStream err) {
        String from = null;
        String file = null;
        String url = null;
        String onConflict = null;
        boolean dryRun = false;
        boolean withVisits = false;
        List<String> settings = new ArrayList<>();
        try {
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                switch (arg) {
                    case "--from" -> from = args[++i];
                    case "--file" -> file = args[++i];
                    case "--url" -> url = args[++i];
                    case "--on-conflict" -> onConflict = args[++i];
                    case "--dry-run" -> dryRun = true;
                    case "--with-visits" -> withVisits = true;
                    default -> {
                        String flat = arg.toLowerCase(java.util.Locale.ROOT).replaceAll("[-_.]", "");
                        if (flat.startsWith("apikey") || flat.contains("transferapikey")) {
                            err.println("The source's credential is never taken from the command line (ps shows it)"
                                    + "; set SHORTGATE_TRANSFER_API_KEY instead.");
                            return 2;
                        }
                        if (!arg.startsWith("--") || !arg.contains("=")) {
                            err.println("Unknown argument '" + arg + "'.\n" + USAGE);
                            return 2;
                        }
                        settings.add(arg);
                    }
                }
            }
        } catch (ArrayIndexOutOfBoundsException e) {
            err.println("An option is missing its value.\n" + USAGE);
            return 2;
        }
        if (from == null) {
            err.println(USAGE);
            return 2;
        }
        if (onConflict != null) {
            settings.add("--shortgate.transfer.on-conflict=" + onConflict);
        }
        if (file != null && !Files.isReadable(Path.of(file))) {
            err.println("Cannot read " + file + ".");
            return 2;
        }
        try {
            return importWith(application, settings, from, file, url, dryRun, withVisits, out, err);
        } catch (RuntimeException e) { // the application did not start (a bad setting, no database), or lost it
            Throwable cause =
                    e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
            err.println();
            err.println("Import failed: " + cause.getMessage());
            return 1;
        }
    }

    private static int importWith(
            Class<?> application,
            List<String> settings,
            String from,
            String file,
            String url,
            boolean dryRun,
            boolean withVisits,
            PrintStream out,
            PrintStream err) {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(application)
                .web(WebApplicationType.NONE)
                .properties(Map.of("logging.level.root", "WARN", "logging.level.dev.shortgate", "WARN"))
                .run(settings.toArray(String[]::new))) {
            TransferProperties properties = context.getBean(TransferProperties.class);
            ImportSource source;
            try {
                source = context.getBean(Sources.class).source(from, file == null ? null : Path.of(file), url, null);
            } catch (IllegalArgumentException e) {
                err.println(e.getMessage() + "\n" + USAGE);
                return 2;
            }
            ImportEngine engine = context.getBean(ImportEngine.class);
            ImportEngine.Options options = new ImportEngine.Options(
                    from,
                    sourceKey(
                            from,
                            file == null ? null : Path.of(file).toAbsolutePath().toString(),
                            url),
                    dryRun,
                    withVisits,
                    "new-code".equals(properties.onConflict()) ? Conflict.NEW_CODE : Conflict.SKIP);
            long started = System.nanoTime();
            // One pipeline: begin (or resume) the job, draw its progress while it runs. This is a command's main
            // thread, not a request: it has nothing to do but wait for the pipeline, once, at the end.
            ImportJob job = engine.begin(engine.newJob(options), options)
                    .flatMap(begun -> {
                        ProgressBar bar = new ProgressBar(begun, err, started);
                        Disposable ticks = Flux.interval(Duration.ofMillis(500)).subscribe(tick -> bar.draw());
                        return engine.run(begun, source, options)
                                .then(Mono.fromRunnable(bar::draw))
                                .doFinally(signal -> ticks.dispose())
                                .thenReturn(begun);
                    })
                    .toFuture()
                    .join();
            err.println();
            summary(job, out, (System.nanoTime() - started) / 1e9);
            return "done".equals(job.status()) ? 0 : 1;
        }
    }

    /** Identifies what is imported, so an unfinished job of the same source is resumed. */
    static String sourceKey(String from, String file, String url) {
        try {
            var digest = java.security.MessageDigest.getInstance("SHA-256");
            digest.update((from + "|" + file + "|" + url).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest.digest());
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void summary(ImportJob job, PrintStream out, double seconds) {
        Map<String, Object> view = job.view();
        out.printf(
                "Import %s %s%s in %.1f s (%.0f links/s): %s%n",
                job.id(),
                job.status(),
                job.dryRun() ? " (dry run: nothing written)" : "",
                seconds,
                seconds > 0 ? job.read() / seconds : 0.0,
                view.get("result"));
        if (job.error() != null) {
            out.println("Error: " + job.error());
        }
        @SuppressWarnings("unchecked")
        List<ImportJob.RowProblem> problems = (List<ImportJob.RowProblem>) view.get("problems");
        problems.stream()
                .limit(50)
                .forEach(problem ->
                        out.println("  " + problem.ref() + ": " + problem.status() + " - " + problem.reason()));
        if (problems.size() > 50) {
            out.println("  ... (" + (job.refused() + job.conflicts() + job.newCodes() - 50) + " more)");
        }
    }
}
