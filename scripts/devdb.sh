#!/usr/bin/env bash
# Prints a DATABASE_URL for `make run`, in this order: $DATABASE_URL if set; the server at
# 127.0.0.1:5432 if it answers; a private cluster from the installed PostgreSQL binaries; PostgreSQL
# installed with apt where that is possible; otherwise a message saying what to do.
# DEVDB_PRIVATE=1 skips the server at 5432 (to use or test the private cluster).
set -euo pipefail
say() { echo "devdb: $*" >&2; }

if [ -n "${DATABASE_URL:-}" ]; then echo "$DATABASE_URL"; exit 0; fi

if [ -z "${DEVDB_PRIVATE:-}" ] && (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null; then
  echo "postgres://postgres@127.0.0.1:5432/crier?sslmode=disable"; exit 0
fi

find_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
bin=$(find_bin || true)
if [ -z "$bin" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  say "no PostgreSQL found; installing it with apt-get (about a minute)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2 || { apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2; }
  bin=$(find_bin || true)
fi
if [ -z "$bin" ]; then
  say "no PostgreSQL server answers at 127.0.0.1:5432 and no PostgreSQL binaries are installed."
  say "Either set DATABASE_URL=postgres://user:pass@host:5432/crier, or install PostgreSQL (apt-get install postgresql)."
  exit 1
fi

# A private cluster. initdb refuses to run as root, so as root the cluster belongs to the postgres
# user and lives where that user can reach it (root's home is not traversable).
port=54329
if [ "$(id -u)" = 0 ]; then
  dir=/var/tmp/crier-pg-$(echo -n "$PWD" | md5sum | cut -c1-8)
  run=(runuser -u postgres --)
else
  dir="$PWD/.data/pg"
  run=()
fi
mkdir -p "$dir"
[ "$(id -u)" = 0 ] && chown postgres "$dir"
if [ ! -f "$dir/data/PG_VERSION" ]; then
  say "creating a private PostgreSQL cluster in $dir"
  "${run[@]}" "$bin/initdb" -D "$dir/data" -U postgres -A trust --no-sync >/dev/null
fi
if ! "${run[@]}" "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
  "${run[@]}" "$bin/pg_ctl" -D "$dir/data" -w -l "$dir/log" \
    -o "-k $dir -p $port -c listen_addresses='' -c fsync=off" start >/dev/null
fi
echo "postgres://postgres@/crier?host=$dir&port=$port&sslmode=disable"
