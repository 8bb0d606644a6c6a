// ruleid: javascript.hardcoded-secret-string
var token = 'SECRET_TOKEN_f8ed84e8f41e4146403dd4a6bbcea5e418d23a9';

// ruleid: javascript.hardcoded-secret-string
const firebase = { apiKey: 'AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY', projectId: 'demo' };

// ok: javascript.hardcoded-secret-string
const headers = { tokenHeader: 'X-Auth-Token', password: process.env.DB_PASSWORD };

// ok: javascript.hardcoded-secret-string
const ACCESS_TOKEN = 'access_token';
// ok: javascript.hardcoded-secret-string
const passwordPlaceholder = 'Enter your password';
// ok: javascript.hardcoded-secret-string
const password = 'myPassword';

// ok: javascript.hardcoded-secret-string
app.use(session({ secret: 'f8ed84e8f41e4146403dd4a6bbcea5e4', resave: false }));
// ok: javascript.hardcoded-secret-string
socket.token = 'autoLogin';
// ok: javascript.hardcoded-secret-string
const OnePassword = 'bada5566-a7aa-401f-bd96-45619a55120d';
