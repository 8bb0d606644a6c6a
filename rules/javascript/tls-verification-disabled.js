const https = require('https');

// ruleid: javascript.tls-verification-disabled
const agent = new https.Agent({ rejectUnauthorized: false });
// ok: javascript.tls-verification-disabled
const strict = new https.Agent({ rejectUnauthorized: true });
// ok: javascript.tls-verification-disabled
const configured = new https.Agent({ rejectUnauthorized: !config.allowSelfSigned });

// ruleid: javascript.tls-verification-disabled
process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';

function redisTls(searchParams) {
  // ok: javascript.tls-verification-disabled
  return searchParams.get('rejectUnauthorized') === 'false' ? { rejectUnauthorized: false } : {};
}

function kafkaSsl(username, password) {
  // ruleid: javascript.tls-verification-disabled
  return username && password ? { ssl: { rejectUnauthorized: false } } : {};
}
