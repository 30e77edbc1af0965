/*
 * pacer: an open-loop HTTP/1.1 load generator for the paced and cold-start scenarios (wrk2 is not in Debian).
 *
 *   pacer -p PORT -c CONNECTIONS -d SECONDS -f CODES [-r RATE] [-o RAW] [-b] [-z S]
 *
 * With -r RATE (requests per second), request i is due at start + i / RATE whatever happened before it, and its
 * latency is measured from that due time, not from when a connection was free to send it: a stall delays every
 * request due during it, and each of them is charged the wait (no coordinated omission). Requests that find no idle
 * connection queue in order. Between two due times it sleeps in epoll_pwait2 with a nanosecond timeout; -b busy-polls
 * instead (the old behaviour: epoll_wait's millisecond timeout rounds every gap shorter than 1 ms down to 0, so at
 * 10,000 req/s and more the pacer spun a whole core, taking it from the server it measures). Without -r (closed loop, like wrk) each connection sends its next request as soon as
 * the previous answer arrived. Each request is a GET of a random line of CODES on 127.0.0.1:PORT, keep-alive: every
 * line equally likely, or with -z S Zipf-distributed with exponent S (S > 0): the line of rank k (in file order, the
 * first line rank 1) is asked for in proportion to 1 / k^S, as real traffic concentrates on a few links.
 *
 * Prints one line: BENCH_PACER {"sent":..,"answered":..,"errors":..,"status_5xx":..,"p50_us":..,"p99_us":..,
 * "p999_us":..,"max_us":..,"rps":..,"t0_unix_us":..,"cpu_ms":..}: t0_unix_us is the wall-clock time of due time 0 (to line
 * the records up with a GC log), cpu_ms the pacer's own CPU time. With -o, writes one 12-byte record per answered request (uint32 due time in
 * microseconds from the start, uint32 latency in microseconds, uint32 status, 0 for a connection error).
 *
 * Build: gcc -O2 -o pacer pacer.c -lm
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONNS 1024
#define BUF 16384

typedef struct {
    int fd;
    int busy;
    uint64_t due;     /* ns since start */
    size_t have;      /* bytes in buf */
    char buf[BUF];
} conn_t;

static conn_t conns[MAX_CONNS];
static int nconns, port, epfd;
static char **codes;
static size_t ncodes;
static double *zipf_cdf; /* with -z: the cumulative probability of ranks 1..k, at k - 1; NULL for uniform */
static uint64_t t0;
static FILE *raw;
static uint32_t *lat;
static size_t nlat, caplat;
static uint64_t answered, errors, s5xx;

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void die(const char *what) { perror(what); exit(2); }

static void open_conn(conn_t *c) {
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    c->fd = socket(AF_INET, SOCK_STREAM, 0);
    if (c->fd < 0) die("socket");
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(c->fd, (struct sockaddr *)&a, sizeof a) < 0) die("connect");
    fcntl(c->fd, F_SETFL, O_NONBLOCK);
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
    if (epoll_ctl(epfd, EPOLL_CTL_ADD, c->fd, &ev) < 0) die("epoll_ctl");
    c->busy = 0;
    c->have = 0;
}

static void record(conn_t *c, unsigned status) {
    uint64_t done = now_ns() - t0;
    uint32_t us = (uint32_t)((done - c->due) / 1000);
    if (nlat == caplat) {
        caplat = caplat ? caplat * 2 : 1 << 20;
        lat = realloc(lat, caplat * sizeof *lat);
        if (!lat) die("realloc");
    }
    lat[nlat++] = us;
    if (status == 0) errors++;
    else answered++;
    if (status >= 500) s5xx++;
    if (raw) {
        uint32_t rec[3] = {(uint32_t)(c->due / 1000), us, status};
        fwrite(rec, sizeof rec, 1, raw);
    }
    c->busy = 0;
}

