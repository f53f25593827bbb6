// runestone explain: the viewer (src/cli/explain.rs). Reads the page's
// data (the `--trace json` documents, schema
// proofs-notes/derivation.schema.json; the program; the rules; the stepper)
// and renders it. Nodes are built when their parent is first opened, so a
// derivation of tens of thousands of nodes opens at once.
"use strict";

const data = JSON.parse(document.getElementById("explain-data").textContent);
const sourceBytes = new TextEncoder().encode(data.source);
const utf8 = new TextDecoder();

function make(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (key === "class") element.className = value;
    else element.setAttribute(key, value);
  }
  for (const child of children) {
    if (child !== null && child !== undefined) element.append(child);
  }
  return element;
}

// ---- layout ----------------------------------------------------------------

const searchInput = make("input", { id: "search", type: "search", placeholder: "rule id, e.g. ICFP18 rule 29" });
const searchCount = make("span", { id: "search-count" });
const searchNext = make("button", { id: "search-next", type: "button" }, "next");
document.body.append(
  make("header", {},
    make("h1", {}, "runestone explain: ", make("span", { class: "file" }, data.file)),
    make("label", {}, "Search by rule: ", searchInput), searchCount, searchNext));
const trees = make("section", { id: "trees" });
const sourceText = make("pre", { id: "source" });
sourceText.textContent = data.source;
document.body.append(make("main", {}, trees,
  make("aside", { id: "source-pane" }, make("h2", {}, "Source: " + data.file), sourceText)));

// ---- the derivation trees ----------------------------------------------------

const allNodes = [];
function prepare(node, parent, document_) {
  node.index = allNodes.length;
  node.parent = parent;
  node.document = document_;
  allNodes.push(node);
  for (const premise of node.premises) prepare(premise, node, document_);
}
data.documents.forEach((document_) => document_.roots.forEach((root) => prepare(root, null, document_)));

function ruleAnchor(rule) {
  return "rule-" + rule.replace(/[^A-Za-z0-9]+/g, "-");
}

const elements = new Map();

function summaryOf(node) {
  const summary = make("summary", node.kind === "phase" ? { class: "phase" } : {});
  if (node.rule) {
    const entry = data.rules[node.rule];
    summary.append(make("a", { class: "rule", href: "#" + ruleAnchor(node.rule), title: entry ? entry.what : "" }, node.rule));
  }
  summary.append(make("span", { class: "judgment" }, node.judgment || (node.rule ? "" : "(no rule applied)")));
  if (node.conclusion) summary.append(make("span", { class: "conclusion" }, "⟹ " + node.conclusion));
  if (node.span) summary.append(make("span", { class: "location" }, node.span.file + ":" + node.span.line + ":" + node.span.column));
  if (node.premises.length > 0) summary.append(make("span", { class: "count" }, "(" + node.premises.length + ")"));
  if (node.failed_premise) summary.append(make("span", { class: "badge failed" }, "premise " + node.failed_premise + " failed"));
  if (node.truncated) summary.append(make("span", { class: "badge truncated" }, "truncated"));
  summary.addEventListener("mouseenter", () => highlight(node.span));
  summary.addEventListener("mouseleave", () => highlight(null));
  return summary;
}

function element(node) {
  let details = elements.get(node.index);
  if (details) return details;
  details = make("details", { class: "node", "data-rule": node.rule || "", "data-node": String(node.index) });
  if (node.premises.length === 0) details.classList.add("leaf");
  details.append(summaryOf(node));
  details.addEventListener("toggle", () => { if (details.open) materialise(node); });
  elements.set(node.index, details);
  return details;
}

function materialise(node) {
  const details = element(node);
  if (details.dataset.filled) return;
  details.dataset.filled = "1";
  const premises = make("div", { class: "premises" });
  for (const premise of node.premises) premises.append(element(premise));
  details.append(premises);
}

// Opens every ancestor of `node` (building them) and `node` itself.
function reveal(node) {
  const path = [];
  for (let at = node; at; at = at.parent) path.unshift(at);
  for (const at of path) {
    materialise(at);
    element(at).open = true;
  }
  return element(node);
}

