/*
 * ws-load: many read-only ("display") WebSocket clients of `karaoke serve` in ONE libwebsockets
 * event-loop thread, so the load generator is not the bottleneck when measuring delivery delay
 * to 1,000+ clients on a 2-core machine (Python asyncio clients were: docs/server-load.md).
 *
 * Driven by Benchmarks/server_load.py (--client c), which starts the server, the slow client
 * and the host. Protocol on stdin/stdout, one line each:
 *   stdout "ready <established> <failed>"   all connections are up (or failed)
 *   stdin  "start"                           record delays from now on
 *   stdin  "stop"                            print the JSON report on stdout and exit
 *
 * For every `line` and `state` event a client receives after its `hello`, the delay is
 * receive wall-clock time minus the event's `t` (server wall clock at encoding, Unix ms).
 *
 * Build: cc -O2 -Wall -o ws-load ws_load.c $(pkg-config --cflags --libs libwebsockets) -lpthread
 */
#include <libwebsockets.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

enum { MAX_MESSAGE = 4 << 20 };

struct client {
	struct lws *wsi;
	int index;
	char source[32];
	char *buf;
	size_t len, cap;
	int established, failed, closed, got_hello, overflow;
	double last_t; /* `t` of this client's previous line/state event */
	long hello, line, state, other;
	char why[96];
};

static struct lws_context *context;
static struct client *clients;
static int client_count, next_client, per_address = 25, batch = 50, port;
static int established_count, failed_count, ready_printed;
static atomic_int measuring, stopping;
/* All measured delays, and those of events encoded within 5 ms after the client's previous
 * event (the room's ticker sends a `line` and a `state` in one tick): the server writes the
 * second only after the first went to every client. */
struct delay_list {
	double *values;
	size_t count, cap;
};
static struct delay_list all_delays, follower_delays, single_delays;
static lws_sorted_usec_list_t connect_sul;

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

static void record_delay(struct delay_list *list, double d)
{
	if (list->count == list->cap) {
		list->cap = list->cap ? list->cap * 2 : 1 << 12;
		list->values = realloc(list->values, list->cap * sizeof *list->values);
		if (!list->values) {
			fprintf(stderr, "ws-load: out of memory for delays\n");
			exit(2);
		}
	}
	list->values[list->count++] = d;
}

/* Index just past the string that starts with the quote at s[i]. */
static size_t skip_string(const char *s, size_t n, size_t i)
{
	for (i++; i < n; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == '"')
			return i + 1;
	}
	return n;
}

