# Private PostgreSQL for the store tests: source this file, then call
#   pg_test_start   (exports KARAOKE_TEST_POSTGRES, the URL the tests read; $PG_DIR/ctl takes
#                    stop|start — the restart tests start a cluster of their own with this file)
#   pg_test_stop
# A throw-away cluster in a temporary directory, listening only on a unix socket there (no TCP
# port to collide with). PostgreSQL refuses to run as root, so as root the cluster belongs to
# the `postgres` user the Debian package creates. Tests without the variable skip themselves.

pg_test_start() {
  local bin=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
  if [ ! -x "$bin/initdb" ]; then echo "pg_test_start: no PostgreSQL server (apt-get install postgresql)" >&2; return 1; fi
  PG_DIR=$(mktemp -d /tmp/karaoke-pg.XXXXXX)
  local as=()
  if [ "$(id -u)" -eq 0 ]; then chown postgres: "$PG_DIR"; as=(runuser -u postgres --); fi
  "${as[@]}" "$bin/initdb" -D "$PG_DIR/data" -A trust -U karaoke --no-sync -E UTF8 >"$PG_DIR/initdb.log" 2>&1 \
    || { echo "pg_test_start: initdb failed" >&2; cat "$PG_DIR/initdb.log" >&2; return 1; }
  cat > "$PG_DIR/ctl" <<CTL
#!/bin/sh
# stop | start the test cluster (used by the PostgreSQL restart tests)
exec ${as[*]} "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 30 \\
  -o "-k $PG_DIR -c listen_addresses='' -c fsync=off -c max_connections=200" "\$1" \$([ "\$1" = stop ] && echo "-m fast")
CTL
  chmod 755 "$PG_DIR/ctl"
  "$PG_DIR/ctl" start >/dev/null || { echo "pg_test_start: PostgreSQL did not start" >&2; cat "$PG_DIR/server.log" >&2; return 1; }
  export KARAOKE_TEST_POSTGRES="postgres://karaoke@localhost/postgres?host=$PG_DIR"
  export PG_DIR
}

pg_test_stop() {
  [ -n "${PG_DIR:-}" ] || return 0
  "$PG_DIR/ctl" stop >/dev/null 2>&1 || true
  rm -rf "$PG_DIR"
  unset PG_DIR KARAOKE_TEST_POSTGRES
}
