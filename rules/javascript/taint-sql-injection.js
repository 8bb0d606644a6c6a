const express = require('express');
const mysql = require('mysql');
const sqlite3 = require('sqlite3');
const { Sequelize } = require('sequelize');
const app = express();
const con = mysql.createConnection({ host: 'localhost' });
const db = new sqlite3.Database('app.db');
const sequelize = new Sequelize('sqlite::memory:');

app.get('/train/:from/:to', (req, res) => {
  const from = req.params.from;
  const q = "SELECT ntrains FROM trains where from_stnt='" + from + "'";
  // ruleid: javascript.taint-sql-injection
  con.query(q, (err, results) => res.json(results));
  // ok: javascript.taint-sql-injection
  con.query('SELECT ntrains FROM trains WHERE from_stnt = ? AND to_stnt = ?', [from, req.params.to], (err, r) => res.json(r));
});

app.get('/home/:pageId', (req, res) => {
  // ruleid: javascript.taint-sql-injection
  db.get('SELECT title FROM pages WHERE pageId=' + req.params.pageId, (err, row) => res.json(row));
  const id = parseInt(req.params.pageId, 10);
  // ok: javascript.taint-sql-injection
  db.get('SELECT title FROM pages WHERE pageId=' + id, (err, row) => res.json(row));
});

app.post('/search', async function (req, res) {
  // ruleid: javascript.taint-sql-injection
  const rows = await sequelize.query(`SELECT name FROM users WHERE login = '${req.body.login}'`);
  // ok: javascript.taint-sql-injection
  const safe = await sequelize.query('SELECT name FROM users WHERE login = :login', {
    replacements: { login: req.body.login },
  });
  res.json({ rows, safe });
});

// TypeORM, knex, Prisma
export async function listItems(req, res) {
  const order = req.query.order;
  // ruleid: javascript.taint-sql-injection
  const items = await dataSource.manager.query(`SELECT * FROM item ORDER BY ${order}`);
  // ruleid: javascript.taint-sql-injection
  await knex('item').whereRaw('name = ' + req.query.name);
  // ok: javascript.taint-sql-injection
  await knex('item').whereRaw('name = ?', [req.query.name]);
  // ruleid: javascript.taint-sql-injection
  await prisma.$queryRawUnsafe('SELECT * FROM "User" WHERE email = \'' + req.query.email + "'");
  // ok: javascript.taint-sql-injection
  await prisma.$queryRawUnsafe('SELECT * FROM "User" WHERE email = $1', req.query.email);
  // ok: javascript.taint-sql-injection
  await prisma.$queryRaw`SELECT * FROM "User" WHERE email = ${req.query.email}`;
  // ok: javascript.taint-sql-injection
  await apollo.query({ query: GET_ITEM, variables: { id: req.query.id } });
  // ok: javascript.taint-sql-injection
  const hit = cache.get('item:' + req.query.id);
  res.json({ items, hit });
}