static size_t skip_space(const char *s, size_t n, size_t i)
{
	while (i < n && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t'))
		i++;
	return i;
}

/*
 * Finds the top-level "type" (string) and "t" (number) of one JSON object. Only keys at depth 1
 * count, so a nested "type" or "t" cannot be mistaken for the envelope's. s is NUL-terminated.
 * Returns 1 when both were found.
 */
static int scan_envelope(const char *s, size_t n, char *type, size_t type_cap, double *t)
{
	int depth = 0, want_key = 0, have_type = 0, have_t = 0;
	size_t i = 0;
	while (i < n) {
		if (want_key) {
			want_key = 0;
			i = skip_space(s, n, i);
			if (i >= n || s[i] != '"')
				continue;
			size_t key = i + 1;
			i = skip_string(s, n, i);
			size_t key_len = i - 1 - key;
			i = skip_space(s, n, i);
			if (i < n && s[i] == ':')
				i = skip_space(s, n, i + 1);
			if (key_len == 4 && !memcmp(s + key, "type", 4) && i < n && s[i] == '"') {
				size_t end = skip_string(s, n, i), len = end - i - 2;
				if (len >= type_cap)
					len = type_cap - 1;
				memcpy(type, s + i + 1, len);
				type[len] = '\0';
				have_type = 1;
				i = end;
			} else if (key_len == 1 && s[key] == 't') {
				char *end;
				*t = strtod(s + i, &end);
				have_t = end != s + i;
				i = (size_t)(end - s);
			}
			continue;
		}
		char c = s[i];
		if (c == '"') {
			i = skip_string(s, n, i);
			continue;
		}
		if (c == '{' || c == '[') {
			depth++;
			want_key = c == '{' && depth == 1;
		} else if (c == '}' || c == ']') {
			depth--;
		} else if (c == ',' && depth == 1) {
			want_key = 1;
		}
		i++;
	}
	return have_type && have_t;
}

static void maybe_ready(void)
{
	if (!ready_printed && established_count + failed_count == client_count) {
		ready_printed = 1;
		printf("ready %d %d\n", established_count, failed_count);
		fflush(stdout);
	}
}

static void message_complete(struct client *c, double received)
{
	char type[32] = "";
	double t = 0;
	c->buf[c->len] = '\0';
	int ok = scan_envelope(c->buf, c->len, type, sizeof type, &t);
	c->len = 0;
	if (!strcmp(type, "hello")) {
		c->hello++;
		c->got_hello = 1;
	} else if (!strcmp(type, "line") || !strcmp(type, "state")) {
		if (type[0] == 'l')
			c->line++;
		else
			c->state++;
		if (ok && c->got_hello && atomic_load(&measuring)) {
			record_delay(&all_delays, received - t);
			if (t - c->last_t < 5)
				record_delay(&follower_delays, received - t);
			else
				record_delay(&single_delays, received - t);
		}
		if (ok)
			c->last_t = t;
	} else {
		c->other++;
	}
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	struct client *c = user;
	switch (reason) {
	case LWS_CALLBACK_CLIENT_ESTABLISHED:
		c->established = 1;
		established_count++;
		maybe_ready();
		break;
	case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
		snprintf(c->why, sizeof c->why, "connection error: %s", in ? (const char *)in : "?");
		if (c->established) {
			c->closed = 1;
		} else if (!c->failed) {
			c->failed = 1;
			failed_count++;
			maybe_ready();
		}
		c->wsi = NULL;
		break;
	case LWS_CALLBACK_CLIENT_RECEIVE: {
		double received = now_ms();
		if (c->len + len + 1 > c->cap) {
			size_t cap = c->cap ? c->cap : 4096;
			while (cap < c->len + len + 1)
				cap *= 2;
			if (cap > MAX_MESSAGE) {
				c->overflow = 1;
				c->len = 0;
				break;
			}
			c->buf = realloc(c->buf, cap);
			if (!c->buf) {
				fprintf(stderr, "ws-load: out of memory\n");
				exit(2);
			}
			c->cap = cap;
		}
		memcpy(c->buf + c->len, in, len);
		c->len += len;
		if (lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi))
			message_complete(c, received);
		break;
	}
	case LWS_CALLBACK_CLIENT_CLOSED:
		if (!atomic_load(&stopping)) {
			c->closed = 1;
			if (!c->why[0])
				snprintf(c->why, sizeof c->why, "closed by server");
		}
		c->wsi = NULL;
		break;
	default:
		break;
	}
	return 0;
}

static const struct lws_protocols protocols[] = {
	{ "karaoke", callback, 0, 16384, 0, NULL, 0 },
	{ NULL, NULL, 0, 0, 0, NULL, 0 } /* terminator */
};

/* The server admits a bounded number of connections per address, so clients come from many
 * loopback addresses (the same scheme as server_load.py's source_address). */
static void source_address(int index, char *out, size_t cap)
{
	int group = index / per_address;
	snprintf(out, cap, "127.1.%d.%d", group / 250, group % 250 + 1);
}

