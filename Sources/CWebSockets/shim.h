#include <libwebsockets.h>
// LWS_PRE is a ternary macro and does not import into Swift.
static inline size_t kar_lws_pre(void) { return LWS_PRE; }
