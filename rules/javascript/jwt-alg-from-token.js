const jwt = require('jsonwebtoken');

function claimsOf(token, secret) {
  const headers = JSON.parse(Buffer.from(token.split('.')[0], 'base64').toString());
  let claims;
  if (headers.alg == 'NONE') {
    // ruleid: javascript.jwt-alg-from-token
    claims = jwt.decode(token, { complete: false });
  } else {
    claims = jwt.verify(token, secret);
  }
  return claims;
}

function expiry(token) {
  // ok: javascript.jwt-alg-from-token
  const { exp } = jwt.decode(token);
  if (exp < Date.now() / 1000) {
    // ok: javascript.jwt-alg-from-token
    return jwt.decode(token);
  }
  return null;
}

function fromHeader(token, header) {
  // ruleid: javascript.jwt-alg-from-token
  if (header.alg === 'none') return jwt.decode(token);
  return jwt.verify(token, process.env.KEY, { algorithms: ['RS256'] });
}
