// The TypeScript oracle of codegen.oracles.typescript: the type checker judges JSON values.
//
// Phase: verification (make oracle), run by codegen/oracles/typescript.py with node.
// Input (stdin, JSON): {typescript: <path of the typescript package>, files: {name: text},
//   mode: "list" | "judge", cases: [{type, text}], enumsAsValues: bool, ignoreExcess: bool,
//   undefinedAsOptional: bool, checked: [file names] (optional)}.
// Output (stdout, JSON): list → {types: {name: file}, generic: [names], files: the sources
//   as checked, rewrites: {normalization: how many declarations it rewrote}};
//   judge → {answers: [{accept, errors: [message], removed: [property paths]}],
//   checked: [{file, line, message}]: the errors in the `checked` files (a file of aliases
//   naming the judged types: an alias that does not resolve is `any` to the checker, which
//   would accept every case, so the caller must know)}.
// Each case becomes `const __cN: T = <json>;` in one file type-checked with the spec's
// sources under --strict --exactOptionalPropertyTypes (one program: thousands of cases check
// in one pass).  A case is accepted iff it has no error; with ignoreExcess, an object-literal
// excess-property error (TS2353, TS2561) does not reject: the property is removed and the
// case checked again, because TypeScript stops at the first excess property and would hide
// the errors behind it.  With enumsAsValues, every enum is rewritten into the union of its
// values (a namespace of member aliases keeps `Kind.Text` meaning 'text'), since a JSON
// string is never assignable to an enum type; a bit-flag enum (members written with << or |)
// becomes the union of every combination of its flags.  With undefinedAsOptional, a property
// `x: T | undefined` may be absent (JSON.stringify leaves such a key out).
"use strict";

const fs = require("fs");

const input = JSON.parse(fs.readFileSync(0, "utf8"));
const ts = require(input.typescript);

const OPTIONS = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  skipLibCheck: true,
  types: [],
  lib: ["lib.es2022.d.ts"],
};
const ROOT = "/oracle/";
const EXCESS = new Set([2353, 2561]);

// Parsed files, shared by every program of the run (the enum rewrite, the listing, the
// rounds of judging): a file of the same text is parsed once, the libraries too.
const cache = new Map();
const libraries = new Map();

function makeHost(files) {
  const host = ts.createCompilerHost(OPTIONS, true);
  const original = host.getSourceFile.bind(host);
  host.getSourceFile = (name, languageVersion, onError, shouldCreate) => {
    if (name.startsWith(ROOT)) {
      const key = name.slice(ROOT.length);
      if (!(key in files)) return undefined;
      const text = files[key];
      const cached = cache.get(name);
      if (cached && cached.text === text) return cached.sf;
      const sf = ts.createSourceFile(name, text, languageVersion, true);
      cache.set(name, { text, sf });
      return sf;
    }
    if (!libraries.has(name)) {
      libraries.set(name, original(name, languageVersion, onError, shouldCreate));
    }
    return libraries.get(name);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) =>
    name.startsWith(ROOT) ? name.slice(ROOT.length) in files : fileExists(name);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) =>
    name.startsWith(ROOT) ? files[name.slice(ROOT.length)] : readFile(name);
  const directoryExists = host.directoryExists ? host.directoryExists.bind(host) : null;
  host.directoryExists = (name) =>
    (ROOT.startsWith(name.endsWith("/") ? name : name + "/") || name.startsWith(ROOT)) ||
    (directoryExists ? directoryExists(name) : false);
  host.realpath = (name) => name;
  host.getCurrentDirectory = () => ROOT;
  host.writeFile = () => {};
  return host;
}

function program(files, old) {
  const roots = Object.keys(files).map((name) => ROOT + name);
  return ts.createProgram(roots, OPTIONS, makeHost(files), old);
}

// ------------------------------------------------------------------ enums as their values

function isFlagsEnum(decl) {
  let flags = false;
  const visit = (node) => {
    if (
      ts.isBinaryExpression(node) &&
      (node.operatorToken.kind === ts.SyntaxKind.LessThanLessThanToken ||
        node.operatorToken.kind === ts.SyntaxKind.BarToken)
    ) {
      flags = true;
    }
    ts.forEachChild(node, visit);
  };
  decl.members.forEach((m) => m.initializer && visit(m.initializer));
  return flags;
}

