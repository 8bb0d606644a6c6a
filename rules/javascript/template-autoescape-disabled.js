const swig = require('swig');
const nunjucks = require('nunjucks');

// ruleid: javascript.template-autoescape-disabled
swig.setDefaults({ autoescape: false });
// ok: javascript.template-autoescape-disabled
swig.setDefaults({ autoescape: true, cache: false });
// ruleid: javascript.template-autoescape-disabled
nunjucks.configure('views', { autoescape: false, express: app });
// ok: javascript.template-autoescape-disabled
nunjucks.configure('views', { autoescape: true, express: app });

const Mustache = require('mustache');
// ok: javascript.template-autoescape-disabled
Mustache.escape = (value) => sqlstring.escape(value);
