package dev.shortgate.system.problem;

import java.time.temporal.Temporal;
import java.util.List;

import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/** Turns a body field that does not bind, or that the body's type does not have, into an {@code invalid-request} problem that names the field. */
public final class JsonProblems {

    private JsonProblems() {}

    /** The first JSON error in {@code error}'s causes that names a field, if any. */
    static JacksonException fieldError(Throwable error) {
        return Causes.of(error)
                .filter(t -> t instanceof JacksonException json && field(json) != null)
                .map(JacksonException.class::cast)
                .findFirst()
                .orElse(null);
    }

    /** An {@code invalid-request} problem naming the field {@code error} is about (the body, if none). */
    public static ProblemException invalidField(JacksonException error) {
        String field = field(error);
        if (field == null) {
            return Problem.INVALID_REQUEST.toException("The request body is not valid JSON for this endpoint.");
        }
        if (error instanceof UnrecognizedPropertyException unknown) {
            return Problem.INVALID_REQUEST
                    .toException("'" + field + "' is not a field of this request" + known(unknown) + ".")
                    .with("field", field);
        }
        return Problem.INVALID_REQUEST
                .toException(field + " must be " + expected(error) + ".")
                .with("field", field);
    }

    /** The innermost named property of the error's path: the field the value was meant for. */
    static String field(JacksonException error) {
        List<JacksonException.Reference> path = error.getPath();
        for (int i = path.size() - 1; i >= 0; i--) {
            String name = path.get(i).getPropertyName();
            if (name != null) {
                return name;
            }
        }
        return null;
    }

    private static String known(UnrecognizedPropertyException error) {
        return error.getKnownPropertyIds() == null
                ? ""
                : "; its fields are "
                        + error.getKnownPropertyIds().stream()
                                .map(String::valueOf)
                                .sorted()
                                .toList();
    }

    private static String expected(JacksonException error) {
        Class<?> target = error instanceof MismatchedInputException mismatch
                ? mismatch.getTargetType()
                : error instanceof InputCoercionException coercion ? coercion.getTargetType() : null;
        if (target == null) {
            return "a valid value";
        }
        if (target == int.class
                || target == Integer.class
                || target == long.class
                || target == Long.class
                || target == short.class
                || target == Short.class) {
            return "a JSON integer in range";
        }
        if (target == boolean.class || target == Boolean.class) {
            return "true or false";
        }
        if (target == String.class) {
            return "a JSON string";
        }
        if (Temporal.class.isAssignableFrom(target)) {
            return "an ISO-8601 instant such as 2030-01-01T00:00:00Z";
        }
        return "a valid value";
    }
}
