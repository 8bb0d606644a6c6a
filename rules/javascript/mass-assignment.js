const User = require('./models/user');

async function register(req, res) {
  // ruleid: javascript.mass-assignment
  const user = new User(req.body);
  await user.save();
  // ok: javascript.mass-assignment
  const other = new User({ name: req.body.name, email: req.body.email });
  // ruleid: javascript.mass-assignment
  await Note.findOneAndUpdate({ name: req.params.noteId }, req.body, { new: true });
  res.json({ user, other });
}
