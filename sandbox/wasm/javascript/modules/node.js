// Node's modules that LiteBot's tool files require, as far as a sandboxed tool can have them:
// buffer (Buffer), crypto (hashes, HMAC, PBKDF2 and randomness, over crypto-js and the host's
// entropy), events (EventEmitter), http and https (requests over the host's egress guard, the
// response read whole), url (WHATWG URL, and the legacy parse/format/resolve). Evaluated as the
// body of a function of `quiver` (the prelude's bundling hooks), only for a file that names one.
"use strict";
const { provide, loaded, failRun, hostCall, querystring, asBytes, utf8Encode, utf8Decode, randomFill } = quiver;

// events ---------------------------------------------------------------------------------------
class EventEmitter {
  #listeners = new Map();
  on(name, listener) {
    if (typeof listener !== "function") throw new TypeError("the listener must be a function");
    const list = this.#listeners.get(name) || [];
    this.#listeners.set(name, list.concat([listener]));
    return this;
  }
  addListener(name, listener) { return this.on(name, listener); }
  once(name, listener) {
    const wrapped = (...args) => { this.off(name, wrapped); listener.apply(this, args); };
    wrapped.listener = listener;
    return this.on(name, wrapped);
  }
  off(name, listener) {
    const list = this.#listeners.get(name) || [];
    const at = list.findIndex((l) => l === listener || l.listener === listener);
    if (at >= 0) this.#listeners.set(name, list.slice(0, at).concat(list.slice(at + 1)));
    return this;
  }
  removeListener(name, listener) { return this.off(name, listener); }
  removeAllListeners(name) { if (name === undefined) this.#listeners.clear(); else this.#listeners.delete(name); return this; }
  listenerCount(name) { return (this.#listeners.get(name) || []).length; }
  emit(name, ...args) {
    const list = this.#listeners.get(name) || [];
    if (name === "error" && list.length === 0) {
      const error = args[0] instanceof Error ? args[0] : new Error(`Unhandled error. (${String(args[0])})`);
      failRun(error);
      throw error;
    }
    for (const listener of list) listener.apply(this, args);
    return list.length > 0;
  }
}
provide("events", Object.freeze({ EventEmitter, default: EventEmitter }));

// buffer ---------------------------------------------------------------------------------------
const ENCODINGS = ["utf8", "utf-8", "hex", "base64", "base64url", "latin1", "binary", "ascii", "ucs2", "ucs-2", "utf16le", "utf-16le"];
function encodingOf(name) {
  const lower = String(name === undefined || name === null ? "utf8" : name).toLowerCase();
  if (!ENCODINGS.includes(lower)) throw new TypeError(`Unknown encoding: ${name}`);
  return { "utf-8": "utf8", binary: "latin1", "ucs-2": "utf16le", ucs2: "utf16le", "utf-16le": "utf16le" }[lower] || lower;
}
function latin1Of(bytes) {
  let text = "";
  for (let at = 0; at < bytes.length; at += 4096) text += String.fromCharCode(...bytes.subarray(at, at + 4096));
  return text;
}
function decodeBase64(text) {
  const clean = String(text).replace(/[^A-Za-z0-9+/\-_]/g, "").replace(/-/g, "+").replace(/_/g, "/");
  const usable = clean.length % 4 === 1 ? clean.slice(0, -1) : clean; // as Node: a lone last char is dropped
  const raw = atob(usable + "=".repeat((4 - (usable.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}
function bytesFromString(text, encoding) {
  switch (encodingOf(encoding)) {
    case "utf8": return utf8Encode(text);
    case "hex": {
      const pairs = String(text).match(/^(?:[0-9a-fA-F]{2})*/)[0];
      return Uint8Array.from(pairs.match(/../g) || [], (p) => parseInt(p, 16));
    }
    case "base64": case "base64url": return decodeBase64(text);
    case "latin1": case "ascii": {
      const source = String(text); const out = new Uint8Array(source.length);
      for (let i = 0; i < source.length; i++) out[i] = source.charCodeAt(i) & 0xff;
      return out;
    }
    case "utf16le": {
      const source = String(text); const out = new Uint8Array(source.length * 2);
      for (let i = 0; i < source.length; i++) { const c = source.charCodeAt(i); out[2 * i] = c & 0xff; out[2 * i + 1] = c >> 8; }
      return out;
    }
  }
}
function stringFromBytes(bytes, encoding) {
  switch (encodingOf(encoding)) {
    case "utf8": return utf8Decode(bytes, false);
    case "hex": return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    case "base64": return btoa(latin1Of(bytes));
    case "base64url": return btoa(latin1Of(bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    case "latin1": return latin1Of(bytes);
    case "ascii": return latin1Of(bytes.map((b) => b & 0x7f));
    case "utf16le": {
      let text = "";
      for (let i = 0; i + 1 < bytes.length; i += 2) text += String.fromCharCode(bytes[i] | (bytes[i + 1] << 8));
      return text;
    }
  }
}

// Node's Buffer, as a Uint8Array with its encodings (the common part of the API)
class Buffer extends Uint8Array {
  static from(value, encodingOrOffset, length) {
    if (typeof value === "string") return Buffer.#of(bytesFromString(value, encodingOrOffset));
    if (value instanceof ArrayBuffer) {
      const offset = encodingOrOffset === undefined ? 0 : Number(encodingOrOffset);
      return new Buffer(value, offset, length === undefined ? value.byteLength - offset : Number(length));
    }
    if (ArrayBuffer.isView(value)) return Buffer.#of(new Uint8Array(asBytes(value)));
    if (value && value.type === "Buffer" && Array.isArray(value.data)) return Buffer.#of(Uint8Array.from(value.data));
    if (Array.isArray(value) || (value && typeof value.length === "number")) return Buffer.#of(Uint8Array.from(Array.from(value), (v) => Number(v) & 0xff));
    throw new TypeError("The first argument must be of type string, Buffer, ArrayBuffer, Array or an Array-like Object");
  }
  static #of(bytes) { const out = new Buffer(bytes.length); out.set(bytes); return out; }
  static alloc(size, fill, encoding) {
    const out = new Buffer(Number(size));
    if (fill !== undefined) out.fill(fill, 0, out.length, encoding);
    return out;
  }
  static allocUnsafe(size) { return new Buffer(Number(size)); }
  static byteLength(value, encoding) { return typeof value === "string" ? bytesFromString(value, encoding).length : asBytes(value).byteLength; }
  static isBuffer(value) { return value instanceof Buffer; }
  static isEncoding(name) { return ENCODINGS.includes(String(name).toLowerCase()); }
  static concat(list, total) {
    const size = total === undefined ? list.reduce((n, b) => n + b.length, 0) : Number(total);
    const out = Buffer.alloc(size);
    let at = 0;
    for (const part of list) { if (at >= size) break; const bytes = asBytes(part).subarray(0, size - at); out.set(bytes, at); at += bytes.length; }
    return out;
  }
  static compare(a, b) { return Buffer.from(a).compare(b); }
  fill(value, start = 0, end = this.length, encoding) {
    if (typeof value === "string") {
      const bytes = value.length ? bytesFromString(value, encoding) : new Uint8Array([0]);
      for (let i = start; i < end; i++) this[i] = bytes[(i - start) % bytes.length];
      return this;
    }
    return super.fill(Number(value) & 0xff, start, end);
  }
  toString(encoding, start = 0, end = this.length) { return stringFromBytes(this.subarray(start, end), encoding); }
  toJSON() { return { type: "Buffer", data: Array.from(this) }; }
  equals(other) { return this.compare(other) === 0; }
  compare(other) {
    const b = asBytes(other);
    for (let i = 0; i < Math.min(this.length, b.length); i++) if (this[i] !== b[i]) return this[i] < b[i] ? -1 : 1;
    return this.length === b.length ? 0 : this.length < b.length ? -1 : 1;
  }
  slice(start, end) { return this.subarray(start, end); } // as Node: a view, not a copy
  write(text, offset = 0, encoding) {
    const bytes = bytesFromString(text, typeof offset === "string" ? offset : encoding).subarray(0, this.length - (typeof offset === "number" ? offset : 0));
    this.set(bytes, typeof offset === "number" ? offset : 0);
    return bytes.length;
  }
  readUInt8(at = 0) { return this.#view().getUint8(at); }
  readUInt16BE(at = 0) { return this.#view().getUint16(at); }
  readUInt16LE(at = 0) { return this.#view().getUint16(at, true); }
  readUInt32BE(at = 0) { return this.#view().getUint32(at); }
  readUInt32LE(at = 0) { return this.#view().getUint32(at, true); }
  readInt32BE(at = 0) { return this.#view().getInt32(at); }
  readInt32LE(at = 0) { return this.#view().getInt32(at, true); }
  #view() { return new DataView(this.buffer, this.byteOffset, this.byteLength); }
}
Object.defineProperty(globalThis, "Buffer", { value: Buffer, writable: true, configurable: true, enumerable: false });
provide("buffer", Object.freeze({ Buffer }));

// crypto ---------------------------------------------------------------------------------------
const HASHES = { md5: "MD5", sha1: "SHA1", sha224: "SHA224", sha256: "SHA256", sha384: "SHA384", sha512: "SHA512", ripemd160: "RIPEMD160" };
function hasher(name) {
  const CryptoJS = loaded("crypto-js");
  const key = String(name).toLowerCase().replace(/^rsa-/, "").replace(/^sha-/, "sha");
  if (!CryptoJS || !Object.prototype.hasOwnProperty.call(HASHES, key)) throw new Error(`Digest method not supported: ${name} (offered: ${Object.keys(HASHES).join(", ")})`);
  return CryptoJS.algo[HASHES[key]];
}
function toWords(data, encoding) {
  const bytes = typeof data === "string" ? bytesFromString(data, encoding) : asBytes(data);
  return loaded("crypto-js").lib.WordArray.create(bytes);
}
function fromWords(words) {
  const out = Buffer.alloc(words.sigBytes);
  for (let i = 0; i < words.sigBytes; i++) out[i] = (words.words[i >>> 2] >>> (24 - (i % 4) * 8)) & 0xff;
  return out;
}
class Digest {
  #state; #done = false;
  constructor(state) { this.#state = state; }
  update(data, encoding) {
    if (this.#done) throw new Error("Digest already called");
    this.#state.update(toWords(data, encoding));
    return this;
  }
  digest(encoding) {
    if (this.#done) throw new Error("Digest already called");
    this.#done = true;
    const bytes = fromWords(this.#state.finalize());
    return encoding === undefined || encoding === "buffer" ? bytes : bytes.toString(encoding);
  }
}
function later(callback, ...args) { Promise.resolve().then(() => callback(...args)); }
function randomBytes(size, callback) {
  const n = Number(size);
  if (!Number.isInteger(n) || n < 0 || n > 2 ** 31 - 1) throw new RangeError(`The value of "size" is out of range: ${size}`);
  const out = Buffer.alloc(n);
  for (let at = 0; at < n; at += 65536) randomFill(out.subarray(at, at + 65536));
  if (typeof callback === "function") { later(callback, null, out); return undefined; }
  return out;
}
function randomInt(min, max, callback) {
  if (max === undefined || typeof max === "function") { callback = max; max = min; min = 0; }
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || max <= min || max - min > 2 ** 48) throw new RangeError("randomInt: min and max must be safe integers with 0 < max - min <= 2^48");
  const range = max - min, limit = 2 ** 48 - (2 ** 48 % range);
  let value;
  do { const b = randomFill(new Uint8Array(6)); value = b.reduce((n, byte) => n * 256 + byte, 0); } while (value >= limit);
  const result = min + (value % range);
  if (typeof callback === "function") { later(callback, null, result); return undefined; }
  return result;
}
function pbkdf2Sync(password, salt, iterations, keylen, digest) {
  const CryptoJS = loaded("crypto-js");
  const words = CryptoJS.PBKDF2(toWords(password), toWords(salt), { keySize: Math.ceil(Number(keylen) / 4), iterations: Number(iterations), hasher: hasher(digest) });
  return fromWords(words).subarray(0, Number(keylen));
}
provide("crypto", Object.freeze({
  createHash: (name) => new Digest(hasher(name).create()),
  createHmac: (name, key) => new Digest(loaded("crypto-js").algo.HMAC.create(hasher(name), toWords(key))),
  getHashes: () => Object.keys(HASHES),
  randomBytes, randomInt, pbkdf2Sync,
  pbkdf2(password, salt, iterations, keylen, digest, callback) { later(callback, null, pbkdf2Sync(password, salt, iterations, keylen, digest)); },
  randomUUID: () => globalThis.crypto.randomUUID(),
  getRandomValues: (array) => globalThis.crypto.getRandomValues(array),
  timingSafeEqual(a, b) {
    const x = asBytes(a), y = asBytes(b);
    if (x.byteLength !== y.byteLength) throw new RangeError("Input buffers must have the same byte length");
    let diff = 0;
    for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
    return diff === 0;
  },
  webcrypto: globalThis.crypto,
}));

// url ------------------------------------------------------------------------------------------
class Url {
  constructor() {
    Object.assign(this, { protocol: null, slashes: null, auth: null, host: null, port: null, hostname: null, hash: null, search: null, query: null, pathname: null, path: null, href: null });
  }
}
const SLASHED = ["http:", "https:", "ftp:", "gopher:", "file:", "ws:", "wss:"];
function urlParse(text, parseQuery = false, slashesDenoteHost = false) {
  if (typeof text !== "string") throw new TypeError(`The "url" argument must be of type string. Received ${typeof text}`);
  const out = new Url();
  let rest = text.trim();
  const hashAt = rest.indexOf("#");
  if (hashAt >= 0) { out.hash = rest.slice(hashAt); rest = rest.slice(0, hashAt); }
  const searchAt = rest.indexOf("?");
  if (searchAt >= 0) {
    out.search = rest.slice(searchAt);
    out.query = parseQuery ? querystring.parse(out.search.slice(1)) : out.search.slice(1);
    rest = rest.slice(0, searchAt);
  } else if (parseQuery) {
    out.query = {};
  }
  const scheme = /^[a-zA-Z][a-zA-Z0-9+.-]*:/.exec(rest);
  if (scheme) { out.protocol = scheme[0].toLowerCase(); rest = rest.slice(scheme[0].length); }
  const slashes = (out.protocol || slashesDenoteHost) && rest.startsWith("//");
  if (slashes) { out.slashes = true; rest = rest.slice(2); }
  // as Node: a host follows '//', or the scheme of a protocol that has no slashes (mailto:)
  if (out.protocol !== "javascript:" && (slashes || (out.protocol && !SLASHED.includes(out.protocol)))) {
    const end = rest.search(/[/\\]/);
    const authority = end < 0 ? rest : rest.slice(0, end);
    rest = end < 0 ? "" : rest.slice(end);
    const at = authority.lastIndexOf("@");
    if (at >= 0) out.auth = decodeURIComponent(authority.slice(0, at));
    const hostPart = at >= 0 ? authority.slice(at + 1) : authority;
    const port = /:(\d*)$/.exec(hostPart);
    out.port = port && port[1] ? port[1] : null;
    out.hostname = (port ? hostPart.slice(0, port.index) : hostPart).toLowerCase().replace(/^\[(.*)\]$/, "$1");
    out.host = out.hostname.includes(":") ? `[${out.hostname}]${out.port ? ":" + out.port : ""}` : out.hostname + (out.port ? ":" + out.port : "");
  }
  if (rest) out.pathname = rest;
  else if (out.slashes && SLASHED.includes(out.protocol)) out.pathname = "/";
  if (out.pathname !== null || out.search !== null) out.path = (out.pathname || "") + (out.search || "");
  out.href = urlFormat(out);
  return out;
}
function urlFormat(value) {
  if (typeof value === "string") value = urlParse(value);
  if (value instanceof URL) return value.href;
  const protocol = value.protocol ? (String(value.protocol).endsWith(":") ? value.protocol : value.protocol + ":") : "";
  const auth = value.auth ? encodeURIComponent(value.auth).replace(/%3A/i, ":") + "@" : "";
  let host = "";
  if (value.host) host = auth + value.host;
  else if (value.hostname) host = auth + (String(value.hostname).includes(":") ? `[${value.hostname}]` : value.hostname) + (value.port ? ":" + value.port : "");
  let pathname = value.pathname || "";
  let search = value.search || "";
  if (!search && value.query && typeof value.query === "object") {
    const text = querystring.stringify(value.query);
    if (text) search = "?" + text;
  }
  if (search && search[0] !== "?") search = "?" + search;
  let hash = value.hash || "";
  if (hash && hash[0] !== "#") hash = "#" + hash;
  const slashes = value.slashes || SLASHED.includes(protocol);
  let prefix = protocol;
  if (slashes && (host || protocol === "file:")) {
    prefix += "//" + host;
    if (pathname && pathname[0] !== "/") pathname = "/" + pathname;
  } else prefix += host;
  return prefix + pathname.replace(/[?#]/g, encodeURIComponent) + search.replace("#", "%23") + hash;
}
function urlResolve(from, to) {
  const base = new URL(String(from), "resolve://host/");
  const resolved = new URL(String(to), base);
  if (resolved.protocol === "resolve:") {
    const relative = resolved.pathname + resolved.search + resolved.hash;
    return /^[./]/.test(String(from)) || String(from).startsWith("/") ? relative : relative.replace(/^\//, "");
  }
  return resolved.href;
}
provide("url", Object.freeze({
  URL, URLSearchParams, Url, parse: urlParse, format: urlFormat, resolve: urlResolve,
  domainToASCII(domain) { try { return new URL(`http://${domain}`).hostname; } catch (_) { return ""; } },
}));

// http, https ----------------------------------------------------------------------------------
const STATUS_CODES = Object.freeze({
  100: "Continue", 101: "Switching Protocols", 200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information",
  204: "No Content", 205: "Reset Content", 206: "Partial Content", 300: "Multiple Choices", 301: "Moved Permanently", 302: "Found",
  303: "See Other", 304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized",
  402: "Payment Required", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 406: "Not Acceptable", 408: "Request Timeout",
  409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Payload Too Large", 415: "Unsupported Media Type",
  422: "Unprocessable Entity", 429: "Too Many Requests", 500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
  503: "Service Unavailable", 504: "Gateway Timeout",
});
const HOST_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

class IncomingMessage extends EventEmitter {
  #encoding = null;
  constructor(reply) {
    super();
    this.statusCode = reply.status;
    this.statusMessage = STATUS_CODES[reply.status] || "";
    this.headers = {};
    for (const [name, value] of Object.entries(reply.headers || {})) this.headers[name.toLowerCase()] = value;
    this.rawHeaders = Object.entries(this.headers).flat();
    this.complete = false;
    this.body = reply.text || "";
  }
  setEncoding(encoding) { this.#encoding = encodingOf(encoding); return this; }
  resume() { return this; }
  pause() { return this; }
  deliver() {
    if (this.body.length) {
      const bytes = Buffer.from(this.body, "utf8");
      this.emit("data", this.#encoding ? bytes.toString(this.#encoding) : bytes);
    }
    this.complete = true;
    this.emit("end");
    this.emit("close");
  }
}

class ClientRequest extends EventEmitter {
  #protocol; #options; #headers = {}; #chunks = []; #ended = false; #aborted = false;
  constructor(protocol, options, callback) {
    super();
    this.#protocol = protocol;
    this.#options = options;
    for (const [name, value] of Object.entries(options.headers || {})) this.#headers[name.toLowerCase()] = String(value);
    this.method = String(options.method || "GET").toUpperCase();
    this.path = options.path || "/";
    if (typeof callback === "function") this.once("response", callback);
  }
  setHeader(name, value) { this.#headers[String(name).toLowerCase()] = String(value); return this; }
  getHeader(name) { return this.#headers[String(name).toLowerCase()]; }
  removeHeader(name) { delete this.#headers[String(name).toLowerCase()]; }
  setTimeout(ms, callback) { this.#options.timeout = Number(ms); if (typeof callback === "function") this.once("timeout", callback); return this; }
  write(chunk, encoding, callback) {
    if (this.#ended) throw new Error("write after end");
    this.#chunks.push(typeof chunk === "string" ? Buffer.from(chunk, encoding) : Buffer.from(asBytes(chunk)));
    const done = typeof encoding === "function" ? encoding : callback;
    if (typeof done === "function") later(done);
    return true;
  }
  abort() { this.#aborted = true; }
  destroy(error) { this.#aborted = true; if (error) later(() => this.emit("error", error)); return this; }
  end(chunk, encoding, callback) {
    if (typeof chunk === "function") { callback = chunk; chunk = undefined; }
    if (chunk !== undefined && chunk !== null) this.write(chunk, encoding);
    if (this.#ended) return this;
    this.#ended = true;
    if (typeof callback === "function") later(callback);
    this.#send();
    return this;
  }
  #send() {
    const o = this.#options;
    if (!HOST_METHODS.includes(this.method)) {
      later(() => this.emit("error", new Error(`method ${this.method} is not offered (${HOST_METHODS.join(", ")})`)));
      return;
    }
    const host = o.hostname || String(o.host || "localhost").replace(/:\d+$/, "");
    const port = o.port ? `:${o.port}` : "";
    const url = `${this.#protocol}//${host.includes(":") ? `[${host}]` : host}${port}${this.path.startsWith("/") ? "" : "/"}${this.path}`;
    const headers = Object.assign({}, this.#headers);
    if (o.auth && !headers.authorization) headers.authorization = `Basic ${Buffer.from(String(o.auth)).toString("base64")}`;
    const args = { url, headers };
    if (o.timeout) args.timeout = Number(o.timeout) / 1000;
    if (this.#chunks.length) args.data = Buffer.concat(this.#chunks).toString("utf8");
    hostCall("http", this.method, args).then(
      (reply) => {
        if (this.#aborted) return;
        const response = new IncomingMessage(reply);
        this.emit("response", response);
        Promise.resolve().then(() => response.deliver());
      },
      (error) => {
        if (this.#aborted) return;
        if (/timed out/.test(error.message) && this.listenerCount("timeout")) this.emit("timeout");
        this.emit("error", error);
      },
    );
  }
}

function client(protocol) {
  function request(target, options, callback) {
    let settings;
    if (typeof target === "string" || target instanceof URL) {
      const url = new URL(String(target));
      if (url.protocol !== protocol) throw new TypeError(`Protocol "${url.protocol}" not supported. Expected "${protocol}"`);
      settings = { hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"), port: url.port, path: url.pathname + url.search, auth: url.username ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined };
      if (typeof options === "function") callback = options;
      else Object.assign(settings, options || {});
    } else {
      settings = Object.assign({}, target || {});
      callback = options;
    }
    if (settings.protocol && settings.protocol !== protocol) throw new TypeError(`Protocol "${settings.protocol}" not supported. Expected "${protocol}"`);
    return new ClientRequest(protocol, settings, callback);
  }
  function get(target, options, callback) {
    const req = request(target, options, callback);
    req.end();
    return req;
  }
  return Object.freeze({ request, get, STATUS_CODES, METHODS: HOST_METHODS.slice(), ClientRequest, IncomingMessage, Agent: class Agent {}, globalAgent: {} });
}
provide("http", client("http:"));
provide("https", client("https:"));
