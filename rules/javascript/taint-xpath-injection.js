const xpath = require('xpath');
const express = require('express');
const app = express();

app.get('/release/:release', (req, res) => {
  const uservalue = decodeURI(req.params.release.toString());
  // ruleid: javascript.taint-xpath-injection
  const result = xpath.evaluate(
    "//config/*[local-name(.)='release' and //config//release/text()='" + uservalue + "']",
    doc, null, xpath.XPathResult.ANY_TYPE, null);
  // ok: javascript.taint-xpath-injection
  const all = xpath.select('//config/release/text()', doc);
  res.json({ result, all });
});

app.get('/user', function (req, res) {
  // ruleid: javascript.taint-xpath-injection
  const nodes = xpath.select("//users/user[@name='" + req.query.name + "']", doc);
  res.json(nodes.length);
});

app.get('/count', function (req, res) {
  const n = parseInt(req.query.n, 10);
  // ok: javascript.taint-xpath-injection
  const nodes = xpath.select('//users/user[' + n + ']', doc);
  res.json(nodes.length);
});

app.get('/subs', async function (req, res) {
  // ok: javascript.taint-xpath-injection
  const subs = await repo.find({ where: { endpoint: req.query.endpoint }, relations: { user: true } }); // see https://example.com/a//b
  res.json(subs);
});
