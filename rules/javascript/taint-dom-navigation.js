function jump() {
  // ruleid: javascript.taint-dom-navigation
  location.href = decodeURIComponent(location.hash.slice(1));
}

function back() {
  const target = new URLSearchParams(window.location.search).get('next');
  // ruleid: javascript.taint-dom-navigation
  window.location = target;
  // ruleid: javascript.taint-dom-navigation
  window.open(document.referrer);
}

function login(root) {
  const path = window.location.search;
  // ok: javascript.taint-dom-navigation
  window.location = root + '/login?next=' + path + window.location.hash;
  // ok: javascript.taint-dom-navigation
  location.href = `/search?q=${location.hash.slice(1)}`;
  // ok: javascript.taint-dom-navigation
  location.assign('?page=' + new URLSearchParams(location.search).get('page'));
}

function redirectToVersion(version) {
  const currentUrl = window.location.href.split('?')[0];
  // ok: javascript.taint-dom-navigation
  window.location.href = currentUrl + '?version=' + version;
}
