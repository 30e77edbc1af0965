package dev.shortgate.transfer;

import java.io.PrintStream;

/** The command's progress line on stderr: a bar when the source gives its size, links/s and an ETA. */
final class ProgressBar {

    private static final int WIDTH = 30;

    private final ImportJob job;
    private final PrintStream err;
    private final long startedNanos;

    ProgressBar(ImportJob job, PrintStream err, long startedNanos) {
        this.job = job;
        this.err = err;
        this.startedNanos = startedNanos;
    }

    void draw() {
        err.print('\r' + line(job.read(), job.total(), (System.nanoTime() - startedNanos) / 1e9));
        err.flush();
    }

    static String line(long read, Long total, double seconds) {
        double rate = seconds > 0 ? read / seconds : 0;
        StringBuilder line = new StringBuilder();
        if (total != null && total > 0) {
            int filled = (int) Math.min(WIDTH, WIDTH * read / total);
            line.append('[')
                    .append("#".repeat(filled))
                    .append(".".repeat(WIDTH - filled))
                    .append("] ")
                    .append(Math.min(100, 100 * read / total))
                    .append("% ")
                    .append(read)
                    .append('/')
                    .append(total);
        } else {
            line.append(read);
        }
        line.append(" links, ").append(Math.round(rate)).append(" links/s");
        if (total != null && rate > 0 && read < total) {
            long eta = Math.round((total - read) / rate);
            line.append(", ETA ")
                    .append(eta / 60)
                    .append("m")
                    .append(String.format("%02d", eta % 60))
                    .append('s');
        }
        return line.append("   ").toString();
    }
}
