#!/usr/bin/env node
/** JSDoc for f. */
function f(a, b) {
  // comment
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

const el = <div className="x">{/* jsx comment */}hello // text</div>;
module.exports = { f, C };
