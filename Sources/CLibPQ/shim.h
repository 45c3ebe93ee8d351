// PostgreSQL's client library, for the venue's shared score store (ScoreStore/Postgres).
#include <libpq-fe.h>
