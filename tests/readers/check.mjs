// check.mjs — the Parquet and Arrow IPC files simdsv writes, judged by real
// readers: DuckDB (read_parquet), Polars (readParquet, readIPC,
// readIPCStream) and Arrow JS (tableFromIPC; uncompressed IPC only: Arrow JS
// decompresses only with a codec registered from yet another package).
//
// The truth is what simdsv itself reads from the CSV: `simdsv schema` for
// the column names and types, `simdsv convert --to jsonl` for every value.
// Each reader must give the same names, types, row count, null counts and
// values (int64 and timestamps exactly, as decimal text; doubles bit for bit
// but NaN; dates as day numbers).
//
// usage: node check.mjs SIMDSV GROUP [DIR]
//   GROUP: types | rowgroups | big | real | conformance
import { DuckDBInstance } from '@duckdb/node-api';
import pl from 'nodejs-polars';
import { tableFromIPC } from 'apache-arrow';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [simdsv, group, dataDir] = process.argv.slice(2);
if (!simdsv || !group) {
  console.error('usage: node check.mjs SIMDSV GROUP [DIR]');
  process.exit(2);
}
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'simdsv-readers-'));
process.on('exit', () => fs.rmSync(work, { recursive: true, force: true }));
const duck = await (await DuckDBInstance.create(':memory:')).connect();
let checked = 0;
let failures = 0;

function fail(what, msg) {
  failures++;
  if (failures <= 30) console.error(`FAIL ${what}: ${msg}`);
}

// ------------------------------------------------------------------ truth

// A JSON line of simdsv's jsonl: a flat object of scalars, numbers kept as
// their text (int64 past 2^53 must not go through a double).
function parseLine(line) {
  const out = [];
  let i = 1;
  const str = () => {
    let s = '';
    i++; // opening quote
    for (;;) {
      const c = line[i++];
      if (c === '"') return s;
      if (c !== '\\') { s += c; continue; }
      const e = line[i++];
      if (e === 'u') { s += String.fromCharCode(parseInt(line.slice(i, i + 4), 16)); i += 4; }
      else s += { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' }[e] ?? e;
    }
  };
  while (line[i] !== '}') {
    const key = str();
    i++; // colon
    let value;
    if (line[i] === '"') value = { s: str() };
    else {
      const m = /^[^,}]+/.exec(line.slice(i))[0];
      i += m.length;
      value = m === 'null' ? null : { raw: m };
    }
    out.push([key, value]);
    if (line[i] === ',') i++;
  }
  return out;
}

function daysOf(y, m, d) {
  const t = new Date(0);
  t.setUTCFullYear(y, m - 1, d);
  return Math.round(t.getTime() / 86400000);
}

function canonicalDouble(x) {
  if (Number.isNaN(x)) return 'NaN';
  if (Object.is(x, -0)) return '-0';
  return String(x);
}

// The canonical text of a truth value of a type.
function truthValue(type, v) {
  if (v === null) return null;
  switch (type) {
    case 'int64': return v.raw;
    case 'bool': return v.raw;
    case 'float64': return canonicalDouble(v.s !== undefined ? Number(v.s) : Number(v.raw));
    case 'date': {
      const m = /^(-?\d+)-(\d\d)-(\d\d)$/.exec(v.s);
      return String(daysOf(+m[1], +m[2], +m[3]));
    }
    case 'timestamp': {
      const m = /^(-?\d+)-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{6}))?Z?$/.exec(v.s);
      const secs = BigInt(daysOf(+m[1], +m[2], +m[3])) * 86400n + BigInt(+m[4] * 3600 + +m[5] * 60 + +m[6]);
      return String(secs * 1000000n + BigInt(m[7] ?? 0));
    }
    default: return v.s;
  }
}

const TYPES = 'null|bool|int64|float64|date|timestamp|string';

