const jwt = require('jsonwebtoken');

// ruleid: javascript.jwt-none-algorithm
const options = {
  expiresIn: '2d',
  issuer: 'https://example.com',
  algorithms: ['HS256', 'none'],
};

function check(token) {
  // ruleid: javascript.jwt-none-algorithm
  jwt.verify(token, process.env.JWT_SECRET, { algorithms: ['none'] });
  // ok: javascript.jwt-none-algorithm
  return jwt.verify(token, process.env.JWT_SECRET, { algorithms: ['HS256'] });
}

// ok: javascript.jwt-none-algorithm
const signing = { algorithm: 'RS256', expiresIn: '1h' };
