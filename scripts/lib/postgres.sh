# shellcheck shell=bash
# Helpers to run a private PostgreSQL 15 cluster for Chestonia Arena (sourced by scripts/up
# and scripts/test). As root, the cluster runs as the `postgres` OS user in a directory that
# user owns and can reach (never under /root), with its own socket directory.
#
# The cluster trusts nobody (docs/security.md): every connection, socket or TCP, needs a
# SCRAM-SHA-256 password; the socket directory is reachable by the cluster's OS user only.
# Two roles: the superuser `arena` (creates roles and databases; scripts only) and the
# service role `arena_service` (no superuser, no CREATEROLE, no CREATEDB) that owns the
# service database and its schemas. Their generated passwords live in a pgpass file
# (mode 0600) that connection URLs name with `passfile=`, so no password is ever on a command
# line or in an environment.

PG_BIN=/usr/lib/postgresql/15/bin
PG_SUPERUSER=arena
PG_SERVICE_ROLE=arena_service

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

# pg_prepare_dir DIR: creates DIR owned by the cluster's owner, reachable by it only.
pg_prepare_dir() {
  local dir=$1
  mkdir -p "$dir"
  if [ "$(id -u)" -eq 0 ]; then
    chown postgres:postgres "$dir"
  fi
  chmod 700 "$dir"
}

# pg_secret FILE: prints the secret in FILE, creating it (32 random bytes, hex, mode 0600).
pg_secret() {
  local file=$1
  ( umask 077; [ -s "$file" ] || od -An -tx1 -N32 /dev/urandom | tr -d ' \n' >"$file" )
  cat "$file"
}

# pg_write_pgpass SECRETS_DIR PORT: writes SECRETS_DIR/pgpass (0600) for both roles, creating
# their passwords (SECRETS_DIR/postgres-*.password) on first use.
pg_write_pgpass() {
  local secrets=$1 port=$2 su svc
  su=$(pg_secret "$secrets/postgres-superuser.password")
  svc=$(pg_secret "$secrets/postgres-service.password")
  ( umask 077
    printf '127.0.0.1:%s:*:%s:%s\n' "$port" "$PG_SUPERUSER" "$su" >"$secrets/pgpass.tmp"
    printf '127.0.0.1:%s:*:%s:%s\n' "$port" "$PG_SERVICE_ROLE" "$svc" >>"$secrets/pgpass.tmp"
    mv "$secrets/pgpass.tmp" "$secrets/pgpass" )
}

# pg_hba_scram DIR: the cluster's pg_hba.conf: a SCRAM password for every connection.
pg_hba_scram() {
  local dir=$1
  pg_as_owner sh -c "cat >'$dir/data/pg_hba.conf'" <<'HBA'
# Chestonia Arena: no trust; every connection proves a SCRAM-SHA-256 password.
local   all   all                 scram-sha-256
host    all   all   127.0.0.1/32  scram-sha-256
host    all   all   ::1/128       scram-sha-256
HBA
}