static void connect_batch(lws_sorted_usec_list_t *sul)
{
	(void)sul;
	static char host[32];
	snprintf(host, sizeof host, "127.0.0.1:%d", port);
	for (int k = 0; k < batch && next_client < client_count; k++, next_client++) {
		struct client *c = &clients[next_client];
		struct lws_client_connect_info ci;
		memset(&ci, 0, sizeof ci);
		c->index = next_client;
		source_address(next_client, c->source, sizeof c->source);
		ci.context = context;
		ci.address = "127.0.0.1";
		ci.port = port;
		ci.path = "/";
		ci.host = host;
		ci.protocol = "karaoke";
		ci.iface = c->source;
		ci.userdata = c;
		ci.pwsi = &c->wsi;
		ci.ietf_version_or_minus_one = -1;
		if (!lws_client_connect_via_info(&ci) && !c->failed && !c->established) {
			c->failed = 1;
			snprintf(c->why, sizeof c->why, "connect refused locally");
			failed_count++;
		}
	}
	maybe_ready();
	if (next_client < client_count)
		lws_sul_schedule(context, 0, &connect_sul, connect_batch, 50 * LWS_US_PER_MS);
}

static void *read_commands(void *unused)
{
	(void)unused;
	char line[64];
	while (fgets(line, sizeof line, stdin)) {
		if (!strncmp(line, "start", 5))
			atomic_store(&measuring, 1);
		else if (!strncmp(line, "stop", 4))
			break;
		lws_cancel_service(context);
	}
	atomic_store(&stopping, 1); /* "stop" or the orchestrator went away */
	lws_cancel_service(context);
	return NULL;
}

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double quantile(const struct delay_list *list, double q)
{
	size_t i = (size_t)(q * list->count);
	return list->values[i < list->count ? i : list->count - 1];
}

static void report(double cpu_seconds, double wall_seconds)
{
	long line_min = -1, line_max = -1, state_min = -1, state_max = -1;
	int dropped = 0, failed = 0, overflow = 0;
	for (int i = 0; i < client_count; i++) {
		struct client *c = &clients[i];
		failed += c->failed;
		dropped += c->closed;
		overflow += c->overflow;
		if (line_min < 0 || c->line < line_min) line_min = c->line;
		if (c->line > line_max) line_max = c->line;
		if (state_min < 0 || c->state < state_min) state_min = c->state;
		if (c->state > state_max) state_max = c->state;
	}
	qsort(all_delays.values, all_delays.count, sizeof(double), compare_double);
	qsort(follower_delays.values, follower_delays.count, sizeof(double), compare_double);
	qsort(single_delays.values, single_delays.count, sizeof(double), compare_double);
	printf("{\"clients\": %d, \"established\": %d, \"failed\": %d, \"dropped\": %d, \"oversized\": %d,\n",
	       client_count, established_count, failed, dropped, overflow);
	printf(" \"line_min\": %ld, \"line_max\": %ld, \"state_min\": %ld, \"state_max\": %ld,\n",
	       line_min, line_max, state_min, state_max);
	printf(" \"events_measured\": %zu", all_delays.count);
	if (all_delays.count)
		printf(", \"delay_ms_median\": %.3f, \"delay_ms_p99\": %.3f, \"delay_ms_p999\": %.3f, \"delay_ms_max\": %.3f",
		       quantile(&all_delays, 0.5), quantile(&all_delays, 0.99), quantile(&all_delays, 0.999),
		       all_delays.values[all_delays.count - 1]);
	printf(",\n \"back_to_back_events\": %zu", follower_delays.count);
	if (follower_delays.count)
		printf(", \"back_to_back_delay_ms_median\": %.3f, \"back_to_back_delay_ms_p99\": %.3f",
		       quantile(&follower_delays, 0.5), quantile(&follower_delays, 0.99));
	if (single_delays.count)
		printf(", \"other_delay_ms_median\": %.3f, \"other_delay_ms_p99\": %.3f",
		       quantile(&single_delays, 0.5), quantile(&single_delays, 0.99));
	printf(",\n \"client_cpu_seconds\": %.3f, \"client_wall_seconds\": %.3f", cpu_seconds, wall_seconds);
	printf(",\n \"first_problems\": [");
	int shown = 0;
	for (int i = 0; i < client_count && shown < 5; i++) {
		if (clients[i].why[0]) {
			printf("%s\"client %d from %s: %s\"", shown ? ", " : "", i, clients[i].source, clients[i].why);
			shown++;
		}
	}
	printf("]}\n");
	fflush(stdout);
}

