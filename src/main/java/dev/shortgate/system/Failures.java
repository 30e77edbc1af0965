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
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof DataAccessResourceFailureException
                    || t instanceof TransientDataAccessException
                    || t instanceof R2dbcTransientResourceException
                    || t instanceof R2dbcNonTransientResourceException
                    || t instanceof TimeoutException
                    || t instanceof ConnectException
                    || t instanceof java.io.IOException) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }
}