static void reconnect(conn_t *c) {
    epoll_ctl(epfd, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    open_conn(c);
}

/* the index of the next code asked for: uniform, or the first rank whose cumulative probability reaches u */
static size_t next_code(void) {
    if (!zipf_cdf) return (size_t)random() % ncodes;
    double u = (random() + 0.5) / ((double)RAND_MAX + 1.0);
    size_t lo = 0, hi = ncodes - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (zipf_cdf[mid] < u) lo = mid + 1; else hi = mid;
    }
    return lo;
}

static void zipf_init(double s) {
    zipf_cdf = malloc(ncodes * sizeof *zipf_cdf);
    if (!zipf_cdf) die("malloc");
    double sum = 0;
    for (size_t k = 0; k < ncodes; k++) zipf_cdf[k] = (sum += pow((double)(k + 1), -s));
    for (size_t k = 0; k < ncodes; k++) zipf_cdf[k] /= sum;
    zipf_cdf[ncodes - 1] = 1.0;
}

static int send_req(conn_t *c, uint64_t due) {
    char req[256];
    const char *code = codes[next_code()];
    int n = snprintf(req, sizeof req, "GET /%s HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: pacer\r\n\r\n", code);
    c->due = due;
    c->busy = 1;
    c->have = 0;
    if (write(c->fd, req, n) != n) {
        record(c, 0);
        reconnect(c);
        return 0;
    }
    return 1;
}

/* 1 when a whole response is in the buffer (status in *status), 0 when more is needed */
static int parse(conn_t *c, unsigned *status) {
    c->buf[c->have] = 0;
    char *end = strstr(c->buf, "\r\n\r\n");
    if (!end) return 0;
    size_t head = (size_t)(end - c->buf) + 4, body = 0;
    *status = (unsigned)atoi(c->buf + 9);
    for (char *p = strstr(c->buf, "\r\n"); p && p < end; p = strstr(p, "\r\n")) {
        p += 2;
        if (strncasecmp(p, "content-length:", 15) == 0) body = (size_t)strtoul(p + 15, NULL, 10);
    }
    if (c->have < head + body) return 0;
    return 1;
}