function truthOf(csv, opts, input) {
  const run = (args) => spawnSync(simdsv, args, { input, maxBuffer: 1 << 30, encoding: 'utf8' });
  const schema = run(['schema', ...opts, input ? '-' : csv]);
  const jsonl = run(['convert', '--to', 'jsonl', ...opts, input ? '-' : csv]);
  if (schema.status !== 0 || jsonl.status !== 0) return null;
  // "  N  NAME<pad>  TYPE  reason" per column (a name may hold a line break).
  const re = new RegExp(`^ *(\\d+)  ([\\s\\S]*?) *  (${TYPES})  `, 'gm');
  const cols = [];
  for (const m of schema.stdout.slice(schema.stdout.indexOf('\n') + 1).matchAll(re))
    if (+m[1] === cols.length + 1) cols.push({ name: m[2], type: m[3] });
  const lines = jsonl.stdout.split('\n').filter((l) => l);
  const values = cols.map(() => []);
  for (const line of lines) {
    const row = parseLine(line);
    row.forEach(([, v], j) => values[j].push(truthValue(cols[j].type, v)));
  }
  // Exact names: the keys of a row, or else the header record of --to csv
  // (the schema's text cannot show trailing blanks).
  if (lines.length) parseLine(lines[0]).forEach(([k], j) => { cols[j].name = k; });
  else if (cols.length && !opts.includes('--columns')) {
    const header = run(['convert', '--to', 'csv', '--output-delimiter', '\t', ...opts, input ? '-' : csv]);
    uniqueNames(csvRecord(header.stdout, '\t')).forEach((k, j) => { if (cols[j]) cols[j].name = k; });
  }
  return { cols, values, rows: lines.length };
}

// A typed read's names (the CSV output keeps the file's): '' is column_N, a
// repeated name takes the first _2, _3, ... that no name of the file has.
function uniqueNames(names) {
  const given = new Set(names.filter((n) => n !== ''));
  const taken = new Set();
  return names.map((name, i) => {
    const generated = name === '';
    let base = generated ? `column_${i + 1}` : name;
    if (taken.has(base) || (generated && given.has(base))) {
      let k = 2;
      while (given.has(`${base}_${k}`) || taken.has(`${base}_${k}`)) k++;
      base = `${base}_${k}`;
    }
    taken.add(base);
    return base;
  });
}

// The first record of simdsv's CSV output (minimal RFC 4180 quoting).
function csvRecord(text, delimiter) {
  const fields = [];
  let i = 0;
  for (;;) {
    let value = '';
    if (text[i] === '"') {
      for (i++; ; i++) {
        if (text[i] === '"' && text[i + 1] === '"') { value += '"'; i++; }
        else if (text[i] === '"' || i >= text.length) { i++; break; }
        else value += text[i];
      }
    } else {
      while (i < text.length && text[i] !== delimiter && text[i] !== '\n') value += text[i++];
    }
    fields.push(value);
    if (text[i] !== delimiter) return fields;
    i++;
  }
}

// ---------------------------------------------------------------- readers

function typeOf(reader, t) {
  const s = String(t);
  const table = [
    [/^(BIGINT|Int64|DataType\(Int64\))$/, 'int64'],
    [/^(DOUBLE|Float64|DataType\(Float64\))$/, 'float64'],
    [/^(VARCHAR|Utf8|LargeUtf8|DataType\((String|Utf8)\))$/, 'string'],
    [/^(BOOLEAN|Bool|DataType\(Bool\))$/, 'bool'],
    [/^(DATE|Date32<DAY>|DataType\(Date\))$/, 'date'],
    // UTC when the CSV's timestamps had offsets, naive (wall clock) when they had none
    [/^(TIMESTAMP WITH TIME ZONE|TIMESTAMP|Timestamp<MICROSECOND(, UTC)?>|DataType\(Datetime\(us(,\s*(UTC)?)?\)\))$/, 'timestamp'],
    [/^(Null|DataType\(Null\))$/, 'null'],
  ];
  for (const [re, name] of table) if (re.test(s)) return name;
  return `${reader}:${s}`;
}

function fromDuck(type, v) {
  if (v === null || v === undefined) return null;
  switch (type) {
    case 'int64': return String(v);
    case 'float64': return canonicalDouble(v);
    case 'bool': return String(v);
    case 'date': return String(v.days);
    case 'timestamp': return String(v.micros);
    default: return v;
  }
}

async function readDuck(file) {
  const r = await duck.runAndReadAll(`SELECT * FROM read_parquet('${file.replace(/'/g, "''")}')`);
  const names = r.columnNames();
  const types = r.columnTypes().map((t) => typeOf('duckdb', t));
  const cols = r.getColumns();
  return names.map((name, j) => ({
    name, type: types[j], nulls: null, values: (cols[j] ?? []).map((v) => fromDuck(types[j], v)),
  }));
}

