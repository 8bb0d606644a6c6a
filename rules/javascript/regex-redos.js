function validRouting(bankRouting) {
  // ruleid: javascript.regex-redos
  const regexPattern = /([0-9]+)+\#/;
  return regexPattern.test(bankRouting);
}

function validEmail(email) {
  const re =
    // ruleid: javascript.regex-redos
    /^([0-9a-zA-Z]([-.\w]*[0-9a-zA-Z])*@{1}([0-9a-zA-Z][-\w]*[0-9a-zA-Z]\.)+[a-zA-Z]{2,9})$/;
  // ruleid: javascript.regex-redos
  const other = /^([a-zA-Z0-9])(([\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$/;
  return re.test(email) && other.test(email);
}

// Repetitions separated by a fixed character cannot overlap: safe.
// ok: javascript.regex-redos
const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
// ok: javascript.regex-redos
const VERSION = /^\d+(\.\d+)*$/;
// ok: javascript.regex-redos
const LIST = /^\w+(\s*,\s*\w+)*$/;
// ok: javascript.regex-redos
const TEXT = '([0-9]+)+ is not a regular expression here';
// ruleid: javascript.regex-redos
const WORDS = /^(\w+\s?)*$/;
