const express = require('express');
const helmet = require('helmet');

function plain() {
  // ruleid: javascript.express-x-powered-by
  const app = express();
  app.get('/', (req, res) => res.send('hi'));
  return app;
}

function hardened() {
  // ok: javascript.express-x-powered-by
  const app = express();
  app.disable('x-powered-by');
  return app;
}

function withHelmet() {
  // ok: javascript.express-x-powered-by
  const app = express();
  app.use(helmet());
  return app;
}

// ruleid: javascript.express-x-powered-by
var server = express();
server.listen(3000);