function fromPolars(df) {
  return df.columns.map((name) => {
    const s = df.getColumn(name);
    const type = typeOf('polars', s.dtype);
    let values;
    if (type === 'int64') values = s.cast(pl.Utf8).toArray();
    else if (type === 'date') values = s.cast(pl.Int32).cast(pl.Utf8).toArray();
    else if (type === 'timestamp') values = s.cast(pl.Int64).cast(pl.Utf8).toArray();
    else if (type === 'float64') values = s.toArray().map((v) => (v === null ? null : canonicalDouble(v)));
    else if (type === 'bool') values = s.toArray().map((v) => (v === null ? null : String(v)));
    else values = s.toArray();
    return { name, type, nulls: s.nullCount(), values: values.map((v) => (v === undefined ? null : v)) };
  });
}

function fromArrowJS(table) {
  return table.schema.fields.map((f, j) => {
    const vec = table.getChildAt(j);
    const type = typeOf('arrowjs', f.type);
    const values = [];
    for (const d of vec.data) {
      for (let i = 0; i < d.length; i++) {
        const valid = type !== 'null' && (d.nullCount === 0 || d.getValid(i));
        if (!valid) { values.push(null); continue; }
        switch (type) {
          case 'timestamp': values.push(String(d.values[d.offset + i])); break;
          case 'date': values.push(String(d.values[d.offset + i])); break;
          case 'int64': values.push(String(d.values[d.offset + i])); break;
          case 'float64': values.push(canonicalDouble(d.values[d.offset + i])); break;
          case 'bool': values.push(String(vec.get(values.length))); break;
          default: values.push(vec.get(values.length));
        }
      }
    }
    return { name: f.name, type, nulls: vec.nullCount, values };
  });
}

function compare(what, truth, got) {
  checked++;
  if (got.length !== truth.cols.length) {
    fail(what, `${got.length} columns, expected ${truth.cols.length}`);
    return;
  }
  truth.cols.forEach((col, j) => {
    const g = got[j];
    const where = `${what} column ${j + 1} "${col.name}"`;
    // DuckDB names a column without a name C<index>, as it does for CSV, and
    // tells columns of the same name apart by a suffix _N.
    // The Arrow C Data Interface carries names as C strings: a name ends at
    // its first NUL byte.  Arrow JS decodes names with a TextDecoder, which
    // drops a leading byte order mark.
    const name = col.name.split('\0')[0];
    const duckName = (n) => n === `C${j}` || n.startsWith(`${name}_`);
    const jsName = (n) => n === name.replace(/^\uFEFF/, '');
    if (g.name !== name && !(/duckdb/.test(what) && duckName(g.name)) && !(/arrow js/.test(what) && jsName(g.name)))
      fail(where, `name "${g.name}"`);
    const want = truth.values[j];
    const allNull = g.values.every((v) => v === null);
    // Parquet has no null type: an all-null column is INT32 there.
    if (g.type !== col.type && !(col.type === 'null' && allNull)) fail(where, `type ${g.type}, expected ${col.type}`);
    if (g.values.length !== truth.rows) {
      fail(where, `${g.values.length} rows, expected ${truth.rows}`);
      return;
    }
    const wantNulls = want.length ? want.filter((v) => v === null).length : 0;
    if (g.nulls !== null && g.nulls !== wantNulls) fail(where, `null count ${g.nulls}, expected ${wantNulls}`);
    for (let i = 0; i < truth.rows; i++) {
      if (g.values[i] !== want[i]) {
        fail(where, `row ${i + 1}: ${JSON.stringify(g.values[i])?.slice(0, 80)}, expected ${JSON.stringify(want[i])?.slice(0, 80)}`);
        return;
      }
    }
  });
}

// ------------------------------------------------------------- conversions

let serial = 0;

