// A stand-in for Express, for the test of `sentinel scan --prove` on a JavaScript application
// (no npm registry here): routing by method and path (`:name` segments), `req.query`,
// `req.params`, `req.body` (a urlencoded form), `res.send`. Loaded through NODE_PATH; the scan
// never reads it (it is outside the scanned directory's code: `lib/` is named in the test).
'use strict';
const http = require('http');

function express() {
  const routes = [];
  const app = {};
  for (const verb of ['get', 'post']) {
    app[verb] = (path, handler) => routes.push({ verb: verb.toUpperCase(), path, handler });
  }
  app.listen = (port, host, ready) => {
    const server = http.createServer((req, res) => {
      const url = new URL(req.url, 'http://localhost');
      let body = '';
      req.on('data', (chunk) => { body += chunk; });
      req.on('end', () => {
        res.send = (text) => { res.setHeader('Content-Type', 'text/html'); res.end(String(text)); };
        req.query = Object.fromEntries(url.searchParams);
        req.body = Object.fromEntries(new URLSearchParams(body));
        for (const route of routes) {
          if (route.verb !== req.method) continue;
          const want = route.path.split('/');
          const got = url.pathname.split('/');
          if (want.length !== got.length) continue;
          const params = {};
          if (want.every((part, i) => (part.startsWith(':') ? ((params[part.slice(1)] = decodeURIComponent(got[i])), true) : part === got[i]))) {
            req.params = params;
            return route.handler(req, res);
          }
        }
        res.statusCode = 404;
        res.end('not found');
      });
    });
    server.listen(port, host, () => ready(server.address().port));
    return server;
  };
  return app;
}

module.exports = express;
