// Parse and validate an AsyncAPI document with the AsyncAPI initiative's own parser;
// print every diagnostic, exit 1 when any is an error.
import { readFileSync } from "node:fs";
import { Parser } from "@asyncapi/parser";

const path = process.argv[2];
const parser = new Parser();
const { document, diagnostics } = await parser.parse(readFileSync(path, "utf8"));
const severities = ["error", "warning", "info", "hint"];
for (const d of diagnostics) {
  console.log(`${severities[d.severity]} ${d.code} ${d.path.join(".")}: ${d.message}`);
}
const errors = diagnostics.filter((d) => d.severity === 0);
if (!document || errors.length) process.exit(1);
console.log(`valid: AsyncAPI ${document.version()}, ${document.messages().length} messages`);