int main(int argc, char **argv) {
    double rate = 0, seconds = 10;
    const char *codes_file = NULL, *raw_file = NULL;
    int opt;
    int busy_poll = 0;
    double zipf = 0;
    nconns = 64;
    while ((opt = getopt(argc, argv, "p:c:d:f:r:o:bz:")) != -1) {
        switch (opt) {
        case 'p': port = atoi(optarg); break;
        case 'c': nconns = atoi(optarg); break;
        case 'd': seconds = atof(optarg); break;
        case 'f': codes_file = optarg; break;
        case 'r': rate = atof(optarg); break;
        case 'o': raw_file = optarg; break;
        case 'b': busy_poll = 1; break;
        case 'z': zipf = atof(optarg); if (zipf <= 0) { fprintf(stderr, "-z needs an exponent > 0\n"); return 2; } break;
        default: fprintf(stderr, "usage: pacer -p PORT -c CONNS -d SECONDS -f CODES [-r RATE] [-o RAW] [-b] [-z S]\n"); return 2;
        }
    }
    if (!port || !codes_file || nconns < 1 || nconns > MAX_CONNS) { fprintf(stderr, "bad arguments\n"); return 2; }
    FILE *f = fopen(codes_file, "r");
    if (!f) die(codes_file);
    char line[256];
    size_t cap = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n \t")] = 0;
        if (!*line) continue;
        if (ncodes == cap) { cap = cap ? cap * 2 : 1024; codes = realloc(codes, cap * sizeof *codes); }
        codes[ncodes++] = strdup(line);
    }
    fclose(f);
    if (!ncodes) { fprintf(stderr, "no codes\n"); return 2; }
    if (zipf > 0) zipf_init(zipf);
    if (raw_file && !(raw = fopen(raw_file, "wb"))) die(raw_file);
    srandom((unsigned)now_ns());
    epfd = epoll_create1(0);
    for (int i = 0; i < nconns; i++) open_conn(&conns[i]);

    struct timespec wall0;
    t0 = now_ns();
    clock_gettime(CLOCK_REALTIME, &wall0);
    uint64_t duration = (uint64_t)(seconds * 1e9), scheduled = 0, sent = 0;
    /* due times of requests waiting for a connection: with a fixed rate they are start + k / rate, so the queue is
       just the range [sent, scheduled) */
    struct epoll_event evs[MAX_CONNS];
    for (;;) {
        uint64_t t = now_ns() - t0;
        int stopping = t >= duration;
        if (rate > 0) {
            if (!stopping) scheduled = (uint64_t)((double)t * rate / 1e9) + 1;
            for (int i = 0; i < nconns && sent < scheduled; i++)
                if (!conns[i].busy) { send_req(&conns[i], (uint64_t)((double)sent * 1e9 / rate)); sent++; }
        } else if (!stopping) {
            for (int i = 0; i < nconns; i++)
                if (!conns[i].busy) { send_req(&conns[i], now_ns() - t0); sent++; }
        }
        int inflight = 0;
        for (int i = 0; i < nconns; i++) inflight += conns[i].busy;
        if (stopping && inflight == 0) break;
        if (stopping && t > duration + 10000000000ull) break; /* 10 s grace for the last answers */
        /* sleep until the next due time (or an answer), at most 1 ms */
        uint64_t wait_ns = 1000000;
        if (rate > 0 && !stopping) {
            uint64_t next = (uint64_t)((double)scheduled * 1e9 / rate);
            wait_ns = next > t ? next - t : 0;
            if (wait_ns > 1000000) wait_ns = 1000000;
        }
        int n;
        if (busy_poll) {
            n = epoll_wait(epfd, evs, MAX_CONNS, (int)(wait_ns / 1000000));
        } else {
            struct timespec ts = {.tv_sec = 0, .tv_nsec = (long)wait_ns};
            n = epoll_pwait2(epfd, evs, MAX_CONNS, &ts, NULL);
        }
        for (int k = 0; k < n; k++) {
            conn_t *c = evs[k].data.ptr;
            for (;;) {
                ssize_t r = read(c->fd, c->buf + c->have, BUF - 1 - c->have);
                if (r > 0) {
                    c->have += (size_t)r;
                    unsigned status;
                    if (c->busy && parse(c, &status)) { record(c, status); c->have = 0; }
                    if (c->have >= BUF - 1) c->have = 0; /* a response larger than the buffer: drop it */
                    continue;
                }
                if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
                    if (c->busy) record(c, 0);
                    reconnect(c);
                }
                break;
            }
        }
    }
    double elapsed = (double)(now_ns() - t0) / 1e9;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double cpu_ms = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
    if (raw) fclose(raw);
    int cmp(const void *a, const void *b) {
        uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
        return x < y ? -1 : x > y;
    }
    qsort(lat, nlat, sizeof *lat, cmp);
#define PCT(p) (nlat ? lat[(size_t)((double)(nlat - 1) * (p))] : 0)
    printf("BENCH_PACER {\"rate\":%.0f,\"connections\":%d,\"seconds\":%.1f,\"sent\":%llu,\"answered\":%llu,"
           "\"errors\":%llu,\"status_5xx\":%llu,\"p50_us\":%u,\"p99_us\":%u,\"p999_us\":%u,\"max_us\":%u,\"rps\":%.0f,"
           "\"t0_unix_us\":%llu,\"cpu_ms\":%.0f}\n",
           rate, nconns, elapsed, (unsigned long long)sent, (unsigned long long)answered, (unsigned long long)errors,
           (unsigned long long)s5xx, PCT(0.5), PCT(0.99), PCT(0.999), nlat ? lat[nlat - 1] : 0,
           (double)answered / (seconds < elapsed ? seconds : elapsed),
           (unsigned long long)wall0.tv_sec * 1000000ull + (unsigned long long)wall0.tv_nsec / 1000, cpu_ms);
    return 0;
}
