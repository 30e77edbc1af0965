package dev.shortgate.link;

import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.shortgate.link.store.LinkTags;
import dev.shortgate.system.problem.JsonProblems;
import dev.shortgate.system.problem.Problem;
import org.springframework.modulith.NamedInterface;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A JSON merge patch (RFC 7386) of a link's editable fields, bound with the same strict types as a create: a field
 * the patch leaves out is not in {@link #present()}; one it sets to {@code null} is present with a null value.
 *
 * @param present        the fields the patch names
 * @param url            the new target URL
 * @param expiresAt      the new expiry; null removes it
 * @param maxVisits      the new visit limit; null removes it
 * @param disabled       switch the link off or on
 * @param redirectStatus 301, 302, 307 or 308
 * @param forwardQuery   append the visitor's query string to the target
 * @param tags           the link's tags from now on, normalised as a create's ({@link LinkTags#normalize}); null
 *                       or empty removes them all
 */
@NamedInterface("service")
public record LinkPatch(
        Set<String> present,
        String url,
        Instant expiresAt,
        Long maxVisits,
        Boolean disabled,
        Integer redirectStatus,
        Boolean forwardQuery,
        List<String> tags) {

    static final Set<String> EDITABLE =
            Set.of("url", "expiresAt", "maxVisits", "disabled", "redirectStatus", "forwardQuery", "tags");

    /** The values of a patch, bound by Jackson; which of them the patch named is kept apart. */
    record Values(
            String url,
            Instant expiresAt,
            Long maxVisits,
            Boolean disabled,
            Integer redirectStatus,
            Boolean forwardQuery,
            List<?> tags) {}

    public LinkPatch {
        present = Set.copyOf(present);
        tags = tags == null ? List.of() : List.copyOf(tags);
    }

    /** Binds a patch body; a field that is not editable, or a value of the wrong type or range, is a 400. */
    public static LinkPatch of(ObjectNode body, JsonMapper json) {
        Set<String> named = new LinkedHashSet<>(body.propertyNames());
        for (String field : named) {
            if (!EDITABLE.contains(field)) {
                throw Problem.INVALID_REQUEST
                        .toException("'" + field + "' cannot be changed; editable fields are " + EDITABLE + ".")
                        .with("field", field);
            }
        }
        Values values;
        try {
            values = json.treeToValue(body, Values.class);
        } catch (JacksonException e) {
            throw JsonProblems.invalidField(e);
        }
        List<String> tags = LinkTags.normalize(values.tags())
                .orElseThrow(() -> LinkRequests.invalid(
                        "tags",
                        "tags must be a list of texts of at most " + LinkTags.MAX_LENGTH + " characters each."));
        return new LinkPatch(
                named,
                values.url(),
                values.expiresAt(),
                values.maxVisits(),
                values.disabled(),
                values.redirectStatus(),
                values.forwardQuery(),
                tags);
    }

    public boolean has(String field) {
        return present.contains(field);
    }

    /** Whether the patch changes a field of the link row itself, and not only its tags. */
    public boolean changesLink() {
        return present.stream().anyMatch(field -> !"tags".equals(field));
    }
}
