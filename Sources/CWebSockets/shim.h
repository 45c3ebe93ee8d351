#include <libwebsockets.h>
// LWS_PRE is a ternary macro and does not import into Swift.
static inline size_t kar_lws_pre(void) { return LWS_PRE; }
// LWS_WRITE_RAW is a macro for LWS_WRITE_HTTP: on a WebSocket connection, bytes sent unframed.
static inline enum lws_write_protocol kar_lws_write_raw(void) { return LWS_WRITE_RAW; }
// lws_wsi_close-style async kill: LWS_TO_KILL_ASYNC is a macro.
static inline void kar_lws_kill_async(struct lws *wsi) { lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC); }
