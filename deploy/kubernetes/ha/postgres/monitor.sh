#!/bin/bash
# pg_auto_failover's monitor (docker/compose.ha.yml's pg-monitor, the pg-monitor StatefulSet).
# Created on the first start, run on every start; the password of autoctl_node (the nodes'
# account on the monitor) is set from PG_AUTOCTL_NODE_PASSWORD each time, so a rotated secret
# takes effect on restart. Connections from the nodes use scram-sha-256 over TLS.
# Environment: PGDATA, PGAF_HOSTNAME (this host as the nodes reach it), PG_AUTOCTL_NODE_PASSWORD,
# PG_MONITOR_PASSWORD (pgautofailover_monitor: the monitor's health checks of the nodes).
set -euo pipefail
: "${PGDATA:?}" "${PGAF_HOSTNAME:?}" "${PG_AUTOCTL_NODE_PASSWORD:?}" "${PG_MONITOR_PASSWORD:?}"
PGPORT="${PGPORT:-5432}"

# The monitor's health checks log in to the nodes as pgautofailover_monitor (libpq reads .pgpass).
umask 077
export PGPASSFILE="$PGDATA/../.pgpass-monitor"
printf '*:*:*:pgautofailover_monitor:%s\n' "$PG_MONITOR_PASSWORD" >"$PGPASSFILE"

if [ ! -f "$PGDATA/PG_VERSION" ]; then
  pg_autoctl create monitor --pgdata "$PGDATA" --pgport "$PGPORT" --hostname "$PGAF_HOSTNAME" \
    --auth scram-sha-256 --ssl-self-signed
fi

pg_autoctl run --pgdata "$PGDATA" &
keeper=$!
trap 'kill -TERM "$keeper" 2>/dev/null' TERM INT
until pg_isready -q -p "$PGPORT" -d pg_auto_failover; do sleep 1; done
psql -v ON_ERROR_STOP=1 -q -p "$PGPORT" -d pg_auto_failover -v pw="$PG_AUTOCTL_NODE_PASSWORD" \
  -c "ALTER ROLE autoctl_node PASSWORD :'pw'"
wait "$keeper"
