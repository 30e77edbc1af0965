package dev.shortgate.transfer;

import static dev.shortgate.transfer.TransferTest.result;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/** Imports and exports in the 62-table layout: codes of every first character, pages across tables. */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=" + TransferTest.KEY,
            "shortgate.storage.table-split=first-char",
            "shortgate.transfer.export-page=4",
            "spring.r2dbc.url=r2dbc:h2:mem:///transfersplit?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
class TransferSplitTest {

    static final List<String> CODES =
            List.of("_under", "-dash", "0zero", "9nine", "alpha", "Alpha", "beta", "Zulu", "zulu", "m-id_dle");

    WebTestClient web;

    @Autowired
    void client(WebTestClient client) {
        web = client.mutate().defaultHeader("X-Api-Key", TransferTest.KEY).build();
    }

    @Test
    void codesOfEveryFirstCharacterImportAndExportInCodeOrder() {
        StringBuilder csv = new StringBuilder("shortCode,longUrl,tags\n");
        CODES.forEach(code -> csv.append(code)
                .append(",https://example.com/split/")
                .append(code)
                .append(",s\n"));
        Map<String, Object> job = importCsv(csv.toString());
        assertThat(result(job)).containsEntry("created", CODES.size());
        CODES.forEach(code ->
                web.get().uri("/" + code).exchange().expectHeader().location("https://example.com/split/" + code));

        String exported = web.get()
                .uri("/api/v1/links/export?format=csv")
                .exchange()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        List<String> codes = exported.lines()
                .skip(1)
                .map(line -> line.substring(0, line.indexOf(',')))
                .toList();
        assertThat(codes).containsExactlyElementsOf(CODES.stream().sorted().toList());
        assertThat(result(importCsv(exported)))
                .containsEntry("unchanged", CODES.size())
                .containsEntry("created", 0);
    }

    Map<String, Object> importCsv(String csv) {
        return TransferTest.importAndWait(web, "/api/v1/imports", MediaType.parseMediaType("text/csv"), csv);
    }
}
