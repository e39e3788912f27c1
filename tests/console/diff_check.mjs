globalThis.document = undefined;
const { lineDiff } = await import(new URL("../../server/console/diff.js", import.meta.url));
function lcs(a, b) { const n=a.length,m=b.length; const t=Array.from({length:n+1},()=>new Int32Array(m+1)); for(let i=n-1;i>=0;i--)for(let j=m-1;j>=0;j--)t[i][j]=a[i]===b[j]?t[i+1][j+1]+1:Math.max(t[i+1][j],t[i][j+1]); return t[0][0]; }
let seed = 1; const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
for (let trial = 0; trial < 300; trial++) {
  const a = Array.from({length: Math.floor(rnd()*30)}, () => "l" + Math.floor(rnd()*6));
  const b = a.filter(() => rnd() > 0.3).concat(Array.from({length: Math.floor(rnd()*5)}, () => "l" + Math.floor(rnd()*6)));
  b.sort(() => rnd() - 0.8);
  const rows = lineDiff(a.join("\n"), b.join("\n"));
  const same = rows.filter(r => r[0] === "same").length;
  const left = rows.filter(r => r[1] !== null).map(r => r[2]); const right = rows.filter(r => r[3] !== null).map(r => r[4]);
  if (same !== lcs(a.join("\n").split("\n"), b.join("\n").split("\n"))) throw new Error("not minimal " + trial);
  if (left.join("\n") !== a.join("\n") || right.join("\n") !== b.join("\n")) throw new Error("not the texts " + trial);
}
const big = Array.from({length: 6000}, (_, i) => `line ${i} of the tool`);
const edited = big.slice(); edited[10] = "changed"; edited.splice(3000, 5); edited.push("new end");
const t = performance.now(); const rows = lineDiff(big.join("\n"), edited.join("\n"));
console.log("ok", rows.length, (performance.now() - t).toFixed(1), "ms");
// wholly different texts: past the search's bound, replaced whole (and still both texts)
const other = Array.from({length: 6000}, (_, i) => `other ${i}`);
const replaced = lineDiff(big.join("\n"), other.join("\n"));
if (replaced.filter(r => r[0] === "same").length !== 0 || replaced.length !== 6000) throw new Error("not replaced whole");
console.log("replaced", replaced.length);
