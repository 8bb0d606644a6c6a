function showSearch() {
  const q = new URLSearchParams(window.location.search).get('q');
  // ruleid: javascript.taint-dom-xss
  document.getElementById('title').innerHTML = 'Results for ' + q;
  // ok: javascript.taint-dom-xss
  document.getElementById('title').textContent = 'Results for ' + q;
  // ok: javascript.taint-dom-xss
  document.getElementById('title').innerHTML = '<b>Results</b>';
}

window.addEventListener('message', (event) => {
  // ruleid: javascript.taint-dom-xss
  document.getElementById('profile').innerHTML = event.data.name;
});

function showFragment() {
  // ruleid: javascript.taint-dom-xss
  document.body.insertAdjacentHTML('beforeend', '<p>' + decodeURIComponent(location.hash.slice(1)) + '</p>');
  // ok: javascript.taint-dom-xss
  location.href = decodeURIComponent(location.hash.slice(1));
}
