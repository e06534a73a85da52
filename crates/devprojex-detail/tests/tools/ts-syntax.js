// Parses each JS/JSX/TS/TSX file named on the command line with the TypeScript compiler's own
// parser (syntax only) and exits 1 after printing the first diagnostic of any that fails.
// Exits 3 when the `typescript` package cannot be loaded (NODE_PATH tells node where it is).
let ts;
try {
  ts = require('typescript');
} catch (e) {
  console.log('the typescript package is not installed');
  process.exit(3);
}
const fs = require('fs');
const kinds = { '.ts': ts.ScriptKind.TS, '.tsx': ts.ScriptKind.TSX, '.jsx': ts.ScriptKind.JSX };
let failed = 0;
for (const file of process.argv.slice(2)) {
  const ext = file.slice(file.lastIndexOf('.'));
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest, false, kinds[ext] ?? ts.ScriptKind.JS);
  const first = source.parseDiagnostics[0];
  if (first) {
    const { line } = source.getLineAndCharacterOfPosition(first.start);
    console.log(`${file}:${line + 1}: ${ts.flattenDiagnosticMessageText(first.messageText, ' ')}`);
    failed++;
  }
}
process.exit(failed === 0 ? 0 : 1);