static double process_cpu_seconds(void)
{
	struct rusage u;
	getrusage(RUSAGE_SELF, &u);
	return u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + u.ru_stime.tv_sec + u.ru_stime.tv_usec / 1e6;
}

/* `ws-load --self-test`: the envelope scanner on nested and reordered keys; exit 1 on a miss. */
static int self_test(void)
{
	static const struct {
		const char *json, *type;
		double t;
		int found;
	} cases[] = {
		{ "{\"v\":1,\"type\":\"line\",\"t\":1764080000123.5,\"part\":0}", "line", 1764080000123.5, 1 },
		{ "{\"state\":{\"type\":\"x\",\"t\":1},\"t\":42,\"type\":\"state\"}", "state", 42, 1 },
		{ "{ \"note\" : \"a \\\"t\\\": 9, \", \"type\" : \"hello\" , \"t\" : 7 }", "hello", 7, 1 },
		{ "{\"type\":\"state\",\"t\":42,\"state\":{\"a\":1,\"type\":\"x\",\"t\":1}}", "state", 42, 1 },
		{ "{\"queue\":[{\"t\":3,\"type\":\"song\"}],\"type\":\"queue\"}", "queue", 0, 0 },
	};
	int failures = 0;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char type[32] = "";
		double t = 0;
		int found = scan_envelope(cases[i].json, strlen(cases[i].json), type, sizeof type, &t);
		if (found != cases[i].found || strcmp(type, cases[i].type) || (found && t != cases[i].t)) {
			fprintf(stderr, "self-test case %zu: got found=%d type=%s t=%f\n", i, found, type, t);
			failures++;
		}
	}
	printf("self-test: %d of %zu cases failed\n", failures, sizeof cases / sizeof cases[0]);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--self-test"))
		return self_test();
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--port")) port = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--clients")) client_count = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--per-address")) per_address = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--batch")) batch = atoi(argv[i + 1]);
		else {
			fprintf(stderr, "ws-load: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	if (port <= 0 || port > 65535 || client_count <= 0 || client_count > 60000 || per_address <= 0 || batch <= 0) {
		fprintf(stderr, "usage: ws-load --port P --clients N [--per-address 25] [--batch 50]\n");
		return 2;
	}
	clients = calloc((size_t)client_count, sizeof *clients);
	if (!clients)
		return 2;

	lws_set_log_level(LLL_ERR, NULL);
	struct lws_context_creation_info info;
	memset(&info, 0, sizeof info);
	info.port = CONTEXT_PORT_NO_LISTEN;
	info.protocols = protocols;
	info.count_threads = 1;
	info.fd_limit_per_thread = (unsigned int)client_count + 64;
	info.gid = -1;
	info.uid = -1;
	info.timeout_secs = 60;
	context = lws_create_context(&info);
	if (!context) {
		fprintf(stderr, "ws-load: cannot create the libwebsockets context\n");
		return 2;
	}
	pthread_t reader;
	pthread_create(&reader, NULL, read_commands, NULL);

	double cpu_start = 0, wall_start = 0;
	connect_batch(NULL);
	while (!atomic_load(&stopping)) {
		if (lws_service(context, 0) < 0)
			break;
		if (wall_start == 0 && atomic_load(&measuring)) {
			cpu_start = process_cpu_seconds(); /* the client's own cost over the measured part */
			wall_start = now_ms();
		}
	}
	if (wall_start == 0) { /* never started: report nothing as the measured part's cost */
		cpu_start = process_cpu_seconds();
		wall_start = now_ms();
	}
	atomic_store(&stopping, 1);
	report(process_cpu_seconds() - cpu_start, (now_ms() - wall_start) / 1000);
	lws_context_destroy(context);
	return 0;
}
