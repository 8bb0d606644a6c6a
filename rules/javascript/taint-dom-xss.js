function showSearch() {
  const q = new URLSearchParams(window.location.search).get('q');
  // ruleid: javascript.taint-dom-xss
  document.getElementById('title').innerHTML = 'Results for ' + q;
  // ok: javascript.taint-dom-xss
  document.getElementById('title').textContent = 'Results for ' + q;
  // ok: javascript.taint-dom-xss
  document.getElementById('title').innerHTML = '<b>Results</b>';
}

function jump() {
  // ruleid: javascript.taint-dom-xss
  location.href = decodeURIComponent(location.hash.slice(1));
}

window.addEventListener('message', (event) => {
  // ruleid: javascript.taint-dom-xss
  document.getElementById('profile').innerHTML = event.data.name;
});

function redirectToVersion(version) {
  const currentUrl = window.location.href.split('?')[0];
  // ok: javascript.taint-dom-xss
  window.location.href = currentUrl + '?version=' + version;
}
