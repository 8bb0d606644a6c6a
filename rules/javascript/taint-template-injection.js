const ejs = require('ejs');
const express = require('express');
const app = express();

function notFoundPage(input) {
  const template = '<h1>Error: 404</h1><p>Page Not Found: /ssti/' + input + '</p>';
  // ruleid: javascript.taint-template-injection
  return ejs.render(template, { name: 'Venus' });
}

app.get('/ssti', (req, res) => {
  // A flow into a helper's sink is reported at that sink (above)
  res.send(notFoundPage(req.query.path));
  // ok: javascript.taint-template-injection
  res.send(notFoundPage('index'));
});

app.get('/greet', function (req, res) {
  // ruleid: javascript.taint-template-injection
  const html = ejs.render('<p>Hello ' + req.query.name + '</p>');
  // ok: javascript.taint-template-injection
  const safe = ejs.render('<p>Hello <%= name %></p>', { name: req.query.name });
  res.send(html + safe);
});
