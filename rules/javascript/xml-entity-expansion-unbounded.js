const libxml = require('libxmljs2');

function importNotes(xmlData) {
  const optionsXml = { noent: false, huge: true };
  // ruleid: javascript.xml-entity-expansion-unbounded
  const doc = libxml.parseXml(xmlData, optionsXml);
  // ok: javascript.xml-entity-expansion-unbounded
  const plain = libxml.parseXml(xmlData, { noblanks: true });
  // ruleid: javascript.xml-entity-expansion-unbounded
  const big = libxml.parseXmlString(xmlData, { huge: true });
  // ok: javascript.xml-entity-expansion-unbounded
  const small = libxml.parseXmlString(xmlData);
  return [doc, plain, big, small];
}
