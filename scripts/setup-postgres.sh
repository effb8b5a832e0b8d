#!/usr/bin/env bash
# Make sure a local PostgreSQL server with the pgvector extension is installed,
# running and reachable, then print the connection string.
#
# Used by CI (Debian bookworm, run as root, no stdin). Safe to run repeatedly:
# every step checks first and only acts when something is missing.
#
# Contract: stdout carries exactly one line, printed last:
#   DATABASE_URL=postgres://postgres@127.0.0.1:5432/dastyar_test
# All progress and error messages go to stderr, so callers can do:
#   eval "export $(bash scripts/setup-postgres.sh | tail -1)"
set -Eeuo pipefail

# Keep the real stdout on fd 3 for the final line; send everything else
# (our own logs and the output of apt, make, psql, ...) to stderr.
exec 3>&1 1>&2

readonly PGHOST_ADDR=127.0.0.1
readonly PGPORT_NUM=5432
readonly DB_NAME=dastyar_test
readonly CLUSTER=main
# Separate file so the trixie entry is easy to spot/remove and never mixes
# with the bookworm binary sources. deb-src only: no trixie binaries.
readonly TRIXIE_SRC_LIST=/etc/apt/sources.list.d/trixie-src.list

export DEBIAN_FRONTEND=noninteractive
# Wait for the dpkg lock instead of failing if something else is using apt.
APT=(apt-get -y -q -o DPkg::Lock::Timeout=300)

log() { printf '[setup-postgres] %s\n' "$*" >&2; }
die() { printf '[setup-postgres] ERROR: %s\n' "$*" >&2; exit 1; }
trap 'die "command failed (exit $?) at line $LINENO: $BASH_COMMAND"' ERR

need_root() {
  [[ ${EUID} -eq 0 ]] || die "$1 requires root (re-run as root or via sudo)"
}

# Non-interactive psql as the postgres superuser over TCP (-w: never prompt).
pg() {
  # client_min_messages=warning: hide "already exists, skipping" NOTICEs.
  PGOPTIONS="${PGOPTIONS:-} -c client_min_messages=warning" \
    psql -h "$PGHOST_ADDR" -p "$PGPORT_NUM" -U postgres -w -X -q -v ON_ERROR_STOP=1 -At "$@"
}

