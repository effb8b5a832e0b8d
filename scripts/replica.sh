#!/usr/bin/env bash
# A local streaming replica of the Postgres on 127.0.0.1:5432, for tests of the
# read routing (DATABASE_REPLICA_URLS): a second cluster made with
# `pg_basebackup -R` in a temporary directory, on its own port. It never
# restarts or reconfigures the primary: it needs `wal_level` replica (the
# default) and adds, only if replication connections are refused, one trust
# line for 127.0.0.1 at the top of the primary's pg_hba.conf (a reload, not a restart).
# A physical replication slot (dastyar_replica_<port>) keeps the WAL the copy
# needs between the end of `pg_basebackup` and the replica's first stream: on a
# busy primary that WAL was removed in between and the replica never caught up.
# It holds the primary's WAL while the replica is stopped; `remove` drops it,
# and `start` drops a slot left by a replica whose directory is gone.
#
#   scripts/replica.sh start    # prints REPLICA_URL=postgres://postgres@127.0.0.1:5433/ last
#   scripts/replica.sh stop     # stops it (kept on disk; start resumes it)
#   scripts/replica.sh remove   # stops it, drops its slot and deletes its directory
#
# Settings: REPLICA_PORT (5433), REPLICA_DIR (/tmp/dastyar-replica-$REPLICA_PORT), PRIMARY_PORT (5432).
set -Eeuo pipefail
exec 3>&1 1>&2

readonly PRIMARY_HOST=127.0.0.1 PRIMARY_PORT="${PRIMARY_PORT:-5432}"
readonly PORT="${REPLICA_PORT:-5433}"
readonly DIR="${REPLICA_DIR:-/tmp/dastyar-replica-$PORT}"
readonly SLOT="dastyar_replica_$PORT"
log() { printf '[replica] %s\n' "$*" >&2; }
die() { printf '[replica] ERROR: %s\n' "$*" >&2; exit 1; }

# The server's binaries (pg_ctl is not on PATH on Debian).
BIN="$(dirname "$(ls -d /usr/lib/postgresql/*/bin/pg_ctl 2>/dev/null | sort -V | tail -n 1)")"
[[ -x $BIN/pg_ctl ]] || die "no pg_ctl under /usr/lib/postgresql/*/bin"
# Postgres refuses to run as root: as root, run the cluster as the postgres user.
as_pg() { if [[ $EUID -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }
primary() { psql -h "$PRIMARY_HOST" -p "$PRIMARY_PORT" -U postgres -w -X -q -At -d postgres "$@"; }

drop_slot() {
  primary -c "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots
              WHERE slot_name = '$SLOT' AND NOT active" >/dev/null 2>&1 || true
}

stop() {
  if [[ -f $DIR/postmaster.pid ]]; then as_pg "$BIN/pg_ctl" -D "$DIR" -m fast -w stop >/dev/null || true; fi
}

start() {
  if pg_isready -q -h 127.0.0.1 -p "$PORT" -t 1; then
    printf 'REPLICA_URL=postgres://postgres@127.0.0.1:%s/\n' "$PORT" >&3
    return
  fi
  local level
  level="$(primary -c 'SHOW wal_level')" || die "the primary on $PRIMARY_HOST:$PRIMARY_PORT does not answer"
  [[ $level == replica || $level == logical ]] || die "the primary's wal_level is $level (replica needs a restart)"
  if ! psql "host=$PRIMARY_HOST port=$PRIMARY_PORT user=postgres replication=true" -w -X -q -c 'IDENTIFY_SYSTEM' \
    >/dev/null 2>&1; then
    local hba
    hba="$(primary -c 'SHOW hba_file')"
    [[ -w $hba ]] || die "replication connections are refused and $hba is not writable"
    log "allowing replication from $PRIMARY_HOST in $hba (reload)"
    # First matching line wins: Debian's own `host replication all 127.0.0.1/32 scram-sha-256` would refuse it.
    sed -i "1i host replication postgres $PRIMARY_HOST/32 trust  # added by scripts/replica.sh" "$hba"
    primary -c 'SELECT pg_reload_conf()' >/dev/null
    sleep 1
    psql "host=$PRIMARY_HOST port=$PRIMARY_PORT user=postgres replication=true" -w -X -q -c 'IDENTIFY_SYSTEM' \
      >/dev/null || die "replication connections are still refused after adding a trust line to $hba"
  fi
  if [[ ! -f $DIR/PG_VERSION ]]; then
    log "copying the primary into $DIR"
    drop_slot
    mkdir -p "$DIR" && chmod 700 "$DIR"
    if [[ $EUID -eq 0 ]]; then chown postgres: "$DIR"; fi
    # -C -S: the slot is made with the copy, and -R names it in the replica's settings.
    as_pg "$BIN/pg_basebackup" -h "$PRIMARY_HOST" -p "$PRIMARY_PORT" -U postgres -D "$DIR" -R -X stream -c fast \
      -C -S "$SLOT"
    # Debian keeps the configuration outside the data directory: the copy gets its own, minimal one.
    as_pg sh -c "cd '$DIR' && : >postgresql.conf && : >pg_ident.conf &&
      printf 'local all all trust\nhost all all 127.0.0.1/32 trust\n' >pg_hba.conf"
  fi
  # A standby needs at least the primary's values of these.
  local settings=() name
  for name in max_connections max_worker_processes max_wal_senders max_prepared_transactions max_locks_per_transaction; do
    settings+=("-c $name=$(primary -c "SHOW $name")")
  done
  # 3>&-: the server must not hold the caller's stdout open (a caller reading it to the end would wait forever).
  as_pg "$BIN/pg_ctl" -D "$DIR" -l "$DIR/server.log" -w -t 60 start 3>&- -o \
    "-p $PORT -c listen_addresses=127.0.0.1 -c unix_socket_directories=$DIR -c shared_buffers=64MB -c hot_standby=on ${settings[*]}" \
    >/dev/null || die "the replica did not start (see $DIR/server.log)"
  printf 'REPLICA_URL=postgres://postgres@127.0.0.1:%s/\n' "$PORT" >&3
}

case "${1:-start}" in
  start) start ;;
  stop) stop ;;
  remove) stop; drop_slot; rm -rf "$DIR" ;;
  *) die "usage: $0 start|stop|remove" ;;
esac
