// Line diff (Myers' O((n+m)·D) algorithm, D the number of lines changed), rendered side by side
// (old left, new right). The common head and tail are set aside first; past MAX_EDITS changed
// lines the middle is shown as replaced whole rather than searched.
import { h } from "./dom.js";

const MAX_EDITS = 1000;  // the search keeps ~MAX_EDITS² numbers: ~4 MB at most

export function lineDiff(before, after) {
  const a = before.split("\n"), b = after.split("\n");
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const rows = [];
  for (let i = 0; i < head; i++) rows.push(["same", i + 1, a[i], i + 1, b[i]]);
  const middle = edits(a.slice(head, a.length - tail), b.slice(head, b.length - tail), head);
  rows.push(...middle);
  for (let i = tail; i > 0; i--) rows.push(["same", a.length - i + 1, a[a.length - i], b.length - i + 1, b[b.length - i]]);
  return paired(grouped(rows));
}

// The edit script of a against b: rows of ["same"|"del"|"add", old line, old text, new line,
// new text] (line numbers from `shift` + 1).
function edits(a, b, shift) {
  const n = a.length, m = b.length, max = n + m, off = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace = [];  // trace[d]: v before step d, for k in [-d-1, d+1]
  for (let d = 0; d <= Math.min(max, MAX_EDITS); d++) {
    trace.push(v.slice(off - d - 1, off + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) { x++; y++; }
      v[off + k] = x;
      if (x >= n && y >= m) return backtrack(trace, a, b, d, shift);
    }
  }
  return [  // too many changes to search: the old lines out, the new ones in
    ...a.map((text, i) => ["del", shift + i + 1, text, null, ""]),
    ...b.map((text, j) => ["add", null, "", shift + j + 1, text]),
  ];
}

function backtrack(trace, a, b, last, shift) {
  const rows = [];
  let x = a.length, y = b.length;
  for (let d = last; d > 0; d--) {
    const before = trace[d], at = (k) => before[k + d + 1];
    const k = x - y;
    const back = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const px = at(back), py = px - back;
    while (x > px && y > py) { rows.push(["same", shift + x, a[x - 1], shift + y, b[y - 1]]); x--; y--; }
    if (x === px) rows.push(["add", null, "", shift + y, b[y - 1]]);
    else rows.push(["del", shift + x, a[x - 1], null, ""]);
    x = px; y = py;
  }
  while (x > 0 && y > 0) { rows.push(["same", shift + x, a[x - 1], shift + y, b[y - 1]]); x--; y--; }
  return rows.reverse();
}

// Within each run of changed rows, the removed lines first, then the added ones.
function grouped(rows) {
  const out = [];
  for (let k = 0; k < rows.length;) {
    if (rows[k][0] === "same") { out.push(rows[k++]); continue; }
    const run = [];
    while (k < rows.length && rows[k][0] !== "same") run.push(rows[k++]);
    out.push(...run.filter((r) => r[0] === "del"), ...run.filter((r) => r[0] === "add"));
  }
  return out;
}

// A run of removed lines followed by a run of added ones shares rows: old beside new.
function paired(rows) {
  const out = [];
  for (let k = 0; k < rows.length;) {
    if (rows[k][0] !== "del") { out.push(rows[k++]); continue; }
    const dels = [], adds = [];
    while (k < rows.length && rows[k][0] === "del") dels.push(rows[k++]);
    while (k < rows.length && rows[k][0] === "add") adds.push(rows[k++]);
    for (let i = 0; i < Math.max(dels.length, adds.length); i++) {
      const d = dels[i], a = adds[i];
      out.push([d && a ? "change" : d ? "del" : "add", d?.[1] ?? null, d?.[2] ?? "", a?.[3] ?? null, a?.[4] ?? ""]);
    }
  }
  return out;
}

export function sideBySide(before, after, leftTitle, rightTitle) {
  const rows = lineDiff(before, after);
  return h("table", { class: "diff" },
    h("caption", { class: "muted" }, `${leftTitle} (left) against ${rightTitle} (right): ${rows.filter((r) => r[0] !== "same").length} changed lines`),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "n" }, "#"), h("th", { scope: "col" }, leftTitle), h("th", { scope: "col", class: "n" }, "#"), h("th", { scope: "col" }, rightTitle))),
    h("tbody", {}, rows.map(([kind, ln, left, rn, right]) => h("tr", {},
      h("td", { class: "n" }, ln ?? ""), h("td", { class: ln && kind !== "same" ? "del" : null }, left),
      h("td", { class: "n" }, rn ?? ""), h("td", { class: rn && kind !== "same" ? "add" : null }, right)))));
}
