#!/bin/bash
# The read replica (DATABASE_REPLICA_URLS): a plain streaming standby of the formation, outside it
# (pg_auto_failover neither waits for it nor promotes it). Made on the first start by a base backup
# of whichever node is the primary, then it streams from whichever node is writable: libpq's
# multi-host primary_conninfo with target_session_attrs=read-write (multi-host conninfo and
# read-write: libpq since PostgreSQL 10; from 14 libpq tells a standby by the in_hot_standby it
# reports, without a query). On a failover its connection ends, the walreceiver reconnects, finds
# the new primary and follows its timeline (recovery_target_timeline 'latest'). scripts/topology.mjs
# runs the same replica in the failover test (test/topology).
# Environment: PGDATA, PGAF_NODES (host:port,host:port), PG_REPLICATION_PASSWORD, REPLICA_NAME.
set -euo pipefail
: "${PGDATA:?}" "${PGAF_NODES:?}" "${PG_REPLICATION_PASSWORD:?}"
REPLICA_NAME="${REPLICA_NAME:-cgs_replica_1}"

hosts="" ports=""
IFS=, read -ra nodes <<<"$PGAF_NODES"
for n in "${nodes[@]}"; do
  hosts="${hosts:+$hosts,}${n%:*}"
  ports="${ports:+$ports,}${n##*:}"
done
conninfo="host=$hosts port=$ports user=pgautofailover_replicator target_session_attrs=read-write sslmode=require application_name=$REPLICA_NAME"

umask 077
export PGPASSFILE="$PGDATA/../.pgpass-replica"
printf '*:*:*:pgautofailover_replicator:%s\n' "$PG_REPLICATION_PASSWORD" >"$PGPASSFILE"

if [ ! -f "$PGDATA/PG_VERSION" ]; then
  pg_basebackup -d "$conninfo" -D "$PGDATA" -R -X stream -c fast
  cat >>"$PGDATA/postgresql.auto.conf" <<CONF
# The read replica: streams from whichever node is writable, waits for no standby of its own.
synchronous_standby_names = ''
primary_conninfo = '$conninfo passfile=$PGPASSFILE'
recovery_target_timeline = 'latest'
hot_standby = on
# Long reads are not cancelled by the primary's vacuum (it keeps the rows they read a little longer).
hot_standby_feedback = on
CONF
fi
exec postgres -D "$PGDATA"
