#!/bin/bash
# A volunteer editing the board with the dev server open: the page loads, then a dozen saves of rota.js (each an
# HMR update the page fetches again), one save with a syntax error, a request for a file that is gone.
port=$1
get() { curl -s -o /dev/null -w "%{http_code} $1\n" "http://127.0.0.1:$port$1"; }
for _ in $(seq 1 60); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.5; done
for p in / /@vite/client /src/main.js /src/rota.js /src/format.js "/src/logo.svg?import" /node_modules/vite/dist/client/env.mjs /favicon.ico; do get "$p"; done
for n in $(seq 1 12); do
  if [ "$n" = 7 ]; then
    echo "export const renderRota = (shifts) => shifts.map(s => \`<li>\${s.site}</li>\`.join('')" > src/rota.js
  else
    echo "export const renderRota = (shifts) => shifts.map(s => \`<li>\${s.site} ($n)</li>\`).join('')" > src/rota.js
  fi
  sleep 0.4
  get "/src/rota.js?t=$n"
  get "/src/main.js?t=$n"
done
rm src/format.js
sleep 0.4
get "/src/format.js?t=99"
get /src/main.js
