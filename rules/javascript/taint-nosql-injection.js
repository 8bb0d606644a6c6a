const express = require('express');
const User = require('./models/user');
const app = express();

app.post('/login', (req, res) => {
  // ruleid: javascript.taint-nosql-injection
  User.find({ username: req.body.username, password: req.body.password }, (err, users) => res.json(users));
  // ok: javascript.taint-nosql-injection
  User.find({ username: String(req.body.username) }, (err, users) => res.json(users));
});

app.post('/notes', async (req, res) => {
  const db = client.db('app');
  // ruleid: javascript.taint-nosql-injection
  const notes = await db.collection('notes').find({ owner: req.body.username }).toArray();
  // ruleid: javascript.taint-nosql-injection
  const secret = await db.collection('secret').find({ $where: "this.password == '" + req.body.password + "'" }).toArray();
  // ok: javascript.taint-nosql-injection
  const mine = await db.collection('notes').find({ owner: req.session.user }).toArray();
  res.json({ notes, secret, mine });
});

app.get('/allocations/:userId', async (req, res) => {
  const threshold = req.query.threshold;
  // ruleid: javascript.taint-nosql-injection
  const query = { $where: `this.userId == ${req.session.userId} && this.stocks > '${threshold}'` };
  // ok: javascript.taint-nosql-injection
  const byId = await Allocation.findOne({ userId: req.params.userId });
  // ok: javascript.taint-nosql-injection
  const rows = await Train.findAll({ where: { from_stnt: req.query.from } });
  res.json({ query, byId, rows });
});
