const libxmljs = require('libxmljs');
const libxml = require('libxmljs2');

function importProducts(req, res) {
  // ruleid: javascript.xml-external-entities
  const products = libxmljs.parseXmlString(req.files.products.data.toString('utf8'), { noent: true, noblanks: true });
  // ok: javascript.xml-external-entities
  const safe = libxmljs.parseXmlString(req.files.products.data.toString('utf8'), { noblanks: true });
  res.json({ products, safe });
}

function importNotes(xmlData) {
  const optionsXml = {
    noent: true,
    dtdload: true,
  };
  // ruleid: javascript.xml-external-entities
  const doc = libxml.parseXml(xmlData, optionsXml);
  // ok: javascript.xml-external-entities
  const plain = libxml.parseXml(xmlData, { noent: false });
  return [doc, plain];
}
