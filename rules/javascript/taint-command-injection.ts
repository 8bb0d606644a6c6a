const express = require('express');
const { exec, execFile, spawn } = require('child_process');
const cp = require('node:child_process');
const execOld = require('child_process').exec;
const shell = require('shelljs');
const app = express();

app.post('/ping', (req, res) => {
  const host = req.body.host;
  // ruleid: javascript.taint-command-injection
  exec('ping -c 2 ' + host, (err, stdout) => res.send(stdout));
  // ok: javascript.taint-command-injection
  execFile('ping', ['-c', '2', host], (err, stdout) => res.send(stdout));
  // ok: javascript.taint-command-injection
  exec('uptime', (err, stdout) => res.send(stdout));
});

app.get('/convert/:size', function (req, res) {
  const size = req.params.size;
  // ruleid: javascript.taint-command-injection
  cp.execSync(`convert in.png -resize ${size}% out.png`);
  const count = parseInt(req.query.count, 10);
  // ok: javascript.taint-command-injection
  cp.execSync(`convert in.png -quality ${count} out.png`);
  res.send('done');
});

app.get('/legacy', function (req, res) {
  // ruleid: javascript.taint-command-injection
  execOld('identify ' + req.query.url, function (err, out) {
    res.send(out);
  });
});

app.post('/run', async (req, res) => {
  // ruleid: javascript.taint-command-injection
  spawn(req.body.tool, ['--version']);
  // ruleid: javascript.taint-command-injection
  spawn('sh', ['-c', 'grep ' + req.body.pattern + ' /var/log/app.log']);
  // ok: javascript.taint-command-injection
  spawn('grep', ['--', req.body.pattern, '/var/log/app.log']);
  // ruleid: javascript.taint-command-injection
  shell.exec('git checkout ' + req.body.branch);
  res.end();
});

// A command built from the server's own configuration is not the client's.
function rebuild(config) {
  // ok: javascript.taint-command-injection
  exec('make -C ' + config.dir);
}

// Koa
router.post('/archive', async (ctx) => {
  const name = ctx.request.body.name;
  // ruleid: javascript.taint-command-injection
  exec(`tar czf /tmp/${name}.tgz /srv/data`);
});

// NestJS: a decorated controller parameter is request data; a user resolved by a guard is not
class ToolsController {
  @Post('run')
  async run(@Body() dto: RunDto, @AuthUser() user: User) {
    // ruleid: javascript.taint-command-injection
    exec('convert ' + dto.file);
    // ok: javascript.taint-command-injection
    exec('notify ' + user.id);
  }
}

// tRPC: a procedure's resolver gets the client's input
export const jobsRouter = t.router({
  convert: publicProcedure.input(z.object({ file: z.string() })).mutation(async ({ input }) => {
    // ruleid: javascript.taint-command-injection
    exec(`convert ${input.file}`);
    // ok: javascript.taint-command-injection
    exec('convert /tmp/a.png');
  }),
});

// A package's exported function: its callers choose the value (reported at medium)
export function killPort(port: number) {
  // ok: javascript.taint-command-injection
  exec('true');
}
module.exports.kill = function (port) {
  // ruleid: javascript.taint-command-injection
  exec(`lsof -i tcp:${port} | xargs kill -9`);
};
