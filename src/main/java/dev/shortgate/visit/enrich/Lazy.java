package dev.shortgate.visit.enrich;

import java.util.function.Supplier;

/** A value made on first use, once, by whichever thread asks first; later callers get the same one. */
final class Lazy<T> implements Supplier<T> {

    private final Supplier<T> factory;
    private volatile T value;

    Lazy(Supplier<T> factory) {
        this.factory = factory;
    }

    @Override
    public T get() {
        T result = value;
        if (result == null) {
            synchronized (this) {
                result = value;
                if (result == null) {
                    result = factory.get();
                    value = result;
                }
            }
        }
        return result;
    }
}
