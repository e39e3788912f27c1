// A battery of what LiteBot's tool files use from the modules `require` offers, with results
// that do not depend on chance or time: run in Quiver and in Node, the two must agree exactly.
const crypto = require('crypto');
const url = require('url');
const querystring = require('querystring');
const Joi = require('joi');
const { v3, v5, validate, version, parse: uuidParse, NIL } = require('uuid');
const CryptoJS = require('crypto-js');
const { Buffer: Bytes } = require('buffer');

const TEXTS = ['', 'abc', 'héllo wörld', '日本語', '😀 emoji', 'a\u0000b', 'x'.repeat(200)];
const ALGORITHMS = ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512', 'ripemd160', 'SHA256', 'RSA-SHA256'];
const URLS = [
  'https://u:p@Example.com:8080/a/b?x=1&y=2#h', 'http://example.com', 'http://example.com/',
  '/relative/path?q=a+b', 'mailto:ann@example.com', 'http://[::1]:3000/x', 'HTTP://EXAMPLE.com/%7Efoo',
  'example.com/path', 'https://example.com?', 'https://example.com/#', 'https://user@host.org/p?a=1&a=2&b',
];
const BYTES = [[], [0x41], [0xc3, 0xa9], [0xe6, 0x97, 0xa5], [0xf0, 0x9f, 0x98, 0x80], [0xff], [0xc3], [0xe0, 0x80, 0x41],
  [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xef, 0xbb, 0xbf, 0x41], [0xc0, 0xaf], [0xe2, 0x82]];

const hex = (b) => Bytes.from(b).toString('hex');

