import DOMPurify from 'dompurify';

async function loadProfile(nameRef) {
  const response = await (await fetch('/api/profile')).json();
  // ruleid: javascript.dom-html-sink
  nameRef.current.innerHTML = response.name;
  // ok: javascript.dom-html-sink
  nameRef.current.innerHTML = '';
  // ok: javascript.dom-html-sink
  nameRef.current.innerHTML = DOMPurify.sanitize(response.bio);
  // ok: javascript.dom-html-sink
  nameRef.current.textContent = response.name;
}

export function Bio({ html }) {
  // ruleid: javascript.dom-html-sink
  return <div dangerouslySetInnerHTML={{ __html: html }} />;
}

export function Safe({ html }) {
  // ok: javascript.dom-html-sink
  return <div dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(html) }} />;
}
