const cors = require('cors');

// ruleid: javascript.cors-permissive-credentials
const corsOptions = { origin: true, credentials: true, optionsSuccessStatus: 200 };
app.use(cors(corsOptions));

// ok: javascript.cors-permissive-credentials
app.use(cors({ origin: ['https://app.example.com'], credentials: true }));
// ok: javascript.cors-permissive-credentials
app.use(cors({ origin: '*' }));
// ok: javascript.cors-permissive-credentials
app.use(cors({ origin: '*', credentials: true }));

function tokenPage(req, res) {
  if (req.get('origin') !== undefined) {
    // ruleid: javascript.cors-permissive-credentials
    res.header('Access-Control-Allow-Origin', req.get('origin'));
    res.header('Access-Control-Allow-Credentials', 'true');
  }
  // ok: javascript.cors-permissive-credentials
  res.header('Access-Control-Allow-Origin', 'https://app.example.com');
  res.render('token');
}
