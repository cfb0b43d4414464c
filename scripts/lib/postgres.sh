# shellcheck shell=bash
# Helpers to run a private PostgreSQL 15 cluster for Chestonia Arena (sourced by scripts/up
# and scripts/test). As root, the cluster runs as the `postgres` OS user in a directory that
# user owns and can reach (never under /root), with its own socket directory.

PG_BIN=/usr/lib/postgresql/15/bin

# pg_free_port: prints a loopback TCP port nobody is listening on.
pg_free_port() {
  local port
  for _ in $(seq 1 200); do
    port=$(( 20000 + RANDOM % 30000 ))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return 0
    fi
  done
  echo "no free port found" >&2
  return 1
}

# pg_as_owner CMD...: runs a command as the cluster's owner.
pg_as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

# pg_prepare_dir DIR: creates DIR owned by the cluster's owner.
pg_prepare_dir() {
  local dir=$1
  mkdir -p "$dir"
  if [ "$(id -u)" -eq 0 ]; then
    chown postgres:postgres "$dir"
    chmod 700 "$dir"
  fi
}

# pg_init DIR: initdb on first use (DIR/data), with a socket dir DIR/run.
pg_init() {
  local dir=$1
  pg_prepare_dir "$dir"
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    pg_as_owner "$PG_BIN/initdb" -D "$dir/data" -U arena --auth=trust -E UTF8 --locale=C.UTF-8 \
      >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; return 1; }
  fi
  pg_as_owner mkdir -p "$dir/run"
}

# pg_start DIR PORT [extra -o options]: starts the cluster on 127.0.0.1:PORT and waits.
pg_start() {
  local dir=$1 port=$2 extra=${3:-}
  pg_as_owner "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -t 60 \
    -o "-p $port -k $dir/run -c listen_addresses=127.0.0.1 -c max_connections=400 -c shared_buffers=256MB $extra" \
    start >/dev/null || { tail -20 "$dir/postgres.log" >&2; return 1; }
  pg_as_owner "$PG_BIN/pg_isready" -h 127.0.0.1 -p "$port" -t 30 >/dev/null
}

# pg_stop DIR: stops the cluster if it runs.
pg_stop() {
  local dir=$1
  if [ -f "$dir/data/postmaster.pid" ]; then
    pg_as_owner "$PG_BIN/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null 2>&1 || true
  fi
}

# pg_url PORT [DB]: the connection URL of the private cluster.
pg_url() {
  echo "postgresql://arena@127.0.0.1:$1/${2:-postgres}"
}
