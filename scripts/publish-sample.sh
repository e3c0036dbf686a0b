#!/usr/bin/env bash
# Publishes the built sample (output/aurora) to a local nginx with WebDAV on port 8080, the
# sample's BaseURL, so the whole flow can be seen end to end:
#   make publish-sample
#   newsstand library /tmp/shelf refresh http://localhost:8080/aurora/issues.plist
#   make stop-sample
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
state="$root/output/nginx"
port=8080
newsstand="${NEWSSTAND:-$root/.build/debug/newsstand}"
nginx=$(command -v nginx || echo /usr/sbin/nginx)

mkdir -p "$state/logs" "$state/tmp" "$state/site"
cat > "$state/nginx.conf" <<CONF
$( [ "$(id -u)" = 0 ] && echo "user root;" )
worker_processes 1;
pid $state/nginx.pid;
error_log $state/logs/error.log;
events { worker_connections 64; }
http {
    types { application/zip zip; image/png png; application/x-plist plist; application/json json; application/atom+xml xml; }
    access_log $state/logs/access.log;
    client_body_temp_path $state/tmp/client;
    proxy_temp_path $state/tmp/proxy;
    fastcgi_temp_path $state/tmp/fastcgi;
    uwsgi_temp_path $state/tmp/uwsgi;
    scgi_temp_path $state/tmp/scgi;
    server {
        listen 127.0.0.1:$port;
        root $state/site;
        # Catalogs change: readers must revalidate. Bundles and covers: see the README.
        location ~ \.(plist|json|xml)\$ { add_header Cache-Control "no-cache"; }
        location ^~ /dav/ {
            alias $state/site/;
            dav_methods PUT DELETE MKCOL COPY MOVE;
            create_full_put_path on;
            client_max_body_size 0;
        }
    }
}
CONF

if [ -f "$state/nginx.pid" ] && kill -0 "$(cat "$state/nginx.pid")" 2>/dev/null; then
    "$nginx" -p "$state" -c "$state/nginx.conf" -s reload
else
    "$nginx" -p "$state" -c "$state/nginx.conf"
fi
"$newsstand" publish "$root/output/aurora" --to "http://localhost:$port/dav/aurora/"
echo
echo "The sample is served at http://localhost:$port/aurora/issues.plist"
echo "Try:  $newsstand library /tmp/shelf refresh http://localhost:$port/aurora/issues.plist && $newsstand library /tmp/shelf download --latest"
echo "Stop: make stop-sample"