module.exports = {
  name: 'parity',
  description: 'Node parity battery',
  execute: async () => {
    const out = {};
    out.hashes = ALGORITHMS.map((a) => TEXTS.map((t) => crypto.createHash(a).update(t).digest('hex')));
    out.hashBase64 = TEXTS.map((t) => crypto.createHash('sha256').update(t, 'utf8').digest('base64'));
    out.hashChunks = crypto.createHash('sha1').update('ab').update(Bytes.from('cd')).update(new Uint8Array([101])).digest('hex');
    out.hashBuffer = crypto.createHash('md5').update('x').digest().toJSON();
    out.hmac = ALGORITHMS.slice(0, 6).map((a) => TEXTS.map((t) => crypto.createHmac(a, 'secret key').update(t).digest('hex')));
    out.hmacBytesKey = crypto.createHmac('sha256', Bytes.from('00ff10', 'hex')).update('m').digest('base64url');
    out.pbkdf2 = [crypto.pbkdf2Sync('pw', 'salt', 1000, 32, 'sha256').toString('hex'), crypto.pbkdf2Sync('pw', 'salt', 10, 20, 'sha1').toString('hex'), crypto.pbkdf2Sync('pw', 'salt', 3, 7, 'sha512').toString('hex')];
    out.timingSafeEqual = [crypto.timingSafeEqual(Bytes.from('abc'), Bytes.from('abc')), crypto.timingSafeEqual(Bytes.from('abc'), Bytes.from('abd'))];
    try { crypto.timingSafeEqual(Bytes.from('a'), Bytes.from('ab')); out.tseLength = 'no error'; } catch (e) { out.tseLength = e instanceof RangeError; }
    out.hashNames = ['sha256', 'md5'].every((n) => crypto.getHashes().includes(n));

    out.buffers = TEXTS.map((t) => {
      const b = Bytes.from(t);
      return [b.length, Bytes.byteLength(t), b.toString('base64'), b.toString('base64url'), b.toString('hex'), b.toString('latin1'),
        Bytes.from(b.toString('base64'), 'base64').toString(), Bytes.from(t, 'latin1').toString('hex'), Bytes.from(t, 'utf16le').toString('hex'),
        Bytes.from(b.toString('hex'), 'hex').equals(b), b.toString('utf8', 1, 3)];
    });
    out.fromBase64 = ['aGVsbG8', 'aGVsbG8=', 'aGV sbG8=\n', '-_-_', 'aGVsbG8gd29ybGQ', 'a'].map((s) => [Bytes.from(s, 'base64').toString('hex'), Bytes.from(s, 'base64url').toString('hex')]);
    out.fromHex = ['00ff', '0g', 'abc', 'ABCD'].map((s) => Bytes.from(s, 'hex').toJSON().data);
    out.concat = [Bytes.concat([Bytes.from('ab'), Bytes.from([99, 100])]).toString(), Bytes.concat([Bytes.from('abc'), Bytes.from('def')], 4).toString(), Bytes.concat([]).length];
    out.alloc = [Bytes.alloc(4).toJSON().data, Bytes.alloc(5, 'ab').toString(), Bytes.alloc(3, 7).toJSON().data];
    out.misc = [Bytes.isBuffer(Bytes.from('a')), Bytes.isBuffer(new Uint8Array(1)), Bytes.isEncoding('hex'), Bytes.isEncoding('nope'),
      Bytes.compare(Bytes.from('a'), Bytes.from('b')), Bytes.from('hello').slice(1, 3).toString(), Bytes.from([1, 2, 3, 4]).readUInt32BE(0),
      Bytes.from([1, 2, 3, 4]).readUInt16LE(1), JSON.stringify(Bytes.from('hi')), `${Bytes.from('plain')}`, Bytes.from(Bytes.from('x').buffer.slice(0)).length > 0,
      Bytes.from(JSON.parse(JSON.stringify(Bytes.from('round')))).toString()];
    const written = Bytes.alloc(6); out.write = [written.write('héllo'), written.toString('hex')];

    out.urlParse = URLS.map((u) => [JSON.parse(JSON.stringify(url.parse(u))), JSON.parse(JSON.stringify(url.parse(u, true)))]);
    out.urlParseSlashes = JSON.parse(JSON.stringify(url.parse('//cdn.example.com/x.js', false, true)));
    out.urlFormat = [
      url.format({ protocol: 'https', hostname: 'a.com', pathname: '/x', query: { a: 1, b: 'c d' } }),
      url.format({ protocol: 'http:', host: 'a.com:81', pathname: 'no-slash', search: 'q=1', hash: 'top' }),
      url.format({ protocol: 'mailto:', pathname: 'ann@example.com' }),
      url.format(new URL('https://a.com/b?c=d')),
      ...URLS.map((u) => url.format(url.parse(u))),
    ];
    out.urlResolve = [['http://a.com/b/c', '../d'], ['http://a.com/b/c', '/e'], ['http://a.com/b/c', 'http://x.com/y'],
      ['/one/two/three', 'four'], ['http://example.com/', '/one'], ['http://example.com/one', '/two'], ['http://a.com/b/c', '?q=1'], ['http://a.com/b/', 'c/./d/../e']]
      .map(([from, to]) => url.resolve(from, to));
    out.whatwg = URLS.filter((u) => /^[a-z]+:/i.test(u)).map((u) => { const x = new URL(u); return [x.href, x.origin, x.protocol, x.host, x.hostname, x.port, x.pathname, x.search, x.hash, x.username, [...x.searchParams]]; });
    out.relativeUrl = [new URL('../x?y#z', 'http://a.com/b/c/d').href, new URL('//other.org/p', 'https://a.com').href];
    out.searchParams = (() => { const p = new URLSearchParams('a=1&b=x+y&a=%C3%A9'); p.append('c', 'd&e=f'); p.set('b', '2'); p.sort(); return [p.toString(), p.getAll('a'), p.has('z'), [...new URLSearchParams({ k: 'v w' })].join(';')]; })();
    out.invalidUrl = (() => { try { new URL('not a url'); return 'parsed'; } catch (e) { return e instanceof TypeError; } })();
    out.domainToASCII = [url.domainToASCII('español.com'), url.domainToASCII('EXAMPLE.org')];

    out.querystring = [
      querystring.stringify({ a: [1, 2], b: 'c d', e: '', f: null, g: undefined, h: true, i: { j: 1 }, 'k l': 'é&=' }),
      querystring.parse('a=1&a=2&b=c+d&e&f=%C3%A9&g=%ZZ&h=1=2&+k+=v'),
      querystring.stringify({ w: 'x' }, ';', ':'),
      querystring.parse('w:x;y:z', ';', ':'),
      querystring.escape('a b&c/d'), querystring.unescape('a%20b+c'),
    ];

    out.textEncoder = TEXTS.concat(['\ud800', 'a\udfffb']).map((t) => Array.from(new TextEncoder().encode(t)));
    out.textDecoder = BYTES.map((b) => new TextDecoder().decode(new Uint8Array(b)));
    out.textDecoderBOM = [new TextDecoder('utf-8', { ignoreBOM: true }).decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x41])).length, new TextDecoder().encoding];
    out.textDecoderFatal = (() => { try { new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array([0xff])); return 'decoded'; } catch (e) { return e instanceof TypeError; } })();
    out.encodeInto = (() => { const target = new Uint8Array(5); return [new TextEncoder().encodeInto('aé日x', target), Array.from(target)]; })();

    const person = Joi.object({
      name: Joi.string().min(2).max(30).required(),
      email: Joi.string().email().required(),
      age: Joi.number().integer().min(18).max(120),
      phone: Joi.string().pattern(/^\+?[0-9 ]{7,15}$/),
      plan: Joi.string().valid('basic', 'pro').default('basic'),
      website: Joi.string().uri(),
      tags: Joi.array().items(Joi.string()).max(3),
      when: Joi.date().iso(),
    });
    const cases = [
      { name: 'Ann', email: 'ann@example.com', age: '42' },
      { name: 'A', email: 'ann@example', age: 12, phone: 'call me', plan: 'gold', website: 'nope', tags: ['a', 'b', 'c', 'd'], when: 'soon', extra: 1 },
      { email: 'ann@example.co.uk', website: 'https://example.com/x', when: '2024-05-06T07:08:09Z' },
      { name: 'Bob', email: 'bob@example.invalidtld' },
    ];
    out.joi = cases.map((c) => { const r = person.validate(c, { abortEarly: false, convert: true }); return [r.error ? r.error.details.map((d) => [d.message, d.path, d.type]) : null, r.error ? null : JSON.parse(JSON.stringify(r.value))]; });
    out.joiAttempt = (() => { try { Joi.attempt('x', Joi.number()); return 'passed'; } catch (e) { return [e.name, e.message]; } })();
    out.joiGuid = Joi.string().guid().validate('be3f5e9c-2c8e-42db-a1ac-c7a572dcb88f').error === undefined;

    out.uuid = [v5('hello', v5.DNS), v5('https://example.com', v5.URL), v3('hello', v3.DNS), validate('be3f5e9c-2c8e-42db-a1ac-c7a572dcb88f'), validate('nope'),
      version('9342d47a-1bab-5709-9869-c840b2eac501'), Array.from(uuidParse('9342d47a-1bab-5709-9869-c840b2eac501')), NIL];

    const key = CryptoJS.enc.Hex.parse('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f');
    const iv = CryptoJS.enc.Hex.parse('0f0e0d0c0b0a09080706050403020100');
    const sealed = CryptoJS.AES.encrypt('attack at dawn', key, { iv }).toString();
    out.cryptoJs = [CryptoJS.SHA256('abc').toString(), CryptoJS.MD5('abc').toString(CryptoJS.enc.Base64), CryptoJS.HmacSHA512('m', 'k').toString(),
      sealed, CryptoJS.AES.decrypt(sealed, key, { iv }).toString(CryptoJS.enc.Utf8), CryptoJS.PBKDF2('pw', 'salt', { keySize: 4, iterations: 10 }).toString(),
      CryptoJS.enc.Base64.stringify(CryptoJS.enc.Utf8.parse('héllo')), CryptoJS.SHA3('abc', { outputLength: 256 }).toString()];
    return out;
  },
};
