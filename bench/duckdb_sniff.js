"use strict";
// bench/duckdb_sniff.js FILE... — DuckDB's sniff_csv, every column of it, one JSON line per
// file (or {"error": ...}); run with NODE_PATH pointing at the node_modules of
// ../shared/peers/node (peers/install.sh).  Used by bench/sniff_accuracy.py.
const { DuckDBInstance } = require("@duckdb/node-api");
const lit = (s) => "'" + s.replace(/'/g, "''") + "'";
(async () => {
  const inst = await DuckDBInstance.create(":memory:", { threads: "1" });
  const con = await inst.connect();
  for (const f of process.argv.slice(2)) {
    try {
      const r = await con.runAndReadAll(`SELECT * FROM sniff_csv(${lit(f)})`);
      const names = r.columnNames();
      const row = r.getRows()[0];
      const o = { file: f };
      names.forEach((n, i) => { o[n] = typeof row[i] === "bigint" ? Number(row[i]) : (row[i] && row[i].toString ? row[i].toString() : row[i]); });
      console.log(JSON.stringify(o));
    } catch (e) {
      console.log(JSON.stringify({ file: f, error: String(e.message || e).slice(0, 200) }));
    }
  }
})();
