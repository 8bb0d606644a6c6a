// A small Express application for `sentinel scan --prove` (Tests/CLITests/ProveCLITests.swift):
// a reflected value in a path segment and one in the query, and a twin that escapes.
'use strict';
const fs = require('fs');
const express = require('express');

const app = express();

app.get('/hello/:name', (req, res) => {
  res.send('<h1>Hello ' + req.params.name + '</h1>');
});

app.get('/search', (req, res) => {
  res.send('<p>Results for ' + req.query.q + '</p>');
});

app.get('/safe', (req, res) => {
  res.send('<p>Results for ' + String(req.query.q).replace(/[<>&"']/g, '') + '</p>');
});

const args = process.argv.slice(2);
const portFile = args[args.indexOf('--port-file') + 1];
app.listen(0, '127.0.0.1', (port) => fs.writeFileSync(portFile, String(port)));