# Highest installed server major version (the dir that actually has a server
# binary, not just client tools), e.g. "15". Empty if no server is installed.
detect_major() {
  local d
  for d in /usr/lib/postgresql/*/bin/postgres; do
    if [[ -x $d ]]; then basename "$(dirname "$(dirname "$d")")"; fi
  done | sort -V | tail -n 1
}

# --- 1. Server installed? ----------------------------------------------------
MAJOR="$(detect_major)"
if [[ -z $MAJOR ]] || ! command -v pg_ctlcluster >/dev/null || ! command -v psql >/dev/null; then
  need_root "installing PostgreSQL"
  log "PostgreSQL server not found; installing postgresql + postgresql-contrib"
  "${APT[@]}" update
  "${APT[@]}" install postgresql postgresql-contrib
  MAJOR="$(detect_major)"
  [[ -n $MAJOR ]] || die "postgresql was installed but no server binary found under /usr/lib/postgresql"
fi
log "PostgreSQL major version: $MAJOR"

# The package's postinst normally creates the 'main' cluster, but not always
# (e.g. create_main_cluster=false), so create it if it is missing.
if [[ ! -d /etc/postgresql/$MAJOR/$CLUSTER ]]; then
  need_root "creating the PostgreSQL cluster"
  log "creating cluster $MAJOR/$CLUSTER"
  pg_createcluster "$MAJOR" "$CLUSTER"
fi

# --- 2. Server running and accepting connections? ----------------------------
if ! pg_isready -q -h "$PGHOST_ADDR" -p "$PGPORT_NUM" -t 2; then
  # status exits non-zero when the cluster is down; if it is up but not yet
  # ready (still starting / recovering) we just wait below.
  if ! pg_ctlcluster "$MAJOR" "$CLUSTER" status >/dev/null 2>&1; then
    need_root "starting PostgreSQL"
    log "starting cluster $MAJOR/$CLUSTER"
    # No systemd in CI containers, hence --skip-systemctl-redirect.
    pg_ctlcluster --skip-systemctl-redirect "$MAJOR" "$CLUSTER" start
  fi
  log "waiting for PostgreSQL on $PGHOST_ADDR:$PGPORT_NUM"
  for _ in $(seq 1 30); do
    pg_isready -q -h "$PGHOST_ADDR" -p "$PGPORT_NUM" -t 1 && break
    sleep 1
  done
  pg_isready -h "$PGHOST_ADDR" -p "$PGPORT_NUM" -t 1 \
    || die "PostgreSQL not ready on $PGHOST_ADDR:$PGPORT_NUM after ~30s (see /var/log/postgresql/postgresql-$MAJOR-$CLUSTER.log)"
fi

# --- 3. Passwordless TCP login as postgres? ----------------------------------
# The preinstalled CI image uses trust auth; a freshly installed Debian cluster
# uses scram-sha-256 on 127.0.0.1. DATABASE_URL carries no password, so on such
# a cluster allow trust for postgres from localhost (CI-only machine).
if ! pg -d postgres -c 'SELECT 1' >/dev/null 2>&1; then
  need_root "configuring pg_hba.conf"
  hba="/etc/postgresql/$MAJOR/$CLUSTER/pg_hba.conf"
  [[ -f $hba ]] || die "cannot log in as postgres on $PGHOST_ADDR and $hba does not exist"
  log "enabling trust auth for postgres@$PGHOST_ADDR in $hba"
  # First matching line wins, so prepend.
  sed -i "1i host all postgres $PGHOST_ADDR/32 trust  # added by scripts/setup-postgres.sh" "$hba"
  pg_ctlcluster --skip-systemctl-redirect "$MAJOR" "$CLUSTER" reload
  sleep 1
  pg -d postgres -c 'SELECT 1' >/dev/null \
    || die "still cannot connect as postgres@$PGHOST_ADDR:$PGPORT_NUM without a password"
fi

# --- 4. pgvector available? Build it from Debian's trixie source if not. -----
vector_available() {
  [[ "$(pg -d postgres -c "SELECT 1 FROM pg_available_extensions WHERE name='vector'")" == 1 ]]
}

# Base URI of the Debian mirror the existing bookworm sources use, so we only
# talk to the mirror this machine can reach. Handles both one-line .list and
# deb822 .sources formats; ignores the security archive (its suite is
# bookworm-security, not bookworm) and our own trixie file.
debian_mirror() {
  local files=() f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    if [[ -f $f && $f != "$TRIXIE_SRC_LIST" ]]; then files+=("$f"); fi
  done
  ((${#files[@]})) || return 0
  awk '
    function emit(u) { if (!found && u != "") { print u; found = 1 } }
    function flush() { if (suites ~ /(^|[ \t])bookworm([ \t]|$)/) emit(uri); uri = ""; suites = "" }
    FNR == 1            { flush() }
    /^[ \t]*#/          { next }
    /^[ \t]*$/          { flush(); next }
    $1 == "deb" || $1 == "deb-src" {          # one-line format
      sub(/\[[^]]*\][ \t]*/, "")                # drop [options]
      if ($3 == "bookworm") emit($2)
      next
    }
    tolower($1) == "uris:"   { uri = $2 }      # deb822 format
    tolower($1) == "suites:" { $1 = ""; suites = $0 }
    END { flush() }
  ' "${files[@]}"
}

