const pgp = require('pg-promise')();
const db = pgp(process.env.DATABASE_URL);

function getProduct(productId) {
  // ruleid: javascript.sql-string-building
  const q = "SELECT * FROM products WHERE id = '" + productId + "';";
  return db.one(q);
}

function search(query) {
  // ruleid: javascript.sql-string-building
  return db.many(`SELECT * FROM products WHERE name ILIKE '%${query}%'`);
}

function byId(id) {
  // ok: javascript.sql-string-building
  return db.one('SELECT * FROM products WHERE id = $1', [id]);
}

function byName(name) {
  // ok: javascript.sql-string-building
  return db.one(sql`SELECT * FROM products WHERE name = ${name}`);
}

function log(table) {
  // ok: javascript.sql-string-building
  console.log('SELECT from ' + table + ' finished');
  // ok: javascript.sql-string-building
  return 'Select a row from the list: ' + table;
}

app.get('/home/:pageId', (req, res) => {
  // ok: javascript.sql-string-building
  db.get('SELECT title FROM pages WHERE pageId=' + req.params.pageId, (err, row) => res.json(row));
});

function eventData(websiteId, filters) {
  const { filterQuery, queryParams } = parseFilters({ ...filters, websiteId });
  // ok: javascript.sql-string-building
  const eventQuery = `
    select event_id from website_event
    where website_id = {{websiteId::uuid}}
    ${filterQuery}`;
  // ok: javascript.sql-string-building
  return rawQuery(`select count(*) as num from (${eventQuery}) t`, queryParams);
}

function searchProducts(query) {
  // ruleid: javascript.sql-string-building
  const q = "SELECT * FROM products WHERE name ILIKE '%" + query + "%'";
  // ok: javascript.sql-string-building
  const r = 'SELECT * FROM products ' + whereClause;
  return [q, r];
}
