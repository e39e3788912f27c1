// A code editor: a plain <textarea> (native editing, undo, selection, screen readers) over a
// highlighted copy of its text. Errors show at their line: the gutter marks the line and the
// message sits at the line's end. Tab indents; Escape, then Tab, moves focus on.
import { h } from "./dom.js";

const PY_KEYWORDS = new Set("False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case".split(" "));
const PY_BUILTINS = new Set("abs all any bool dict enumerate filter float int isinstance len list map max min print range repr round set sorted str sum tuple zip params context".split(" "));
const JS_KEYWORDS = new Set("async await break case catch class const continue default delete do else export extends false finally for function if import in instanceof let new null of return super switch this throw true try typeof undefined var void while yield".split(" "));
const JS_BUILTINS = new Set("Array Boolean Date Error JSON Math Number Object Promise String console context params".split(" "));

const TOKENS = {
  python: /(#[^\n]*)|([rRbBfFuU]{0,2}(?:"""[\s\S]*?(?:"""|$)|'''[\s\S]*?(?:'''|$)|"(?:\\.|[^"\\\n])*"?|'(?:\\.|[^'\\\n])*'?))|(@[A-Za-z_][\w.]*)|(\b\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?\b)|([A-Za-z_]\w*)/g,
  javascript: /(\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$))|(`(?:\\.|[^`\\])*`?|"(?:\\.|[^"\\\n])*"?|'(?:\\.|[^'\\\n])*'?)|(@@never)|(\b\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?\b)|([A-Za-z_$][\w$]*)/g,
};

const escape = (text) => text.replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c]);

// Highlighted HTML of `source` (every piece of it escaped).
export function highlight(source, language) {
  const pattern = TOKENS[language] || TOKENS.python;
  const keywords = language === "javascript" ? JS_KEYWORDS : PY_KEYWORDS;
  const builtins = language === "javascript" ? JS_BUILTINS : PY_BUILTINS;
  let out = "", last = 0, previous = "";
  pattern.lastIndex = 0;
  for (let m; (m = pattern.exec(source));) {
    out += escape(source.slice(last, m.index));
    const [text, comment, string, decorator, number, word] = m;
    let cls = null;
    if (comment) cls = "t-com";
    else if (string) cls = "t-str";
    else if (decorator) cls = "t-dec";
    else if (number) cls = "t-num";
    else if (word) cls = keywords.has(word) ? "t-kw" : (previous === "def" || previous === "function" || previous === "class") ? "t-fn" : builtins.has(word) ? "t-bi" : null;
    out += cls ? `<span class="${cls}">${escape(text)}</span>` : escape(text);
    if (word) previous = word;
    last = m.index + text.length;
  }
  return out + escape(source.slice(last));
}

export function createEditor({ value = "", language = "python", label = "Source" } = {}) {
  const textarea = h("textarea", { spellcheck: "false", autocapitalize: "off", autocomplete: "off", "aria-label": label, "aria-describedby": "editor-help" });
  textarea.value = value;
  const pre = h("pre", { "aria-hidden": "true" });
  const gutter = h("div", { class: "gutter", "aria-hidden": "true" });
  const root = h("div", { class: "editor" }, gutter, h("div", { class: "code" }, pre, textarea));
  const help = h("p", { id: "editor-help", class: "muted" }, "Tab indents; press Escape, then Tab, to leave the editor.");
  let problems = [], escaped = false;

  function render() {
    const lines = highlight(textarea.value, language).split("\n");
    const byLine = new Map();
    for (const p of problems) if (p.line) byLine.set(p.line, [...(byLine.get(p.line) || []), p.message]);
    pre.innerHTML = lines.map((html, i) => {
      const notes = byLine.get(i + 1);
      if (!notes) return html;
      return `<span class="errline">${html}</span>    <span class="note">⚠ ${escape(notes.join("; "))}</span>`;
    }).join("\n") + "\n";
    gutter.replaceChildren(...lines.map((_, i) => h("div", { class: byLine.has(i + 1) ? "err" : null }, String(i + 1))));
    sync();
  }
  function sync() {
    pre.scrollTop = textarea.scrollTop;
    pre.scrollLeft = textarea.scrollLeft;
    gutter.scrollTop = textarea.scrollTop;
  }
  textarea.addEventListener("input", () => { problems = []; render(); });
  textarea.addEventListener("scroll", sync);
  textarea.addEventListener("keydown", (event) => {
    if (event.key === "Escape") { escaped = true; return; }
    if (event.key === "Tab" && !escaped && !event.shiftKey) {
      event.preventDefault();
      document.execCommand("insertText", false, "    ");  // keeps the native undo stack
    }
    escaped = false;
  });
  gutter.style.paddingBottom = "40px";
  render();
  return {
    element: h("div", {}, root, help),
    textarea,
    get value() { return textarea.value; },
    set value(text) { textarea.value = text; problems = []; render(); },
    set language(name) { language = name; render(); },
    showProblems(list) { problems = list; render(); },
    goToLine(line) {
      const lines = textarea.value.split("\n");
      const start = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
      textarea.focus();
      textarea.setSelectionRange(start, start + (lines[line - 1] || "").length);
      textarea.scrollTop = Math.max(0, (line - 5) * 19);
      sync();
    },
  };
}
