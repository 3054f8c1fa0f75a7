#!/bin/bash
# A pg_auto_failover data node (docker/compose.ha.yml's pg-node-1 and pg-node-2, the pg-node
# StatefulSet). The first to register becomes the primary; the other a synchronous standby
# (replication quorum, the default): a write is acknowledged once both have it, and the monitor
# promotes the standby when the primary is lost (pg_auto_failover's wait_primary state keeps the
# primary writable when the standby is the one lost).
#
# On every start, when this node is the primary, the passwords of the roles pg_auto_failover and
# the service log in with are set from the environment (rotation takes effect on restart); the
# standby gets them by replication. The read replica (replica.sh) is let in for replication.
# Environment: PGDATA, PGAF_HOSTNAME (this host as the others reach it), PGAF_NAME (node_1),
# PGAF_MONITOR_HOST, PG_AUTOCTL_NODE_PASSWORD, PG_REPLICATION_PASSWORD, PG_MONITOR_PASSWORD,
# POSTGRES_PASSWORD (the service's role `cgs`).
set -euo pipefail
: "${PGDATA:?}" "${PGAF_HOSTNAME:?}" "${PGAF_NAME:?}" "${PGAF_MONITOR_HOST:?}"
: "${PG_AUTOCTL_NODE_PASSWORD:?}" "${PG_REPLICATION_PASSWORD:?}" "${PG_MONITOR_PASSWORD:?}" "${POSTGRES_PASSWORD:?}"
PGPORT="${PGPORT:-5432}"
MONITOR_PORT="${PGAF_MONITOR_PORT:-5432}"

# pg_autoctl's own logins: to the monitor as autoctl_node, to the primary as
# pgautofailover_replicator (pg_basebackup on creation, streaming after).
umask 077
export PGPASSFILE="$PGDATA/../.pgpass-node"
{
  printf '%s:%s:pg_auto_failover:autoctl_node:%s\n' "$PGAF_MONITOR_HOST" "$MONITOR_PORT" "$PG_AUTOCTL_NODE_PASSWORD"
  printf '*:*:*:pgautofailover_replicator:%s\n' "$PG_REPLICATION_PASSWORD"
} >"$PGPASSFILE"

if [ ! -f "$PGDATA/PG_VERSION" ]; then
  pg_autoctl create postgres --pgdata "$PGDATA" --pgport "$PGPORT" --name "$PGAF_NAME" --hostname "$PGAF_HOSTNAME" \
    --auth scram-sha-256 --ssl-self-signed --pg-hba-lan --username cgs --dbname cgs \
    --monitor "postgres://autoctl_node@${PGAF_MONITOR_HOST}:${MONITOR_PORT}/pg_auto_failover?sslmode=require"
  pg_autoctl config set --pgdata "$PGDATA" replication.password "$PG_REPLICATION_PASSWORD"
  # The read replica streams from whichever node is the primary: pg_autoctl writes HBA rules for
  # the formation's nodes only. samenet: the hosts of this node's own subnets.
  printf '%s\n' '# The read replica (deploy/kubernetes/ha/postgres/replica.sh).' \
    'hostssl replication pgautofailover_replicator samenet scram-sha-256' >>"$PGDATA/pg_hba.conf"
fi

pg_autoctl run --pgdata "$PGDATA" &
keeper=$!
trap 'kill -TERM "$keeper" 2>/dev/null' TERM INT
until pg_isready -q -p "$PGPORT"; do sleep 1; done
sql() { psql -v ON_ERROR_STOP=1 -qtA -p "$PGPORT" -d postgres "$@"; }
# A standby is read-only: the primary sets them, replication brings them here.
if [ "$(sql -c 'SELECT pg_is_in_recovery()')" = f ]; then
  sql -v app="$POSTGRES_PASSWORD" -v rep="$PG_REPLICATION_PASSWORD" -v mon="$PG_MONITOR_PASSWORD" <<'SQL'
SELECT 'CREATE ROLE cgs LOGIN' WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'cgs') \gexec
ALTER ROLE cgs PASSWORD :'app';
ALTER ROLE pgautofailover_replicator PASSWORD :'rep';
ALTER ROLE pgautofailover_monitor PASSWORD :'mon';
ALTER DATABASE cgs OWNER TO cgs;
-- WAL kept for the read replica, which has no replication slot (pg_auto_failover manages the
-- formation's slots only): one that falls further behind is made again (replica.sh, empty volume).
ALTER SYSTEM SET wal_keep_size = '2GB';
SELECT pg_reload_conf();
SQL
fi
wait "$keeper"
