// The shed's kiosk: a small http API and the kiosk's poller in one process, run with NODE_DEBUG=http,net so
// node's own debug log shows every socket; the poller also asks a backup host that is down, and the API drops
// a request whose body is too large.
'use strict';
const http = require('http');

const server = http.createServer((req, res) => {
  if (req.url === '/upload') {
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > 1024) {
        console.error(`kiosk api: upload too large (${size} bytes), dropping the connection`);
        req.socket.destroy();
      }
    });
    req.on('end', () => res.end('stored'));
    return;
  }
  if (req.url.startsWith('/tools/')) {
    const id = Number(req.url.slice(7));
    if (id > 100) { res.statusCode = 404; res.end('no such tool'); return; }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ id, out: id % 3 === 0 }));
    return;
  }
  res.statusCode = 404;
  res.end();
});

const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });

function get(port, path) {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(String(res.statusCode)));
    });
    req.on('error', (err) => resolve(err.code));
  });
}

function upload(port, bytes) {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/upload', method: 'POST', agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(String(res.statusCode)));
    });
    req.on('error', (err) => resolve(err.code));
    req.end('x'.repeat(bytes));
  });
}

server.listen(0, '127.0.0.1', async () => {
  const port = server.address().port;
  const counts = {};
  for (let i = 0; i < 60; i++) {
    const tasks = [get(port, `/tools/${(i * 7) % 110}`), get(port, `/tools/${i}`)];
    if (i % 20 === 5) tasks.push(get(1, '/backup/tools'));
    if (i === 30) tasks.push(upload(port, 4096));
    for (const status of await Promise.all(tasks)) counts[status] = (counts[status] || 0) + 1;
  }
  console.log('kiosk poll done:', JSON.stringify(counts));
  agent.destroy();
  server.close();
});
