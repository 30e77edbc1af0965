package dev.shortgate.system.web;

import java.time.Duration;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.shortgate.system.problem.Problem;
import dev.shortgate.system.problem.ProblemException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.core.Ordered;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.RequestPath;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * A server-side deadline on every {@code /api/**} request ({@code shortgate.api.deadline}), armed before
 * authentication, on a timer thread of its own that nothing a backend does can hold up. A request still unanswered
 * then is cancelled and answered 503 {@code deadline-exceeded} with {@code Retry-After}.
 *
 * <p>Streams ({@link #STREAMS}: exports, an import's upload) have none.
 *
 * <p>A batch create keeps its own, longer deadline ({@code shortgate.api.batch-deadline}) inside the controller, where
 * it can answer the items that were done; this filter holds it to that deadline plus a margin, as a backstop.
 */
@Component
public class ApiDeadlines implements WebFilter, Ordered, DisposableBean {

    /** The margin the backstop leaves a batch to write the answer it assembled at its own deadline. */
    static final Duration BATCH_MARGIN = Duration.ofSeconds(2);

    private static final String STARTED = ApiDeadlines.class.getName() + ".started";

    /**
     * Requests as long as their data, which no fixed deadline fits: streamed exports, and an import's CSV body
     * written to disk as it arrives. Their pace is the client's; each database query they make has its own bounds.
     */
    static final java.util.Set<String> STREAMS =
            java.util.Set.of("/api/v1/links/export", "/api/v1/visits/export", "/api/v1/imports");

    private final ApiProperties properties;
    private final Ticker ticker;
    private final Scheduler timer = Schedulers.newSingle("shortgate-api-deadlines", true);
    private final Counter exceeded;
    private final Counter batchExceeded;

    ApiDeadlines(ApiProperties properties, Ticker ticker, MeterRegistry registry) {
        this.properties = properties;
        this.ticker = ticker;
        this.exceeded = exceeded(registry, "single");
        this.batchExceeded = exceeded(registry, "batch");
    }

    private static Counter exceeded(MeterRegistry registry, String kind) {
        return Counter.builder("shortgate.api.deadline.exceeded")
                .description("API requests (single) or batch items (batch) that passed their deadline")
                .tag("kind", kind)
                .register(registry);
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 5; // before authentication, which may query the database
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (!isApiPath(exchange.getRequest().getPath())
                || STREAMS.contains(exchange.getRequest().getPath().value())) {
            return chain.filter(exchange);
        }
        exchange.getAttributes().put(STARTED, ticker.read());
        Duration limit = isBatch(exchange) ? properties.batchDeadline().plus(BATCH_MARGIN) : properties.deadline();
        return chain.filter(exchange)
                .timeout(
                        limit,
                        Mono.defer(() -> {
                            exceeded.increment();
                            return Mono.error(
                                    deadlineExceeded("The request did not finish within its " + limit + " deadline."));
                        }),
                        timer);
    }

    /** The timer deadlines run on; never a thread that serves requests or talks to a backend. */
    public Scheduler timer() {
        return timer;
    }

    /** What is left of a batch create's deadline, counted from when the request reached the server. */
    public Duration batchRemaining(ServerWebExchange exchange) {
        Long started = exchange.getAttribute(STARTED);
        Duration deadline = properties.batchDeadline();
        if (started == null) {
            return deadline;
        }
        Duration left = deadline.minusNanos(ticker.read() - started);
        return left.isNegative() ? Duration.ZERO : left;
    }

    /** The configured batch deadline, for messages. */
    public Duration batchDeadlineSetting() {
        return properties.batchDeadline();
    }

    /** Counts batch items answered {@code deadline-exceeded}. */
    public void batchItemsExceeded(int items) {
        batchExceeded.increment(items);
    }

    /** The problem a request or batch item answers when it passed its deadline. */
    public static ProblemException deadlineExceeded(String detail) {
        return Problem.DEADLINE_EXCEEDED
                .toException(detail + " Nothing waits longer; retry shortly.")
                .retryAfter(Duration.ofSeconds(1));
    }

    @Override
    public void destroy() {
        timer.dispose();
    }

    private static boolean isBatch(ServerWebExchange exchange) {
        return HttpMethod.POST.equals(exchange.getRequest().getMethod())
                && exchange.getRequest()
                        .getPath()
                        .pathWithinApplication()
                        .value()
                        .endsWith("/links/batch");
    }

    /** The first path segment as routing sees it (decoded, without matrix parameters) is {@code api}. */
    static boolean isApiPath(RequestPath path) {
        for (PathContainer.Element element : path.pathWithinApplication().elements()) {
            if (element instanceof PathContainer.PathSegment segment) {
                return "api".equals(segment.valueToMatch());
            }
        }
        return false;
    }
}
