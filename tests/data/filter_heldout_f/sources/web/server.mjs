import http from "node:http";
import { formatTemp } from "./lib/format.mjs";

const latest = { "st-001": { tempC: 9.4 }, "st-002": { tempC: 7.1 }, "st-003": null };
const log = (...parts) => console.log(new Date(Date.UTC(2026, 10, 26, 9, 0, counter++)).toISOString(), ...parts);
let counter = 0;

const server = http.createServer((req, res) => {
  const started = process.hrtime.bigint();
  const done = (status, body) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
    log(req.method, req.url, status, `${Number(process.hrtime.bigint() - started) > 5e6 ? "slow" : "ok"}`);
  };
  try {
    const m = req.url.match(/^\/api\/stations\/([\w-]+)\/latest$/);
    if (req.url === "/health") return done(200, { ok: true });
    if (!m) return done(404, { error: "not found" });
    if (!(m[1] in latest)) return done(404, { error: `unknown station ${m[1]}` });
    const r = latest[m[1]];
    done(200, { station: m[1], temp: formatTemp(r.tempC) });
  } catch (err) {
    console.error(err);
    done(500, { error: "internal" });
  }
});

server.listen(0, "127.0.0.1", async () => {
  const { port } = server.address();
  log(`tidepool-dash listening on http://127.0.0.1:${port}`);
  for (const path of ["/health", "/api/stations/st-001/latest", "/api/stations/st-002/latest",
                      "/api/stations/st-003/latest", "/api/stations/st-009/latest", "/favicon.ico"]) {
    await fetch(`http://127.0.0.1:${port}${path}`).then((r) => r.text());
  }
  log("selftest done, shutting down");
  server.close();
});
