"use strict";
// bench/duckdb_json.js FILE OUT THREADS — DuckDB's JSON export of a CSV file,
// COPY (SELECT * FROM read_csv(FILE)) TO OUT (FORMAT json): one object per
// line, as `simdsv convert --to jsonl`.  Run with NODE_PATH pointing at the
// node_modules of ../shared/peers/node (peers/install.sh); bench/json.sh
// times the whole process.
const { DuckDBInstance } = require("@duckdb/node-api");
const lit = (s) => "'" + s.replace(/'/g, "''") + "'";
const [file, out, threads = "1"] = process.argv.slice(2);
(async () => {
  const inst = await DuckDBInstance.create(":memory:", { threads: String(threads) });
  const con = await inst.connect();
  await con.run(`COPY (SELECT * FROM read_csv(${lit(file)})) TO ${lit(out)} (FORMAT json)`);
})().catch((e) => {
  console.error(String(e.message || e));
  process.exit(1);
});
