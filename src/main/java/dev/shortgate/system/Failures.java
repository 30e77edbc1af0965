package dev.shortgate.system;

import java.net.ConnectException;
import java.util.concurrent.TimeoutException;

import io.r2dbc.spi.R2dbcNonTransientResourceException;
import io.r2dbc.spi.R2dbcTransientResourceException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessException;

/** Tells a backend that is down or slow apart from a bug, so callers answer 503 and not 500. */
public final class Failures {

    private Failures() {
    }

    /** True when the throwable, or one of its causes, means "a backend is unavailable right now". */
    public static boolean isUnavailable(Throwable error) {
        for (Throwable t = error; t != null; t = next(t)) {
            if (t instanceof DataAccessResourceFailureException
                    || t instanceof TransientDataAccessException
                    || t instanceof R2dbcTransientResourceException
                    || t instanceof R2dbcNonTransientResourceException
                    || t instanceof TimeoutException
                    || t instanceof ConnectException
                    || t instanceof java.io.IOException) {
                return true;
            }
        }
        return false;
    }

    /** The first of {@code error} and its causes that is a {@code type}, or null. */
    public static <T extends Throwable> T find(Throwable error, Class<T> type) {
        for (Throwable t = error; t != null; t = next(t)) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    private static Throwable next(Throwable t) {
        return t.getCause() == t ? null : t.getCause();
    }
}