// Converts csv (or, with input, standard input) with opts and the format's
// options, and has every reader of that format check it against truth.
async function convertAndCheck(label, csv, opts, truth, format, extra = [], input = undefined) {
  if (format === 'parquet' && truth.cols.length === 0) return expectNoParquet(label, csv, opts, input);
  const file = path.join(work, `out${serial++}.${format}`);
  const args = ['convert', ...opts, ...extra, input ? '-' : csv];
  let res;
  if (format === 'arrows') res = spawnSync(simdsv, [...args, '--to', 'arrows'], { input, maxBuffer: 1 << 30 });
  else res = spawnSync(simdsv, [...args, '-o', file], { input, maxBuffer: 1 << 30 });
  const what = `${label} ${format} ${extra.join(' ')}`.trim();
  if (res.status !== 0) {
    fail(what, `simdsv convert exited ${res.status}: ${String(res.stderr).trim()}`);
    return;
  }
  if (format === 'arrows') fs.writeFileSync(file, res.stdout);
  const compressed = extra.includes('--compression') && !extra.includes('none');
  // Polars refuses a frame with two columns of the same name, and Arrow JS
  // gives such columns one type: they cannot judge those files (DuckDB can).
  const names = truth.cols.map((c) => c.name);
  const polars = new Set(names).size === names.length;
  const arrowjs = polars;
  if (format === 'parquet') {
    compare(`${what} [duckdb]`, truth, await readDuck(file));
    if (polars) compare(`${what} [polars]`, truth, fromPolars(pl.readParquet(file)));
  } else {
    const bytes = fs.readFileSync(file);
    if (polars)
      compare(`${what} [polars]`, truth, fromPolars(format === 'arrow' ? pl.readIPC(bytes) : pl.readIPCStream(bytes)));
    if (!compressed && arrowjs) compare(`${what} [arrow js]`, truth, fromArrowJS(tableFromIPC(bytes)));
  }
  fs.rmSync(file, { force: true });
}

const ALL_CODECS = [
  ['parquet', ['--compression', 'none']], ['parquet', ['--compression', 'snappy']],
  ['parquet', ['--compression', 'zstd', '--level', '5']], ['parquet', ['--compression', 'gzip']],
  ['arrow', []], ['arrow', ['--compression', 'zstd']], ['arrow', ['--compression', 'lz4']],
  ['arrows', []], ['arrows', ['--compression', 'zstd']], ['arrows', ['--compression', 'lz4']],
];
const PLAIN = [['parquet', []], ['arrow', []], ['arrows', []]];

// Parquet cannot hold a table without columns: a clear error and no file.
function expectNoParquet(label, csv, opts, input) {
  const out = path.join(work, `none${serial++}.parquet`);
  const res = spawnSync(simdsv, ['convert', ...opts, input ? '-' : csv, '-o', out], { input });
  checked++;
  if (res.status !== 2 || !/at least one column/.test(res.stderr) || fs.existsSync(out))
    fail(`${label} parquet`, `expected "needs at least one column" and no file, got ${res.status}: ${res.stderr}`);
}

// Returns false when simdsv itself rejects the CSV: a failure unless the
// caller allows it (mayReject).
// Codecs this build of simdsv lacks (it says so): their variants are left out.
const missingCodecs = new Set();
{
  const tiny = path.join(work, 'codec.csv');
  fs.writeFileSync(tiny, 'a\n1\n');
  for (const [format, codec] of [['parquet', 'snappy'], ['parquet', 'gzip'], ['parquet', 'zstd'], ['arrow', 'lz4']]) {
    const res = spawnSync(simdsv, ['convert', tiny, '--to', format, '--compression', codec, '-o', `${tiny}.out`]);
    if (/this build has no/.test(res.stderr)) {
      missingCodecs.add(codec);
      console.log(`note: this simdsv has no ${codec}: its variants are left out`);
    }
  }
}

async function checkFile(label, csv, opts, variants, input, mayReject = false) {
  const truth = truthOf(csv, opts, input);
  if (!truth) {
    if (!mayReject) fail(label, 'simdsv schema / convert --to jsonl rejected the CSV');
    return false;
  }
  for (const [format, extra] of variants) {
    const codec = extra[extra.indexOf('--compression') + 1];
    if (!extra.includes('--compression') || !missingCodecs.has(codec))
      await convertAndCheck(label, csv, opts, truth, format, extra, input);
  }
  return true;
}

function write(name, text) {
  const p = path.join(work, name);
  fs.writeFileSync(p, text);
  return p;
}

