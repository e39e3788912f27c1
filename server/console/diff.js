// Line diff by longest common subsequence, rendered side by side (old left, new right).
import { h } from "./dom.js";

export function lineDiff(before, after) {
  const a = before.split("\n"), b = after.split("\n");
  const n = a.length, m = b.length;
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const rows = [];
  let i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) { rows.push(["same", i + 1, a[i], j + 1, b[j]]); i++; j++; }
    else if (i < n && (j === m || lcs[i + 1][j] >= lcs[i][j + 1])) { rows.push(["del", i + 1, a[i], null, ""]); i++; }
    else { rows.push(["add", null, "", j + 1, b[j]]); j++; }
  }
  return paired(rows);
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
