const cookieSession = require('cookie-session');

const DAY = 24 * 60 * 60 * 1000;

function sessionMiddleware(keys) {
  return cookieSession({
    name: 'sid',
    keys,
    maxAge: DAY,
  });
}

module.exports = { sessionMiddleware, DAY };