// A small deterministic generator (the data must not change between runs).
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

// Every type, nulls against empty strings, Unicode, long strings, an
// all-null column, extreme numbers.
function typesCsv(rows) {
  const r = rng(7);
  const lines = ['int,float,text,flag,day,stamp,nothing,local,"naïve ✓"'];
  const words = ['', 'plain', 'with,comma', 'quote "x"', 'line\nbreak', 'ünïcödé', '日本語テキスト', '🙂 emoji', 'tab\there'];
  const q = (s) => `"${s.replace(/"/g, '""')}"`;
  for (let i = 0; i < rows; i++) {
    const nul = (p) => r() < p;
    const int = nul(0.1) ? '' : i === 1 ? '9223372036854775807' : i === 2 ? '-9223372036854775808' : String(Math.floor((r() - 0.5) * 1e6));
    const float = nul(0.1) ? '' : i === 3 ? '-0.0' : i === 4 ? '1e308' : i === 5 ? '5e-324' : (r() * 1000 - 500).toFixed(3);
    const text = nul(0.1) ? '' : i % 50 === 7 ? q('long ' + 'x'.repeat(100000 + i)) : q(words[Math.floor(r() * words.length)]);
    const flag = nul(0.1) ? '' : r() < 0.5 ? 'true' : 'false';
    const day = nul(0.1) ? '' : `${1900 + Math.floor(r() * 200)}-0${1 + Math.floor(r() * 9)}-1${Math.floor(r() * 9)}`;
    const stamp = nul(0.1) ? '' : `20${10 + Math.floor(r() * 20)}-0${1 + Math.floor(r() * 9)}-0${1 + Math.floor(r() * 9)}T1${Math.floor(r() * 9)}:3${Math.floor(r() * 9)}:0${Math.floor(r() * 9)}${r() < 0.5 ? '.' + String(Math.floor(r() * 1e6)).padStart(6, '0') : ''}${r() < 0.5 ? 'Z' : '+02:00'}`;
    const local = nul(0.2) ? '' : `2024-02-2${Math.floor(r() * 9)} 0${Math.floor(r() * 9)}:00:00`;
    const last = r() < 0.3 ? '""' : r() < 0.5 ? '' : q(words[Math.floor(r() * words.length)]);
    lines.push([int, float, text, flag, day, stamp, '', local, last].join(','));
  }
  return lines.join('\n') + '\n';
}

// Many distinct strings: the dictionary passes its limit and the chunk is
// written PLAIN; a few distinct values stay dictionary-encoded.  Nulls among
// the distinct ones: the values before the give-up are written PLAIN then,
// past the rows that have none.
function dictionaryCsv(rows) {
  const lines = ['id,unique,few,fnum'];
  for (let i = 0; i < rows; i++) {
    const unique = i % 13 === 5 ? '' : `unique-value-${i}-${'y'.repeat(i % 40)}`;
    lines.push(`${i},${unique},${['red', 'green', 'blue'][i % 3]},${(i % 7) / 4}`);
  }
  return lines.join('\n') + '\n';
}

// ----------------------------------------------------------------- groups