build_pgvector() {
  need_root "building pgvector"
  local mirror keyring opts="" tmp pg_config
  mirror="$(debian_mirror)"
  if [[ -z $mirror ]]; then
    mirror=http://deb.debian.org/debian
    log "WARNING: no bookworm mirror found in apt sources; falling back to $mirror"
  fi
  keyring=/usr/share/keyrings/debian-archive-keyring.gpg
  if [[ -f $keyring ]]; then opts="[signed-by=$keyring] "; fi

  # pgvector is only packaged from trixie on; its source builds fine against
  # bookworm's PostgreSQL. deb-src ONLY, so apt never installs trixie binaries.
  local entry="deb-src ${opts}${mirror} trixie main"
  if [[ ! -f $TRIXIE_SRC_LIST ]] || [[ "$(cat "$TRIXIE_SRC_LIST")" != "$entry" ]]; then
    log "writing $TRIXIE_SRC_LIST: $entry"
    printf '%s\n' "$entry" >"$TRIXIE_SRC_LIST"
  fi

  log "apt-get update (to fetch trixie source index)"
  "${APT[@]}" update
  log "installing build dependencies"
  # --no-upgrade: leave already-installed packages (dpkg, dpkg-dev, ...) alone;
  # we only need them present, not bumped to the latest point release.
  "${APT[@]}" install --no-install-recommends --no-upgrade \
    "postgresql-server-dev-$MAJOR" build-essential dpkg-dev

  # Use the server's own pg_config: /usr/bin/pg_config may be libpq-dev's,
  # which does not know the server's PGXS/extension directories.
  pg_config="/usr/lib/postgresql/$MAJOR/bin/pg_config"
  [[ -x $pg_config ]] || die "$pg_config missing after installing postgresql-server-dev-$MAJOR"

  tmp="$(mktemp -d)"
  # apt downloads as the unprivileged _apt user; let it write here (otherwise
  # it falls back to an unsandboxed root download with a warning).
  chmod 755 "$tmp"
  if id _apt >/dev/null 2>&1; then chown _apt "$tmp"; fi
  # shellcheck disable=SC2064  # expand $tmp now
  trap "rm -rf '$tmp'" EXIT
  (
    cd "$tmp"
    log "downloading pgvector source package (trixie)"
    # --download-only + dpkg-source -x: avoids apt-get source's unpack quirks as root.
    apt-get -q source --download-only pgvector/trixie
    dsc=(pgvector_*.dsc)
    [[ -f ${dsc[0]} ]] || die "apt-get source did not produce a pgvector .dsc"
    dpkg-source -x "${dsc[0]}" src
    log "building pgvector ($(cd src && dpkg-parsechangelog -S Version 2>/dev/null || echo '?'))"
    # OPTFLAGS="": pgvector defaults to -march=native; keep the binary portable
    # in case the machine image is reused on different CPUs.
    make -C src -j"$(nproc)" PG_CONFIG="$pg_config" OPTFLAGS=""
    make -C src install PG_CONFIG="$pg_config" OPTFLAGS=""
  )
  rm -rf "$tmp"
  trap - EXIT
}

if vector_available; then
  log "pgvector already available; skipping build"
else
  log "pgvector not available; building it from Debian source"
  build_pgvector
  vector_available || die "pgvector was built and installed but PostgreSQL still does not list the 'vector' extension"
fi

# --- 5. Test database with the extensions loaded -----------------------------
if [[ "$(pg -d postgres -c "SELECT 1 FROM pg_database WHERE datname='$DB_NAME'")" != 1 ]]; then
  log "creating database $DB_NAME"
  # Tolerate a concurrent run having created it in the meantime.
  pg -d postgres -c "CREATE DATABASE $DB_NAME" \
    || [[ "$(pg -d postgres -c "SELECT 1 FROM pg_database WHERE datname='$DB_NAME'")" == 1 ]] \
    || die "could not create database $DB_NAME"
fi
# Proves the extensions actually load, not just that files exist.
pg -d "$DB_NAME" -c 'CREATE EXTENSION IF NOT EXISTS vector; CREATE EXTENSION IF NOT EXISTS pg_trgm;'
log "ready: $DB_NAME has vector $(pg -d "$DB_NAME" -c "SELECT extversion FROM pg_extension WHERE extname='vector'")" \
  "and pg_trgm $(pg -d "$DB_NAME" -c "SELECT extversion FROM pg_extension WHERE extname='pg_trgm'")"

printf 'DATABASE_URL=postgres://postgres@%s:%s/%s\n' "$PGHOST_ADDR" "$PGPORT_NUM" "$DB_NAME" >&3
