// A stand-in for the cookie-session package, written for this fixture (the tests run without
// node_modules): the middleware it returns passes every request on and keeps its options.
module.exports = function cookieSession(options = {}) {
  const middleware = (req, res, next) => next();
  middleware.options = { ...options };
  return middleware;
};
