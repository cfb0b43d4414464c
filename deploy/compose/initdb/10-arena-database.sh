#!/bin/bash
# Run once by the postgres image, when its data volume is empty: the role the services connect
# as (arena: no superuser, owns only the arena database; each service creates its own schema
# there through its migrations), with the password from the arena-db.password secret.
set -euo pipefail
password=$(cat /run/secrets/arena-db.password)
psql --no-psqlrc -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
  --set=password="$password" <<'SQL'
CREATE ROLE arena LOGIN PASSWORD :'password';
CREATE DATABASE arena OWNER arena;
REVOKE ALL ON DATABASE arena FROM PUBLIC;
SQL
