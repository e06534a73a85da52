#!/usr/bin/env node
/** JSDoc for f. */
function f(a, b) { /* ... */ }
const arrow = (x) => x * 2;
const block = (x) => { /* ... */ };
class C {
  /** Method doc. */
  method() { /* ... */ }
  static #priv = 1;
}
const el = <div className="x">{ }hello // text</div>;
// @__NO_SIDE_EFFECTS__
function pure(x) { /* ... */ }
const lazy = () => import(/* webpackChunkName: "lazy" */ "./lazy.js");
var Legacy = /** @class */ (function () {
  function Legacy(v) { /* ... */ }
  Legacy.prototype.get = function () { /* ... */ };
  return Legacy;
}());
(function (global, factory) {
  typeof exports === "object" ? factory(exports) : factory((global.lib = {}));
})(this, function (exports) {
  function api(x) { /* ... */ }
  exports.api = api;
});
module.exports = { f, C, pure, lazy, Legacy };
/*# sourceMappingURL=javascript.js.map */