async function groupTypes() {
  const types = write('types.csv', typesCsv(2000));
  await checkFile('types', types, [], ALL_CODECS);
  // Forced types, projection, null tokens: the typed options apply.
  await checkFile('types --schema', types, ['--schema', 'int:string,day:string', '--columns', 'day,int,text',
    '--null-values', 'plain'], PLAIN);
  await checkFile('types', types, [], [['parquet', ['--no-dictionary', '--compression', 'zstd']]]);
  await checkFile('dictionary overflow', write('dict.csv', dictionaryCsv(60000)), [], [
    ['parquet', []], ['parquet', ['--compression', 'snappy']], ['parquet', ['--row-group-size', '7000']]]);
  await checkFile('header only', write('header.csv', 'a,b,c\n'), [], ALL_CODECS);
  await checkFile('one row', write('one.csv', 'a,b\n1,x\n'), [], ALL_CODECS);
  await checkFile('all null', write('nulls.csv', 'a,b\n,\n,\n,\n'), [], ALL_CODECS);
  // A value that does not fit the type the stream inferred (past its sample):
  // from a regular file -o reads it again with the column widened, so the
  // readers see what one read gives (the truth: every row sampled); from a
  // pipe the conversion fails naming the line, and -o leaves no file.
  const misfitRows = ['a,b', ...Array.from({ length: 1000 }, (_, i) => `${i === 300 ? 'abc' : i},x${i}`)].join('\n');
  const misfit = write('misfit.csv', misfitRows);
  const whole = truthOf(misfit, ['--infer-rows', 'all']);
  checked++;
  if (!whole || whole.cols[0].type !== 'string') fail('misfit', 'the whole read does not type column a as string');
  else for (const format of ['parquet', 'arrow']) await convertAndCheck('misfit', misfit, ['--infer-rows', '10'], whole, format);
  for (const format of ['parquet', 'arrow']) {
    const out = path.join(work, `misfit.${format}`);
    const res = spawnSync(simdsv, ['convert', '-', '--infer-rows', '10', '--to', format, '-o', out],
      { input: misfitRows, encoding: 'utf8' });
    checked++;
    if (res.status !== 1 || !/line 302, column 1/.test(res.stderr) || !/--schema 'a:string'/.test(res.stderr) ||
        fs.existsSync(out))
      fail(`misfit ${format} from a pipe`, `expected exit 1, "line 302, column 1", the fix and no file; got ${res.status}: ${res.stderr}`);
  }
  // No input at all has no columns: Parquet cannot hold that, IPC can.
  await checkFile('empty', write('empty.csv', ''), [], PLAIN);
}

async function groupRowGroups() {
  const csv = write('rg.csv', typesCsv(12000).replace(/x{100000,}/g, 'x'));
  await checkFile('row groups', csv, [], [['parquet', ['--row-group-size', '1000']],
    ['parquet', ['--row-group-size', '999', '--compression', 'zstd', '--threads', '3']],
    ['arrow', ['--threads', '2']]]);
  // The statistics DuckDB sees in the footer: per row group, null count and
  // min/max of the integer and text columns equal the truth's.
  const truth = truthOf(csv, []);
  const file = path.join(work, 'rg.parquet');
  execFileSync(simdsv, ['convert', csv, '--row-group-size', '1000', '-o', file]);
  const meta = await duck.runAndReadAll(`SELECT row_group_id, path_in_schema, stats_min_value, stats_max_value,
    stats_null_count FROM parquet_metadata('${file}') WHERE path_in_schema IN ('int', 'text')`);
  const cmpBytes = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b));
  for (const row of meta.getRowObjects()) {
    const g = Number(row.row_group_id);
    const j = truth.cols.findIndex((c) => c.name === row.path_in_schema);
    const vals = truth.values[j].slice(g * 1000, (g + 1) * 1000);
    const present = vals.filter((v) => v !== null);
    let lo, hi;
    if (truth.cols[j].type === 'int64') {
      const big = present.map(BigInt);
      lo = String(big.reduce((a, b) => (b < a ? b : a)));
      hi = String(big.reduce((a, b) => (b > a ? b : a)));
    } else {
      const sorted = [...present].sort(cmpBytes);
      lo = sorted[0];
      hi = sorted[sorted.length - 1];
    }
    const what = `statistics row group ${g} ${row.path_in_schema}`;
    checked++;
    if (Number(row.stats_null_count) !== vals.length - present.length) fail(what, `null count ${row.stats_null_count}`);
    if (String(row.stats_min_value) !== lo || String(row.stats_max_value) !== hi)
      fail(what, `min/max ${row.stats_min_value} / ${row.stats_max_value}, expected ${lo} / ${hi}`);
  }
  // A row group also ends once its rows hold 32 MiB of values: 9000 rows of
  // an int64 and a 4000-byte string count 8 + 4 (offset) + 4000 bytes, + 1
  // for the rounding of a batch's bytes per row, so 33554432 / 4013 makes
  // 8362 rows, then the 638 left; every value is read back.
  const longCsv = write('long.csv', ['id,text', ...Array.from({ length: 9000 }, (_, i) => `${i},${String(i % 10).repeat(4000)}`)].join('\n') + '\n');
  for (const threads of ['1', '2']) {
    const longFile = path.join(work, `long${threads}.parquet`);
    execFileSync(simdsv, ['convert', longCsv, '--threads', threads, '-o', longFile]);
    const groups = await duck.runAndReadAll(`SELECT row_group_id, any_value(row_group_num_rows) AS n FROM
      parquet_metadata('${longFile}') GROUP BY row_group_id ORDER BY row_group_id`);
    const sizes = groups.getRowObjects().map((row) => Number(row.n)).join(',');
    const sums = (await duck.runAndReadAll(`SELECT count(*) AS n, sum(id) AS ids, sum(length(text)) AS len,
      sum(CAST(substr(text, 4000, 1) AS INTEGER)) AS digits FROM read_parquet('${longFile}')`)).getRowObjects()[0];
    checked++;
    if (sizes !== '8362,638') fail(`row group bytes, ${threads} thread(s)`, `row groups of ${sizes} rows, expected 8362,638`);
    if (Number(sums.n) !== 9000 || Number(sums.ids) !== 40495500 || Number(sums.len) !== 36000000 || Number(sums.digits) !== 40500)
      fail(`row group bytes, ${threads} thread(s)`, `read back ${JSON.stringify(sums, (k, v) => String(v))}`);
  }
}