const titles = {
  check: "ICFP'18: elaboration, static interpretation, Proposition 6.1 (runestone check)",
  defunc: "TFP'18: typing, uniqueness, defunctionalisation, Theorem 1 (runestone defunc)",
  run: "TFP'18: the reference's run (runestone run --backend reference)",
  nested: "Leshchinskiy: λP → λC → λA, both evaluations, the thesis' theorems (runestone nested --quick)",
};

for (const document_ of data.documents) {
  const outcome = document_.outcome;
  const section = make("section", { class: "document", "data-command": document_.command });
  section.append(make("h2", {}, titles[document_.command] || document_.command, " ",
    make("span", { class: "verdict " + outcome.verdict }, outcome.verdict)));
  if (document_.output) section.append(make("pre", { class: "output" }, document_.output));
  for (const root of document_.roots) section.append(element(root));
  document_.section = section;
  trees.append(section);
}

// ---- a failed premise, in place ---------------------------------------------

function codeMatches(rule, code) {
  return rule && code && (rule === code || rule.endsWith(" " + code));
}

function failedNode(document_) {
  const outcome = document_.outcome;
  const nodes = allNodes.filter((node) => node.document === document_);
  const premise = nodes.find((node) => node.failed_premise);
  if (premise) return premise;
  const byCode = nodes.filter((node) => codeMatches(node.rule, outcome.code));
  const atSpan = byCode.filter((node) => node.span && outcome.span && node.span.start === outcome.span.start);
  if (atSpan.length > 0) return atSpan[atSpan.length - 1];
  if (byCode.length > 0) return byCode[byCode.length - 1];
  return null;
}

for (const document_ of data.documents) {
  const outcome = document_.outcome;
  if (outcome.verdict === "accepted") continue;
  let text = "error";
  if (outcome.code) text += "[" + outcome.code + "]";
  text += ": " + (outcome.message || outcome.verdict);
  if (outcome.span) text += "\n  at " + outcome.span.file + ":" + outcome.span.line + ":" + outcome.span.column;
  const diagnostic = make("div", { class: "diagnostic" }, text);
  const node = failedNode(document_);
  if (node) {
    const details = reveal(node);
    details.classList.add("failed");
    details.querySelector(":scope > summary").after(diagnostic);
  } else {
    document_.section.querySelector("h2").after(diagnostic);
  }
}

// ---- the source pane ----------------------------------------------------------

function highlight(span) {
  sourceText.textContent = "";
  if (!span || span.file !== data.file || span.end > sourceBytes.length) {
    sourceText.textContent = data.source;
    return;
  }
  const before = utf8.decode(sourceBytes.subarray(0, span.start));
  const inside = utf8.decode(sourceBytes.subarray(span.start, span.end));
  const after = utf8.decode(sourceBytes.subarray(span.end));
  const mark = make("mark", {}, inside);
  sourceText.append(before, mark, after);
  mark.scrollIntoView({ block: "nearest" });
}

// ---- search by rule id ---------------------------------------------------------

const SHOWN_MATCHES = 200;
let matches = [];
let current = -1;

function search(query) {
  for (const details of document.querySelectorAll("details.node.match, details.node.current")) {
    details.classList.remove("match", "current");
  }
  matches = [];
  current = -1;
  query = query.trim().toLowerCase();
  if (query === "") {
    searchCount.textContent = "";
    return;
  }
  const exact = allNodes.filter((node) => node.rule && node.rule.toLowerCase() === query);
  matches = exact.length > 0 ? exact
    : allNodes.filter((node) => node.rule && node.rule.toLowerCase().includes(query));
  for (const node of matches.slice(0, SHOWN_MATCHES)) reveal(node).classList.add("match");
  searchCount.textContent = matches.length + (matches.length === 1 ? " node" : " nodes")
    + (matches.length > SHOWN_MATCHES ? " (the first " + SHOWN_MATCHES + " opened)" : "");
  if (matches.length > 0) focusMatch(0);
}

function focusMatch(position) {
  if (current >= 0) element(matches[current]).classList.remove("current");
  current = position;
  const details = reveal(matches[current]);
  details.classList.add("current");
  details.scrollIntoView({ block: "center" });
}

searchInput.addEventListener("input", () => search(searchInput.value));
searchNext.addEventListener("click", () => {
  if (matches.length > 0) focusMatch((current + 1) % Math.min(matches.length, SHOWN_MATCHES));
});

