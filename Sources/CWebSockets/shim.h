#include <libwebsockets.h>
// LWS_PRE is a ternary macro and does not import into Swift.
static inline size_t kar_lws_pre(void) { return LWS_PRE; }
// lws_wsi_close-style async kill: LWS_TO_KILL_ASYNC is a macro.
static inline void kar_lws_kill_async(struct lws *wsi) { lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC); }
