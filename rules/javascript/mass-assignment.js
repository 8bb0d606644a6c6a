const User = require('./models/user');

async function register(req, res) {
  // ruleid: javascript.mass-assignment
  const user = new User(req.body);
  await user.save();
  // ok: javascript.mass-assignment
  const other = new User({ name: req.body.name, email: req.body.email });
  await other.save();
  // ruleid: javascript.mass-assignment
  await Note.findOneAndUpdate({ name: req.params.noteId }, req.body, { new: true });
  res.json({ user, other });
}

async function testNotification(req, res) {
  // ok: javascript.mass-assignment
  const agent = new DiscordAgent(req.body);
  // ok: javascript.mass-assignment
  await User.updateOne({ _id: req.user.id }, { $set: { bio: req.body.bio } });
  res.json(await agent.send());
}

async function add(req, res) {
  // ruleid: javascript.mass-assignment
  const user = new User(req.body);
  try {
    await user.save();
  } catch (e) {
    res.status(500).end();
  }
}
