function sendToken(apiToken) {
  // ruleid: javascript.postmessage-wildcard-origin
  window.opener.postMessage({ token: apiToken }, '*');
  // ok: javascript.postmessage-wildcard-origin
  window.opener.postMessage({ token: apiToken }, 'https://app.example.com');
  // ok: javascript.postmessage-wildcard-origin
  window.parent.postMessage('ready', '*');
}

function reportSize(frameState) {
  // ruleid: javascript.postmessage-wildcard-origin
  parent.postMessage(JSON.stringify(frameState), '*');
}

function done() {
  const message = 'connector_oauth_completed';
  // ok: javascript.postmessage-wildcard-origin
  window.opener.postMessage(message, '*');
}
