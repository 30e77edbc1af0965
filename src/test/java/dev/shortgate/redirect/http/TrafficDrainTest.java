package dev.shortgate.redirect.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Shutdown's drain of the traffic port (fault check F6 of {@code .ci/run}): once it begins, no new connection is
 * accepted, the next request on each open keep-alive connection is still answered, on the fast path and through the
 * general stack alike, with {@code Connection: close}, and the connection is closed after it; a connection left idle is
 * closed soon after. Before, Reactor Netty's graceful shutdown closed at once every connection without a request in its
 * own hands, so a request just sent, or being answered on the fast path, got a closed connection and no answer.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "shortgate.security.admin-key=" + TrafficDrainTest.KEY,
            "spring.r2dbc.url=r2dbc:h2:mem:///drain?options=DB_CLOSE_DELAY=-1;MODE=MySQL;DATABASE_TO_LOWER=TRUE"
        })
@AutoConfigureWebTestClient(timeout = "30s")
@DirtiesContext // the drain closes the traffic port
class TrafficDrainTest {

    static final String KEY = "drain-admin-key-01234567";

    @LocalServerPort
    int port;

    @Autowired
    WebTestClient client;

    @Autowired
    FastRedirects fast;

    @Test
    void drainAnswersTheNextRequestOnEachOpenConnectionWithCloseThenClosesItAndRefusesNewOnes() throws IOException {
        String code = client.mutate()
                .defaultHeader("X-Api-Key", KEY)
                .build()
                .post()
                .uri("/api/v1/links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/drain"))
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody(Map.class)
                .returnResult()
                .getResponseBody()
                .get("code")
                .toString();
        try (Socket fastPath = socket();
                Socket general = socket();
                Socket idle = socket()) {
            assertThat(exchange(fastPath, get("/" + code)))
                    .startsWith("HTTP/1.1 302")
                    .doesNotContainIgnoringCase("connection: close");
            assertThat(exchange(general, get("/api/v1/links/" + code)))
                    .startsWith("HTTP/1.1 401")
                    .doesNotContainIgnoringCase("connection: close");
            assertThat(exchange(idle, get("/" + code))).startsWith("HTTP/1.1 302");

            AtomicBoolean drained = new AtomicBoolean();
            fast.drain(Duration.ofSeconds(20))
                    .doFinally(signal -> drained.set(true))
                    .subscribe();

            assertThat(exchange(fastPath, get("/" + code)))
                    .startsWith("HTTP/1.1 302")
                    .containsIgnoringCase("connection: close")
                    .contains("https://example.com/drain");
            assertThat(fastPath.getInputStream().read())
                    .as("closed after the answer")
                    .isEqualTo(-1);
            assertThat(exchange(general, get("/api/v1/links/" + code)))
                    .startsWith("HTTP/1.1 401")
                    .containsIgnoringCase("connection: close");
            assertThat(general.getInputStream().read())
                    .as("closed after the answer")
                    .isEqualTo(-1);
            // the listening channel closes on its event loop, shared with every server in this JVM: give it a moment
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThatThrownBy(this::socket)
                    .as("no new connection")
                    .isInstanceOf(ConnectException.class));

            assertThat(idle.getInputStream().read())
                    .as("idle connection closed")
                    .isEqualTo(-1);
            await().atMost(Duration.ofSeconds(5)).untilTrue(drained);
            assertThat(fast.openConnections()).isZero();
        }
    }

    private Socket socket() throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        return socket;
    }

    private static String get(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n";
    }

    private static String exchange(Socket socket, String request) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(request.getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return read(socket.getInputStream());
    }

    /** One response: its head, and its body when it has a length. */
    private static String read(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed after: " + head);
            }
            head.write(b);
        }
        String text = head.toString(StandardCharsets.US_ASCII);
        for (String line : text.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                int length = Integer.parseInt(
                        line.substring("content-length:".length()).trim());
                text += new String(in.readNBytes(length), StandardCharsets.US_ASCII);
            }
        }
        return text;
    }
}
