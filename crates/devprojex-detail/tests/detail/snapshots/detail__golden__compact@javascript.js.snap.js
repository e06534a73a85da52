#!/usr/bin/env node
/** JSDoc for f. */
function f(a, b) {
  const re = /\/\/ not a comment/g;
  const t = `template // not a comment
${a /* inside substitution */ + b}

blank above`;
  return re.test(t);
}
const arrow = (x) => x * 2;
const block = (x) => {
  return x * 2;
};
class C {
  /** Method doc. */
  method() {
    return "/* not */";
  }
  static #priv = 1;
}
const el = <div className="x">{ }hello // text</div>;
// @__NO_SIDE_EFFECTS__
function pure(x) {
  return x;
}
const lazy = () => import(/* webpackChunkName: "lazy" */ "./lazy.js");
var Legacy = /** @class */ (function () {
  function Legacy(v) {
    this.v = v;
  }
  Legacy.prototype.get = function () {
    return this.v;
  };
  return Legacy;
}());
(function (global, factory) {
  typeof exports === "object" ? factory(exports) : factory((global.lib = {}));
})(this, function (exports) {
  function api(x) {
    return x + 1;
  }
  exports.api = api;
});
module.exports = { f, C, pure, lazy, Legacy };
/*# sourceMappingURL=javascript.js.map */