// ---- the stepper: both sides of Theorem 6.37 -------------------------------------

const stepperPositions = {};

function endText(sequence) {
  switch (sequence.end) {
    case "value": return "a value (WHNF) after " + sequence.steps.length + " steps";
    case "bottom": return "⊥ after " + sequence.steps.length + " steps: " + sequence.reason;
    case "unknown": return "stopped after " + sequence.steps.length + " steps, no verdict: " + sequence.reason;
    default: return "the stepper's limit of " + sequence.steps.length + " steps (runestone nested evaluates further)";
  }
}

function stepperSide(key, title) {
  const sequence = data.stepper[key];
  const position = make("span", { class: "position" });
  const rules = make("div", { class: "rules" });
  const term = make("pre", { class: "term" });
  const show = (index) => {
    index = Math.max(0, Math.min(sequence.steps.length, index));
    stepperPositions[key] = index;
    position.textContent = "step " + index + " / " + sequence.steps.length;
    const reduction = index === 0 ? null : sequence.steps[index - 1];
    rules.textContent = reduction ? "→ by " + reduction.rules.join(", ") : "the term before any step";
    const text = reduction ? reduction.term : sequence.initial;
    term.textContent = text === null ? "(longer than the stepper prints)" : text;
  };
  const button = (label, name, move) => {
    const b = make("button", { type: "button", "data-move": name }, label);
    b.addEventListener("click", () => show(move(stepperPositions[key])));
    return b;
  };
  const side = make("div", { class: "side", "data-side": key },
    make("h3", {}, title),
    make("div", { class: "controls" },
      button("first", "first", () => 0),
      button("◀", "previous", (at) => at - 1),
      position,
      button("▶", "next", (at) => at + 1),
      button("last", "last", () => sequence.steps.length)),
    rules, term, make("div", { class: "end" }, "ends in " + endText(sequence)));
  side.show = show;
  show(0);
  return side;
}

let stepperSides = [];
if (data.stepper) {
  const section = make("section", { id: "stepper" },
    make("h2", {}, "Stepper: both sides of Theorem 6.37 (the small-step relation of Fig. 6.3)"));
  stepperSides = [stepperSide("lambda_c", "λC: e"), stepperSide("lambda_a", "λA: V[e]")];
  const both = make("div", { class: "controls" });
  for (const [label, delta] of [["◀ both", -1], ["both ▶", 1]]) {
    const b = make("button", { type: "button" }, label);
    b.addEventListener("click", () => {
      stepperSides.forEach((side, i) => side.show(stepperPositions[i === 0 ? "lambda_c" : "lambda_a"] + delta));
    });
    both.append(b);
  }
  section.append(both, make("div", { class: "sides" }, ...stepperSides));
  document.body.append(section);
}

// ---- the rules ---------------------------------------------------------------------

const ruleList = make("dl");
for (const id of Object.keys(data.rules).sort()) {
  const entry = data.rules[id];
  const paper = data.papers[entry.paper];
  const where = [];
  if (paper) where.push(paper.cite);
  if (entry.figure) where.push(entry.figure);
  where.push("proofs-notes/rules.toml:" + entry.line);
  if (paper) where.push("../shared/papers/" + paper.file);
  ruleList.append(make("dt", { id: ruleAnchor(id) }, id),
    make("dd", {}, entry.what, make("br"), make("span", { class: "where" }, where.join(" · "))));
}
document.body.append(make("section", { id: "rules" }, make("h2", {}, "Rules (proofs-notes/rules.toml)"), ruleList));

// ---- the address: #search=ID, #step=C,A ------------------------------------------------

function followAddress() {
  const hash = decodeURIComponent(location.hash.slice(1));
  if (hash.startsWith("search=")) {
    searchInput.value = hash.slice("search=".length);
    search(searchInput.value);
  } else if (hash.startsWith("step=") && stepperSides.length === 2) {
    const [c, a] = hash.slice("step=".length).split(",").map(Number);
    stepperSides[0].show(c || 0);
    stepperSides[1].show(a || 0);
  }
}
window.addEventListener("hashchange", followAddress);
followAddress();
