package dev.shortgate.shlink;

import java.util.List;

import org.springframework.util.MultiValueMap;

/**
 * Shlink's {@code page} (from 1) and {@code itemsPerPage}; an {@code itemsPerPage} below 1 asks for everything,
 * which is capped at {@link #MAX_ITEMS} (shlink-web-client loads visits in pages of 5000).
 */
record Paging(int page, int itemsPerPage) {

    static final int MAX_ITEMS = 5000;

    static Paging of(MultiValueMap<String, String> params, int defaultItems) {
        int page = number(params.getFirst("page"), 1, "page");
        int items = number(params.getFirst("itemsPerPage"), defaultItems, "itemsPerPage");
        return new Paging(Math.max(page, 1), items < 1 || items > MAX_ITEMS ? MAX_ITEMS : items);
    }

    int offset() {
        return (int) Math.min(Integer.MAX_VALUE, (long) (page - 1) * itemsPerPage);
    }

    <T> ShlinkJson.Page<T> page(List<T> items, long total) {
        long pages = (total + itemsPerPage - 1) / itemsPerPage;
        return new ShlinkJson.Page<>(items, new ShlinkJson.Pagination(page, pages, itemsPerPage, items.size(), total));
    }

    /** A page of a list already held in full. */
    <T> ShlinkJson.Page<T> slice(List<T> all) {
        int from = Math.min(offset(), all.size());
        int to = (int) Math.min(all.size(), (long) from + itemsPerPage);
        return page(all.subList(from, to), all.size());
    }

    private static int number(String value, int fallback, String name) {
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, Long.parseLong(value.trim())));
        } catch (NumberFormatException e) {
            throw ShlinkErrors.invalidData(name, name + " must be a whole number.");
        }
    }
}