function literal(value) {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

function combinations(values) {
  const out = new Set([0]);
  for (const value of values) {
    for (const existing of Array.from(out)) out.add(existing | value);
  }
  if (!values.includes(0)) out.delete(0);
  return Array.from(out).sort((a, b) => a - b);
}

const rewrites = { "ts-enums-as-values": 0, "ts-undefined-as-optional": 0 };

function enumsAsValues(files) {
  const first = program(files);
  const checker = first.getTypeChecker();
  const out = { ...files };
  for (const name of Object.keys(files)) {
    const sf = first.getSourceFile(ROOT + name);
    if (!sf) continue;
    const edits = [];
    const visit = (node) => {
      if (ts.isEnumDeclaration(node)) {
        const members = node.members.map((m) => [
          m.name.getText(sf).replace(/^["']|["']$/g, ""),
          checker.getConstantValue(m),
        ]);
        if (members.some(([, v]) => v === undefined)) return;
        const exported = (ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Export) !== 0;
        const prefix = exported ? "export " : "";
        const values = members.map(([, v]) => v);
        const union = isFlagsEnum(node)
          ? combinations(values).map(literal)
          : values.map(literal);
        const aliases = members
          .map(([m, v]) => `export type ${m} = ${literal(v)};`)
          .join(" ");
        const text =
          `${prefix}type ${node.name.text} = ${union.join(" | ") || "never"}; ` +
          `${prefix}declare namespace ${node.name.text} { ${aliases} }`;
        edits.push([node.getStart(sf), node.end, text]);
        rewrites["ts-enums-as-values"] += 1;
        return;
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
    let text = files[name];
    for (const [start, end, replacement] of edits.sort((a, b) => b[0] - a[0])) {
      text = text.slice(0, start) + replacement + text.slice(end);
    }
    out[name] = text;
  }
  return out;
}

// ------------------------------------------------------------------ `x: T | undefined`

// JSON.stringify leaves out a key whose value is undefined, so on the wire `x: T |
// undefined` is a key that may be absent: written `x?: T | undefined` for the checker.
function undefinedAsOptional(files) {
  const out = { ...files };
  for (const name of Object.keys(files)) {
    const sf = ts.createSourceFile(name, files[name], ts.ScriptTarget.ES2022, true);
    const edits = [];
    const visit = (node) => {
      if (
        ts.isPropertySignature(node) &&
        !node.questionToken &&
        node.type &&
        ts.isUnionTypeNode(node.type) &&
        node.type.types.some((t) => t.kind === ts.SyntaxKind.UndefinedKeyword)
      ) {
        edits.push(node.name.end);
        rewrites["ts-undefined-as-optional"] += 1;
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
    let text = files[name];
    for (const position of edits.sort((a, b) => b - a)) {
      text = text.slice(0, position) + "?" + text.slice(position);
    }
    out[name] = text;
  }
  return out;
}

// ------------------------------------------------------------------ the types of the sources

function typeNames(files) {
  const prog = program(files);
  const checker = prog.getTypeChecker();
  const types = {};
  const generic = [];
  for (const name of Object.keys(files)) {
    const sf = prog.getSourceFile(ROOT + name);
    if (!sf) continue;
    const isModule = ts.isExternalModule(sf);
    const declared = [];
    if (isModule) {
      const symbol = checker.getSymbolAtLocation(sf);
      for (const exp of symbol ? checker.getExportsOfModule(symbol) : []) {
        const decls = exp.getDeclarations() || [];
        if (decls.some((d) => d.getSourceFile() !== sf)) continue; // re-exports
        declared.push([exp.name, decls]);
      }
    } else {
      for (const stmt of sf.statements) {
        if (
          (ts.isInterfaceDeclaration(stmt) ||
            ts.isTypeAliasDeclaration(stmt) ||
            ts.isEnumDeclaration(stmt)) &&
          stmt.name
        ) {
          declared.push([stmt.name.text, [stmt]]);
        }
      }
    }
    for (const [typeName, decls] of declared) {
      const typeDecls = decls.filter(
        (d) =>
          ts.isInterfaceDeclaration(d) ||
          ts.isTypeAliasDeclaration(d) ||
          ts.isEnumDeclaration(d)
      );
      if (!typeDecls.length) continue;
      if (typeDecls.some((d) => d.typeParameters && d.typeParameters.length)) {
        generic.push(typeName);
        continue;
      }
      if (!(typeName in types)) types[typeName] = { file: name, module: isModule };
    }
  }
  return { types, generic };
}

// ------------------------------------------------------------------ judging the cases

function moduleSpecifier(file) {
  return "./" + file.replace(/\.d\.ts$|\.ts$/, "");
}

function render(node, sf, removed) {
  if (ts.isObjectLiteralExpression(node)) {
    const parts = node.properties
      .filter((p) => !removed.has(p))
      .map((p) =>
        ts.isPropertyAssignment(p)
          ? p.name.getText(sf) + ":" + render(p.initializer, sf, removed)
          : p.getText(sf)
      );
    return "{" + parts.join(",") + "}";
  }
  if (ts.isArrayLiteralExpression(node)) {
    return "[" + node.elements.map((e) => render(e, sf, removed)).join(",") + "]";
  }
  if (ts.isParenthesizedExpression(node)) return render(node.expression, sf, removed);
  return node.getText(sf);
}

function propertyPath(prop, sf) {
  const steps = [];
  let node = prop;
  while (node && !ts.isVariableDeclaration(node)) {
    if (ts.isPropertyAssignment(node)) {
      steps.unshift(node.name.getText(sf).replace(/^"|"$/g, ""));
    } else if (ts.isArrayLiteralExpression(node.parent || {})) {
      steps.unshift(String(node.parent.elements.indexOf(node)));
    }
    node = node.parent;
  }
  return "/" + steps.join("/");
}

function innermostProperty(root, position) {
  let found;
  const visit = (node) => {
    if (position < node.getFullStart() || position >= node.end) return;
    if (ts.isPropertyAssignment(node)) found = node;
    ts.forEachChild(node, visit);
  };
  visit(root);
  return found;
}

// The case whose text holds a position: spans are [start, end) in order; -1 for none.
function caseAt(spans, position) {
  let lo = 0;
  let hi = spans.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (spans[mid][0] <= position) lo = mid;
    else hi = mid - 1;
  }
  return spans[lo] && spans[lo][0] <= position && position < spans[lo][1] ? lo : -1;
}

let checkedErrors = [];

function errorsIn(prog, names) {
  const out = [];
  for (const name of names) {
    const sf = prog.getSourceFile(ROOT + name);
    if (!sf) continue;
    for (const d of [...prog.getSyntacticDiagnostics(sf), ...prog.getSemanticDiagnostics(sf)]) {
      const line = d.start === undefined ? 0 : sf.getLineAndCharacterOfPosition(d.start).line + 1;
      out.push({ file: name, line, message: `TS${d.code}: ` + ts.flattenDiagnosticMessageText(d.messageText, " ") });
    }
  }
  return out;
}

function judge(files, cases, types, ignoreExcess) {
  const imports = [];
  const aliases = new Map();
  for (const [name, where] of Object.entries(types)) {
    if (!where.module) continue;
    if (!aliases.has(where.file)) {
      const alias = `__M${aliases.size}`;
      aliases.set(where.file, alias);
      imports.push(`import type * as ${alias} from ${JSON.stringify(moduleSpecifier(where.file))};`);
    }
  }
  const reference = (name) => {
    const where = types[name];
    return where.module ? `${aliases.get(where.file)}.${name}` : name;
  };
  const answers = cases.map(() => ({ accept: true, errors: [], removed: [] }));
  let pending = cases.map((c, index) => ({ index, text: c.text, type: c.type }));
  let old;
  for (let round = 0; pending.length && round < 12; round++) {
    let text = imports.join("\n") + "\nexport {};\n";
    const spans = [];
    pending.forEach((c, i) => {
      const start = text.length;
      text += `const __c${i}: ${reference(c.type)} = ${c.text};\n`;
      spans.push([start, text.length]);
    });
    const all = { ...files, "__cases.ts": text };
    const prog = program(all, old);
    if (round === 0) checkedErrors = errorsIn(prog, input.checked || []);
    old = prog;
    const sf = prog.getSourceFile(ROOT + "__cases.ts");
    const diagnostics = [
      ...prog.getSyntacticDiagnostics(sf),
      ...prog.getSemanticDiagnostics(sf),
    ];
    const perCase = pending.map(() => []);
    for (const d of diagnostics) {
      if (d.start === undefined) continue;
      const at = caseAt(spans, d.start);
      if (at >= 0) perCase[at].push(d);
      else {
        // An error outside every case (an import that does not resolve) would make every
        // type `any` and every case pass: never judge on such a program.
        process.stderr.write(
          "error outside the cases: TS" + d.code + ": " +
            ts.flattenDiagnosticMessageText(d.messageText, " ") + "\n"
        );
        process.exit(3);
      }
    }
    const statements = sf.statements.filter((s) => ts.isVariableStatement(s));
    const next = [];
    pending.forEach((c, i) => {
      const found = perCase[i];
      if (!found.length) return;
      const answer = answers[c.index];
      const excess = found.filter((d) => EXCESS.has(d.code));
      if (!ignoreExcess || excess.length !== found.length) {
        answer.accept = false;
        answer.errors = found
          .filter((d) => !ignoreExcess || !EXCESS.has(d.code))
          .slice(0, 3)
          .map((d) => `TS${d.code}: ` + ts.flattenDiagnosticMessageText(d.messageText, " "));
        return;
      }
      const decl = statements[i].declarationList.declarations[0];
      const removed = new Set();
      for (const d of excess) {
        const prop = innermostProperty(decl.initializer, d.start);
        if (prop) {
          removed.add(prop);
          answer.removed.push(propertyPath(prop, sf));
        }
      }
      if (!removed.size) {
        answer.accept = false;
        answer.errors = ["excess property error not located"];
        return;
      }
      next.push({ ...c, text: render(decl.initializer, sf, removed) });
    });
    pending = next;
  }
  for (const c of pending) {
    answers[c.index].accept = false;
    answers[c.index].errors = ["too many rounds of excess properties"];
  }
  if (ignoreExcess) {
    judgeAsValues(files, cases, answers, imports.join("\n") + "\nexport {};\n", reference);
  }
  return answers;
}

// The second look of ignoreExcess: tsc checks a fresh object literal against a union by the
// member it guesses from the literal's properties, and reports an excess property nested in a
// union as another error (TS2322), so the removal loop cannot see it; and an object whose
// every key is unknown to a type of optional properties is rejected even when it is no fresh
// literal (weak type detection).  Both are excess keys, which the policy allows.  So a case
// the fresh check rejected is looked at once more: every key that no member of the type
// expected at its place knows is removed (a type with an index signature knows every key),
// and the rest, typed exactly as a value read with JSON.parse (no fresh literal: assigned
// structurally, by any member of a union), is accepted when it is assignable.
function unknownKeys(checker, root, sf) {
  const removed = new Set();
  const visit = (node) => {
    if (ts.isObjectLiteralExpression(node)) {
      const expected = checker.getContextualType(node);
      if (expected) {
        const members = expected.isUnion() ? expected.types : [expected];
        const known = new Set();
        let open = false;
        for (const member of members) {
          if (checker.getIndexInfosOfType(member).length) open = true;
          for (const prop of checker.getPropertiesOfType(member)) known.add(prop.name);
        }
        if (!open) {
          for (const prop of node.properties) {
            if (!ts.isPropertyAssignment(prop)) continue;
            const name = prop.name.getText(sf).replace(/^["']|["']$/g, "");
            if (!known.has(name)) removed.add(prop);
          }
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(root);
  return removed;
}

function judgeAsValues(files, cases, answers, header, reference) {
  const rejected = cases
    .map((c, index) => ({ ...c, index }))
    .filter((c) => !answers[c.index].accept);
  if (!rejected.length) return;
  let fresh = header;
  rejected.forEach((c, i) => {
    fresh += `const __c${i}: ${reference(c.type)} = ${c.text};\n`;
  });
  const first = program({ ...files, "__fresh.ts": fresh });
  const checker = first.getTypeChecker();
  const freshSf = first.getSourceFile(ROOT + "__fresh.ts");
  const statements = freshSf.statements.filter((s) => ts.isVariableStatement(s));
  let text = header;
  const spans = [];
  const removedPaths = [];
  rejected.forEach((c, i) => {
    const init = statements[i].declarationList.declarations[0].initializer;
    const removed = unknownKeys(checker, init, freshSf);
    removedPaths.push(Array.from(removed).map((p) => propertyPath(p, freshSf)));
    // JSON text is also TypeScript type syntax: string, number, true/false/null literal
    // types, tuples for arrays, object types for objects (members separated by commas).
    const start = text.length;
    text += `declare const __v${i}: ${render(init, freshSf, removed)};\n`;
    text += `const __c${i}: ${reference(c.type)} = __v${i};\n`;
    spans.push([start, text.length]);
  });
  const prog = program({ ...files, "__values.ts": text }, first);
  const sf = prog.getSourceFile(ROOT + "__values.ts");
  const failed = new Set();
  for (const d of [...prog.getSyntacticDiagnostics(sf), ...prog.getSemanticDiagnostics(sf)]) {
    if (d.start === undefined) continue;
    const i = caseAt(spans, d.start);
    if (i < 0) {
      process.stderr.write("error outside the values: TS" + d.code + "\n");
      process.exit(3);
    }
    failed.add(i);
  }
  rejected.forEach((c, i) => {
    if (failed.has(i)) return;
    const answer = answers[c.index];
    answer.accept = true;
    answer.removed = removedPaths[i];
    answer.asValue = true;
    answer.errors = [];
  });
}

function main() {
  let files = input.enumsAsValues ? enumsAsValues(input.files) : input.files;
  if (input.undefinedAsOptional) files = undefinedAsOptional(files);
  const { types, generic } = typeNames(files);
  if (input.mode === "list") {
    process.stdout.write(JSON.stringify({ types, generic, files, rewrites }));
    return;
  }
  const unknown = input.cases.filter((c) => !(c.type in types)).map((c) => c.type);
  if (unknown.length) {
    process.stderr.write(`unknown types: ${Array.from(new Set(unknown)).join(", ")}\n`);
    process.exit(2);
  }
  const answers = judge(files, input.cases, types, input.ignoreExcess);
  process.stdout.write(JSON.stringify({ answers, checked: checkedErrors }));
}

main();
