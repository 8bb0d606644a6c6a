function getByUserIdAndThreshold(userId, threshold) {
  // ruleid: javascript.mongodb-where-expression
  return { $where: `this.userId == ${userId} && this.stocks > '${threshold}'` };
}

function search(name) {
  // ruleid: javascript.mongodb-where-expression
  return collection.find({ $where: "this.name == '" + name + "'" });
}

// ok: javascript.mongodb-where-expression
const everyone = { $where: 'this.type == "public"' };

function byName(name) {
  // ok: javascript.mongodb-where-expression
  return collection.find({ name: String(name) });
}
