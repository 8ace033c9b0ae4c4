"""simdsv.scan_csv: a CSV file as a polars.LazyFrame, through Polars' IO-plugin interface
(polars.io.plugins.register_io_source), read by the typed reader's stream of record batches.

What Polars pushes down to the source, and what the source does with it:

- projection (with_columns): only those columns are parsed (the C reader's column selection);
- n_rows: without a predicate the C reader stops after that many rows (its row limit); with one, the stream
  stops once that many rows have passed it;
- predicate: its columns are parsed with the projection and it is evaluated on each record batch before the batch
  is handed over (a batch where no row passes hands over nothing).  The C reader keeps no statistics that could
  rule a batch out unparsed, so no batch is skipped before it is parsed.

The detection and the schema are settled once, when scan_csv is called: the dialect as simdsv_input_detect finds
it, the types from read_csv's sample (the start, middle and end of the file).  Every collect() reads with those
options and those types given, so every query sees the schema the LazyFrame declared; a value past the sample that
does not fit its type is an error naming its line (read_csv would widen the column; infer_rows=None samples every
row, schema= fixes a type).
"""

from __future__ import annotations

from typing import Any, Iterator

from . import _READ_KEYS, CsvStream, Table, _cast_batch, _detect, _inputs_of, _map_path, _options, _remote, \
    _resolve_casts, _where
from . import _simdsv as _c
from .dask import _arrow_schema, _fields

# Rows per batch when Polars gives no hint (the stream's fixed cost per batch is small against 64 Ki rows).
_BATCH_ROWS = 65536


