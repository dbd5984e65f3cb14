#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests and benchmarks: a new cluster in DIR, listening on
# 127.0.0.1 at a free port, with a random password (so that tests can check it never shows).
#
#   scripts/test-postgres.sh start DIR   # prints the URL: postgres://purchase_sli:PASSWORD@127.0.0.1:PORT/purchase_sli
#   scripts/test-postgres.sh stop DIR    # stops it (DIR can then be removed, or started again)
#
# Uses Debian's server binaries (/usr/lib/postgresql/*/bin; `apt-get install postgresql`). initdb refuses
# to run as root, so as root the cluster is made and run by the `postgres` user. fsync is off (the
# cluster is thrown away after the run) unless FSYNC=on, as benchmarks set it to compare with SQLite's
# synced commits.
set -euo pipefail

command=${1:-}
dir=${2:-}
if [ -z "$command" ] || [ -z "$dir" ]; then
    echo "usage: $0 start|stop DIR" >&2
    exit 2
fi
dir=$(realpath -m "$dir")
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$bin" ]; then
    echo "no PostgreSQL server binaries under /usr/lib/postgresql: apt-get install postgresql" >&2
    exit 1
fi
as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$command" in
start)
    # A DIR that holds a cluster already (stopped by `stop`) is started again on the same port.
    fresh=false
    if [ ! -d "$dir/data" ]; then
        fresh=true
        mkdir -p "$dir"
        if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; fi
        password=$(python3 -c 'import secrets; print(secrets.token_hex(12))')
        port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
        as_owner sh -c "printf '%s\n' '$password' > '$dir/password'; printf '%s\n' '$port' > '$dir/port'"
        as_owner "$bin/initdb" --pgdata="$dir/data" --username=purchase_sli --pwfile="$dir/password" \
            --auth-host=scram-sha-256 --auth-local=trust --no-sync --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
            || { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    password=$(cat "$dir/password")
    port=$(cat "$dir/port")
    # The server is started with no descriptor of this script's but the standard three: Foundation's
    # Process (the tests run this script with it) learns that its child ended when a socket it handed
    # the child closes, and a server that kept a copy open would make the script seem never to end.
    (
        for fd in /proc/self/fd/*; do
            fd=${fd##*/}
            if [ "$fd" -gt 2 ]; then eval "exec $fd>&-" 2>/dev/null || true; fi
        done
        as_owner "$bin/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" --wait \
            -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories='$dir' -c fsync=${FSYNC:-off} -c max_connections=200" \
            start >/dev/null
    ) || { cat "$dir/server.log" >&2; exit 1; }
    if $fresh; then as_owner "$bin/createdb" --host="$dir" --port="$port" --username=purchase_sli purchase_sli; fi
    echo "postgres://purchase_sli:$password@127.0.0.1:$port/purchase_sli?sslmode=disable"
    ;;
stop)
    [ -d "$dir/data" ] && as_owner "$bin/pg_ctl" --pgdata="$dir/data" --mode=fast --wait stop >/dev/null
    ;;
*)
    echo "usage: $0 start|stop DIR" >&2
    exit 2
    ;;
esac
