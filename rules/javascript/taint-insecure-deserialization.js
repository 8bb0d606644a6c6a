const serialize = require('node-serialize');
const yaml = require('js-yaml');

const savePreference = (req, res) => {
  // ruleid: javascript.taint-insecure-deserialization
  const preference = serialize.unserialize(req.cookies.preference);
  // ok: javascript.taint-insecure-deserialization
  const parsed = JSON.parse(req.cookies.preference);
  res.send({ preference, parsed });
};

async function exportData(req, res) {
  const payload = Buffer.from(req.body.data, 'base64');
  // ruleid: javascript.taint-insecure-deserialization
  const data = serialize.unserialize(payload.toString());
  // ok: javascript.taint-insecure-deserialization
  const config = yaml.load(req.body.config);
  // ruleid: javascript.taint-insecure-deserialization
  const full = yaml.load(req.body.config, { schema: yaml.DEFAULT_FULL_SCHEMA });
  res.json({ data, config, full });
}

function restore(file) {
  // ok: javascript.taint-insecure-deserialization
  return serialize.unserialize(file);
}