// More than one row group (and many batches) through a pipe.
async function groupBig() {
  const lines = ['id,name,score,when,ok'];
  const r = rng(11);
  for (let i = 0; i < 300000; i++)
    lines.push(`${i},name${Math.floor(r() * 5000)},${(r() * 100).toFixed(2)},2024-01-${String(1 + (i % 28)).padStart(2, '0')},${i % 3 === 0}`);
  const text = lines.join('\n') + '\n';
  await checkFile('pipe', null, [], [['parquet', ['--compression', 'zstd', '--row-group-size', '100000']],
    ['parquet', ['--row-group-size', '70000', '--threads', '2']], ['arrows', []], ['arrow', ['--compression', 'lz4']]],
  text);
}

async function groupReal() {
  const dir = dataDir;
  if (!dir || !fs.existsSync(dir)) {
    console.log(`SKIPPED: the six real datasets were not found (looked in ${dir || '(none given)'})`);
    process.exit(77);
  }
  for (const name of fs.readdirSync(dir).filter((n) => /\.(csv|tsv)$/.test(n)).sort()) {
    // Their dialects, given (the reader does not guess them).
    const opts = name.endsWith('.tsv') ? ['--delimiter', '\\t'] : name.startsWith('laposte') ? ['--delimiter', ';'] : [];
    await checkFile(name, path.join(dir, name), opts, [['parquet', ['--compression', 'zstd']],
      ['parquet', ['--compression', 'snappy']], ['arrow', []], ['arrows', ['--compression', 'zstd']]]);
  }
}

// Every conformance case simdsv reads with the default dialect; a case it
// rejects must also fail to convert, leaving no file.
async function groupConformance() {
  const root = dataDir;
  let read = 0;
  let rejected = 0;
  for (const suite of fs.readdirSync(root).sort()) {
    const dir = path.join(root, suite);
    if (!fs.statSync(dir).isDirectory()) continue;
    for (const name of fs.readdirSync(dir).filter((n) => n.endsWith('.csv')).sort()) {
      const csv = path.join(dir, name);
      if (fs.existsSync(csv.replace(/\.csv$/, '.dialect.json'))) continue;
      const opts = ['--long-rows', 'truncate'];
      if (await checkFile(`${suite}/${name}`, csv, opts, PLAIN, undefined, true)) {
        read++;
        continue;
      }
      rejected++;
      const out = path.join(work, 'rejected.parquet');
      const res = spawnSync(simdsv, ['convert', ...opts, csv, '-o', out]);
      checked++;
      if (res.status === 0 || fs.existsSync(out)) fail(`${suite}/${name}`, 'rejected by jsonl but converted');
    }
  }
  console.log(`conformance: ${read} cases converted and read back, ${rejected} rejected as by the typed reader`);
}

const groups = { types: groupTypes, rowgroups: groupRowGroups, big: groupBig, real: groupReal, conformance: groupConformance };
if (!groups[group]) {
  console.error(`unknown group ${group}`);
  process.exit(2);
}
await groups[group]();
console.log(`${group}: ${checked} reads checked, ${failures} failures`);
process.exit(failures ? 1 : 0);
