#!/usr/bin/env node
// DuckDB's SUMMARIZE of a CSV file, the peer of `simdsv stats` in
// bench/stats.sh: node duckdb_summarize.js FILE THREADS.  Needs
// @duckdb/node-api (../shared/peers/node, found through NODE_PATH).
// Prints the summary's row count (one per column) so that the work is done.
"use strict";
const { DuckDBInstance } = require("@duckdb/node-api");
const [file, threads = "1"] = process.argv.slice(2);
(async () => {
  const inst = await DuckDBInstance.create(":memory:", { threads: String(threads) });
  const con = await inst.connect();
  const lit = "'" + file.replace(/'/g, "''") + "'";
  const r = await con.runAndReadAll(`SUMMARIZE SELECT * FROM read_csv(${lit})`);
  console.log(`columns=${r.getRows().length}`);
})();
