package dev.shortgate.system.problem;

import java.io.IOException;
import java.net.ConnectException;
import java.util.concurrent.TimeoutException;

import io.r2dbc.spi.R2dbcNonTransientResourceException;
import io.r2dbc.spi.R2dbcTransientResourceException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessException;

/** Tells a backend that is down or slow apart from a bug, so callers answer 503 and not 500. */
public final class Failures {

    private Failures() {}

    /** True when the throwable, or one of its causes, means "a backend is unavailable right now". */
    public static boolean isUnavailable(Throwable error) {
        return Causes.any(
                error,
                DataAccessResourceFailureException.class,
                TransientDataAccessException.class,
                R2dbcTransientResourceException.class,
                R2dbcNonTransientResourceException.class,
                TimeoutException.class,
                ConnectException.class,
                IOException.class);
    }
}