# pg_init DIR SECRETS_DIR: initdb on first use (DIR/data) with the superuser's password from
# SECRETS_DIR and SCRAM everywhere, and a socket dir DIR/run only the owner can enter.
pg_init() {
  local dir=$1 secrets=$2
  pg_prepare_dir "$dir"
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    local pw="$dir/initdb.pw"
    ( umask 077; pg_secret "$secrets/postgres-superuser.password" >"$pw"; echo >>"$pw" )
    [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$pw"
    pg_as_owner "$PG_BIN/initdb" -D "$dir/data" -U "$PG_SUPERUSER" --pwfile="$pw" \
      --auth=scram-sha-256 -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
      { rm -f "$pw"; cat "$dir/initdb.log" >&2; return 1; }
    rm -f "$pw"
  fi
  pg_as_owner mkdir -p "$dir/run"
  pg_as_owner chmod 700 "$dir/run"
}

# pg_start DIR PORT [extra -o options]: starts the cluster on 127.0.0.1:PORT and waits.
pg_start() {
  local dir=$1 port=$2 extra=${3:-}
  pg_as_owner "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -t 60 \
    -o "-p $port -k $dir/run -c unix_socket_permissions=0700 -c listen_addresses=127.0.0.1 -c password_encryption=scram-sha-256 -c max_connections=400 -c shared_buffers=256MB $extra" \
    start >/dev/null || { tail -20 "$dir/postgres.log" >&2; return 1; }
  pg_as_owner "$PG_BIN/pg_isready" -h 127.0.0.1 -p "$port" -t 30 >/dev/null
}

# pg_psql SECRETS_DIR PORT DB ARGS...: psql as the superuser, password from the pgpass file.
pg_psql() {
  local secrets=$1 port=$2 db=$3; shift 3
  PGPASSFILE="$secrets/pgpass" "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" \
    -U "$PG_SUPERUSER" -d "$db" "$@"
}

# pg_secure DIR SECRETS_DIR PORT: makes a running cluster what this file promises. A cluster
# made before (trust for every local user) gets its superuser password set while trust still
# lets the owner in, then SCRAM-only pg_hba.conf and a reload. Idempotent.
pg_secure() {
  local dir=$1 secrets=$2 port=$3 su
  pg_write_pgpass "$secrets" "$port"
  su=$(cat "$secrets/postgres-superuser.password")
  if pg_as_owner grep -Eq '^[^#]*[[:space:]]trust([[:space:]]|$)' "$dir/data/pg_hba.conf"; then
    pg_as_owner "$PG_BIN/psql" -X -q -h "$dir/run" -p "$port" -U "$PG_SUPERUSER" -d postgres \
      -v ON_ERROR_STOP=1 -v pw="$su" <<'SQL' >/dev/null
SET password_encryption = 'scram-sha-256';
ALTER ROLE CURRENT_USER PASSWORD :'pw';
SQL
    pg_hba_scram "$dir"
    pg_as_owner "$PG_BIN/pg_ctl" -D "$dir/data" reload >/dev/null
    sleep 0.5
  fi
  pg_as_owner chmod 700 "$dir/run"
}

# pg_service_database SECRETS_DIR PORT DB: the service role (password from SECRETS_DIR) and DB
# owned by it, with every schema, table, sequence and function in DB handed to it (a database
# made before the role existed was the superuser's). Idempotent.
pg_service_database() {
  local secrets=$1 port=$2 db=$3 svc
  svc=$(cat "$secrets/postgres-service.password")
  pg_psql "$secrets" "$port" postgres -v role="$PG_SERVICE_ROLE" -v pw="$svc" -v db="$db" \
    <<'SQL' >/dev/null
SET password_encryption = 'scram-sha-256';
SELECT format('CREATE ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION', :'role')
  WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'role') \gexec
ALTER ROLE :"role" WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION PASSWORD :'pw';
SELECT format('CREATE DATABASE %I OWNER %I', :'db', :'role')
  WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = :'db') \gexec
ALTER DATABASE :"db" OWNER TO :"role";
REVOKE ALL ON DATABASE :"db" FROM PUBLIC;
SQL
  pg_psql "$secrets" "$port" "$db" -v role="$PG_SERVICE_ROLE" <<'SQL' >/dev/null
SELECT format('ALTER SCHEMA %I OWNER TO %I', nspname, :'role') FROM pg_namespace
  WHERE nspname NOT LIKE 'pg\_%' AND nspname <> 'information_schema'
    AND nspowner <> (SELECT oid FROM pg_roles WHERE rolname = :'role') \gexec
SELECT format('ALTER %s %I.%I OWNER TO %I',
              CASE c.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW'
                             WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE 'TABLE' END,
              n.nspname, c.relname, :'role')
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S') AND n.nspname NOT LIKE 'pg\_%'
    AND n.nspname <> 'information_schema'
    AND NOT (c.relkind = 'S' AND EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid
                                         AND d.deptype IN ('a', 'i')))
    AND c.relowner <> (SELECT oid FROM pg_roles WHERE rolname = :'role') \gexec
SELECT format('ALTER ROUTINE %s OWNER TO %I', p.oid::regprocedure, :'role')
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
  WHERE n.nspname NOT LIKE 'pg\_%' AND n.nspname <> 'information_schema'
    AND p.proowner <> (SELECT oid FROM pg_roles WHERE rolname = :'role') \gexec
SQL
}

# pg_stop DIR: stops the cluster if it runs.
pg_stop() {
  local dir=$1
  if [ -f "$dir/data/postmaster.pid" ]; then
    pg_as_owner "$PG_BIN/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null 2>&1 || true
  fi
}

# pg_url PORT DB SECRETS_DIR [ROLE]: the connection URL of the private cluster, as ROLE (the
# service role by default); the password comes from SECRETS_DIR/pgpass.
pg_url() {
  echo "postgresql://${4:-$PG_SERVICE_ROLE}@127.0.0.1:$1/${2:-postgres}?passfile=$3/pgpass"
}
