package dev.shortgate.system.problem;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/** Walks an error's cause chain: the error itself first, then each cause, stopping at one already seen. */
public final class Causes {

    private Causes() {}

    /** The error and its causes, outermost first; a cycle ends the walk instead of running forever. */
    public static Stream<Throwable> of(Throwable error) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        return Stream.iterate(error, t -> t != null && seen.add(t), Throwable::getCause);
    }

    /** The first of the error and its causes that is a {@code type}. */
    public static <T extends Throwable> Optional<T> find(Throwable error, Class<T> type) {
        return of(error).filter(type::isInstance).map(type::cast).findFirst();
    }

    /** Whether the error or any of its causes is one of {@code types}. */
    @SafeVarargs
    public static boolean any(Throwable error, Class<? extends Throwable>... types) {
        return of(error).anyMatch(t -> Stream.of(types).anyMatch(type -> type.isInstance(t)));
    }

    /** The innermost cause (the error itself when it has none). */
    public static Throwable root(Throwable error) {
        return of(error).reduce((outer, inner) -> inner).orElse(error);
    }
}