def scan_csv(source: Any, *, batch_rows: int | None = None, **kwargs: Any) -> Any:
    """A polars.LazyFrame over a CSV file, read in record batches as a query needs it.

    source: a path, or a bytes-like object (a file object is read whole: a LazyFrame may be collected more than
    once).  Takes read_csv's keyword arguments (simdsv's, pandas' and polars' names).  batch_rows: rows per batch
    (None: Polars' hint, else 65536).  Polars pushes down the projection (only the columns a query uses are
    parsed), n_rows (the reader stops early) and predicates (evaluated on each batch as it is read; see
    docs/PYTHON.md).  The schema is inferred here, once, from read_csv's sample.
    """
    import polars as pl
    from polars.io.plugins import register_io_source

    where = _where(source)
    if isinstance(source, (list, tuple)) or _remote.is_url(source):
        raise TypeError("scan_csv reads one local file or buffer: read a URL, a list, a glob or a folder with "
                        "read_csv or open_csv")
    source, inputs = _inputs_of(source, None, False)
    if inputs is not None:
        raise TypeError(f"scan_csv reads one local file or buffer, not a glob or a folder ({where}): use read_csv "
                        "or open_csv")
    given = _options.normalize("scan_csv", kwargs, _READ_KEYS + _detect.KEYS)
    input_keys = {k: given.pop(k) for k in _detect.KEYS if k in given}
    plan = _options.build("scan_csv", **given)
    _detect.apply(plan, given, **input_keys)
    _map_path(plan, source)
    if batch_rows is not None:
        batch_rows = _options._count("batch_rows", batch_rows, 1)
    src = _options.source(source)
    if _c.DETECT_GIVEN in plan.ints:  # once: every collect() reads with the options found here
        plan.ints, plan.strings = _options.call(_c.detect, src, plan.ints, plan.strings)
    header = plan.ints.get(_c.OPT_HEADER, 1)

    # Every column's name and type (the projection resolved against the names afterwards, as pandas' usecols is).
    sample_ints = {k: v for k, v in plan.ints.items() if k != _c.OPT_ROW_LIMIT}
    sample_strings = {k: v for k, v in plan.strings.items() if k != _c.OPT_COLUMNS}
    sample = _options.call(_c.read_table, src, sample_ints, sample_strings, True)
    names = [c[0] for c in sample.column_info]
    # A column without a value in the sample is read as string (Polars' choice for an all-null column too).
    types = ["string" if c[1] == "null" else c[1] for c in sample.column_info]
    fields = _fields(given, plan, names)
    out_names = [names[f] for f in fields]
    casts = _resolve_casts({names[k] if isinstance(k, int) else k: v for k, v in plan.casts.items()}, out_names)
    if casts:  # narrower types are cast by pyarrow (_types), batch by batch as open_csv does
        utc = [f.name for f in Table(sample).to_arrow().schema if getattr(f.type, "tz", None)]
        arrow_schema = _arrow_schema(out_names, [types[f] for f in fields], utc)
        arrow_schema = _cast_batch(arrow_schema.empty_table(), casts, where, header).schema
        schema = pl.from_arrow(arrow_schema.empty_table()).schema
    else:  # the sample's own types through the PyCapsule interface: pyarrow is not needed
        sample_types = pl.DataFrame(sample).schema
        schema = pl.Schema({n: pl.String if types[f] == "string" else sample_types[n] for n, f in zip(out_names, fields)})
    field_of = dict(zip(out_names, fields))
    limit = plan.ints.get(_c.OPT_ROW_LIMIT)

    def read(with_columns: list[str] | None, predicate: Any, n_rows: int | None,
             batch_size: int | None) -> Iterator[Any]:
        wanted = list(with_columns) if with_columns is not None else list(out_names)
        if predicate is not None:
            wanted += [n for n in predicate.meta.root_names() if n not in wanted]
        if not wanted:  # no column asked for (a row count): the first one carries the rows
            wanted = out_names[:1]
        if plan.schema_only or n_rows == 0:
            return
        # wanted is empty only when the sample found no column (an empty file, or bad data in the first record,
        # where the sample stops): the stream then reads the file as it is, to raise the error read_csv raises.
        picked = [field_of[n] for n in wanted]
        ints, strings = dict(plan.ints), dict(plan.strings)
        strings[_c.OPT_COLUMNS] = _options.join_list(f"#{f + 1}" for f in picked)
        strings[_c.OPT_SCHEMA] = ",".join(f"#{f + 1}:{types[f]}" for f in picked)
        ints[_c.OPT_BATCH_ROWS] = batch_rows or batch_size or _BATCH_ROWS
        rows = limit
        if n_rows is not None and predicate is None:
            rows = min(rows or n_rows, n_rows)
        if rows:
            ints[_c.OPT_ROW_LIMIT] = rows
        left = n_rows
        for frame in _frames(_options.call(_c.open_stream, src, ints, strings), casts, where, header, bool(picked)):
            # A batch's timestamps carry the zone of the stream's own sample; the schema's came from the file's.
            zones = {n: schema[n] for n, t in frame.schema.items() if isinstance(t, pl.Datetime) and t != schema[n]}
            if zones:
                frame = frame.cast(zones)
            if predicate is not None:
                frame = frame.filter(predicate)
            if with_columns is not None:
                frame = frame.select(with_columns)
            if left is not None:
                frame = frame.head(left)
                left -= frame.height
            if frame.height:
                yield frame
            if left == 0:
                return

    return register_io_source(read, schema=schema, is_pure=True, explain_name="simdsv", explain_detail=where)


class _Batch:
    """One record batch of the C stream as the Arrow PyCapsule interface hands it over (a struct array)."""

    __slots__ = ("schema", "array")

    def __init__(self, schema: Any, array: Any) -> None:
        self.schema, self.array = schema, array

    def __arrow_c_array__(self, requested_schema: Any = None) -> tuple[Any, Any]:
        return self.schema, self.array


def _frames(native: Any, casts: dict, where: str, header: int, has_columns: bool) -> Iterator[Any]:
    """The stream's batches as polars DataFrames: through pyarrow when narrower types are cast, else straight
    from the C stream's capsules.  Without columns (the sample found none) the stream is read through for its
    error, and nothing is handed over."""
    import polars as pl

    if casts:
        with CsvStream(native, casts, where, header) as stream:
            for batch in stream:
                yield pl.from_arrow(batch)
        return
    try:
        while True:
            capsule = native.next_batch()
            if capsule is None:
                return
            if has_columns:
                yield pl.Series(_Batch(native.schema_capsule(), capsule)).struct.unnest()
    finally:
        native.close()
