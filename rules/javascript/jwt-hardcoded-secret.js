const jwt = require('jsonwebtoken');
const secret = 'secret';

function login(user) {
  // ruleid: javascript.jwt-hardcoded-secret
  return jwt.sign({ id: user.id }, secret, { expiresIn: '1h' });
}

function check(token) {
  // ruleid: javascript.jwt-hardcoded-secret
  const claims = jwt.verify(token, 'keyboard cat');
  // ok: javascript.jwt-hardcoded-secret
  const other = jwt.verify(token, process.env.JWT_SECRET);
  // ok: javascript.jwt-hardcoded-secret
  const decoded = jwt.verify(token, getSigningKey());
  return [claims, other, decoded];
}
