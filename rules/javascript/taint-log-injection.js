const express = require('express');
const logger = require('winston');
const app = express();

app.post('/login', (req, res) => {
  const user = req.body.username;
  // ruleid: javascript.taint-log-injection
  logger.error('Tried to login attempt from user = ' + user);
  // ruleid: javascript.taint-log-injection
  console.log('Error: attempt to login with invalid user: ', user);
  // ok: javascript.taint-log-injection
  console.log('login attempt for', JSON.stringify(user));
  // ok: javascript.taint-log-injection
  logger.info('login attempt from ' + user.replace(/[\r\n]/g, '_'));
  // ok: javascript.taint-log-injection
  logger.info('login attempt');
  res.end();
});
