"""simdsv.dask.read_csv: one CSV file read on many Dask workers, by byte ranges.

The graph has three stages:

1. one task per byte range of ``blocksize`` bytes reads just that range
   (``os.pread``) and summarizes it (simdsv_range_summarize: the quote
   parity and where the first record starts under either quote state);
2. one task combines the summaries in order (a prefix XOR of the parities)
   into each range's true first record start and the bytes of its records;
3. one task per partition reads its records' bytes ``[start, stop)`` — the
   last record runs past the block's end as far as it goes — and converts
   them with the schema inferred once for the whole file.

So quoted fields with line breaks anywhere, also across block boundaries,
read exactly as in a single read, which ``dask.dataframe.read_csv`` (it cuts
blocks at the first newline) does not do.  A local path must name the same
file on every worker (shared storage); an fsspec URL (s3://, https://, ...)
is listed once on the client and read by ranged GETs on the workers, so they
need no shared disk.  Each task reads only its own bytes.
"""

from __future__ import annotations

import os
from typing import Any

from . import Table, _cast_batch, _detect, _options, _remote, _resolve_casts, arrow_to_pandas
from . import _simdsv as _c

__all__ = ["read_csv"]

# A source is a local path (str) or a _remote.RemoteFile (an object listed on the client; picklable, it reads
# its own byte ranges on any worker).
Source = Any


def _name(source: Source) -> str:
    return source if isinstance(source, str) else source.name


def _fetch(source: Source, start: int, size: int) -> bytes:
    """Bytes [start, start + size) of the source, all of them (fewer: the file changed, an error naming it)."""
    if not size:
        return b""
    if isinstance(source, str):
        with open(source, "rb") as f:
            data = os.pread(f.fileno(), size, start)
        if len(data) != size:
            raise OSError(f"{source}: the file changed size while it was read")
        return data
    return source.fetch(start, start + size)


def _summarize(source: Source, begin: int, end: int, ints: dict, strings: dict) -> tuple:
    # One byte before the range: whether a CRLF was cut in two.
    lead = 1 if begin > 0 else 0
    data = _fetch(source, begin - lead, end - begin + lead)
    prev = data[0] if lead else -1
    return _c.range_summary(memoryview(data)[lead:], begin, prev, ints, strings)


def _read_partition(source: Source, ranges: list, i: int, ints: dict, strings: dict, casts: dict,
                    dtype_backend: str | None, schema: Any) -> Any:
    try:
        table = _read_range(source, ranges[i], ints, strings)
    except _c.Error:
        # After bad quoting the ranges behind it may start in the wrong
        # quote state and fail too: report the first failing range, whose
        # error is the single read's.
        for earlier in ranges[:i]:
            _read_range(source, earlier, ints, strings)
        raise
    arrow = _same_zones(table.to_arrow(), schema)
    if casts:
        arrow = _cast_batch(arrow, casts, _name(source), 0)
    return arrow_to_pandas(arrow, dtype_backend)


def _read_range(source: Source, rng: tuple, ints: dict, strings: dict) -> Table:
    data = _fetch(source, rng[0], rng[1] - rng[0])
    return Table(_c.read_range(data, rng, ints, strings, _name(source)))


class _Plan:
    """The options of one source's detection (as _options.Plan holds them)."""

    def __init__(self, ints: dict, strings: dict) -> None:
        self.ints, self.strings = dict(ints), dict(strings)


def _detected_remote(file: Any, ints: dict, strings: dict) -> tuple[dict, dict, Any]:
    """(ints, strings, a reader of the object from its start) with detection run on the object's first bytes,
    as simdsv.read_csv does for a URL."""
    reader = file.reader()
    head = reader.read(4)
    if head[:2] == b"\x1f\x8b" or head == b"\x28\xb5\x2f\xfd":
        raise ValueError(f"{file.name}: compressed data cannot be read by byte ranges: use simdsv.read_csv")
    reader.rewind()
    plan = _Plan(ints, strings)
    replay = _detect.file_source(reader, plan)
    return plan.ints, plan.strings, replay


def _infer(source: Source, ints: dict, strings: dict) -> tuple[list[str], list[str], dict, dict, list[str]]:
    """The options as detected, and the names and types of every column, from a
    sample of the start, middle and end of a local file (of the start of an
    object: it is read as a stream, its first 8 MiB).

    Detection runs here, once (simdsv_input_detect, as simdsv.read_csv does),
    and its options go to every task: a range cannot be detected alone.  A
    column without a value in the sample is read as string (a single read
    would give it the type of the values it finds later)."""
    if isinstance(source, str):
        ints, strings = _c.detect(source, ints, strings)
        if ints[_c.OPT_COMPRESSION] != _c.COMPRESSION_NONE:
            raise ValueError(f"{source}: compressed data cannot be read by byte ranges: use simdsv.read_csv")
        sample: Any = source
        infer_ints = dict(ints)
        infer_ints[_c.OPT_MMAP] = 1  # the sample touches a few pages only
    else:
        ints, strings, sample = _detected_remote(source, ints, strings)
        infer_ints = dict(ints)
    infer_strings = {k: v for k, v in strings.items() if k != _c.OPT_COLUMNS}
    table = Table(_c.read_table(sample, infer_ints, infer_strings, True))
    types = ["string" if c[1] == "null" else c[1] for c in table._native.column_info]
    # Timestamps: naive, or UTC when the sample's values had offsets (a range alone would decide from its own).
    utc = [c.name for c in table.to_arrow().schema if getattr(c.type, "tz", None)]
    return table.column_names, types, ints, strings, utc


def _arrow_schema(names: list[str], types: list[str], utc: list[str]) -> Any:
    import pyarrow as pa

    arrow = {"bool": pa.bool_(), "int64": pa.int64(), "float64": pa.float64(), "date": pa.date32(),
             "string": pa.string(), "null": pa.null()}
    return pa.schema([pa.field(n, pa.timestamp("us", tz="UTC" if n in utc else None) if t == "timestamp" else arrow[t])
                      for n, t in zip(names, types)])


def _same_zones(table: Any, schema: Any) -> Any:
    """table's timestamp columns with the zones of schema (the whole file's sample): the stored values are the
    same either way (naive ones hold the UTC wall clock of any offset), only the zone label differs."""
    for i, field in enumerate(schema):
        column = table.column(i)
        if field.type != column.type and str(column.type).startswith("timestamp"):
            table = table.set_column(i, field.name, column.cast(field.type))
    return table


def _resolve(selector: Any, names: list[str]) -> int:
    """The 0-based field of a column selector, as the C reader resolves it."""
    if isinstance(selector, int):
        return selector
    if selector in names:
        return names.index(selector)
    text = selector[1:] if selector.startswith("#") else selector
    if text.isdigit() and 0 < int(text) <= len(names):
        return int(text) - 1
    raise ValueError(f"no column {selector!r}")


def _fields(options: dict, plan: Any, names: list[str]) -> list[int]:
    """The fields read, in output order: columns= as given, usecols= in file order, or all."""
    if plan.usecols is not None:
        return _options.resolve_usecols(plan, names)
    wanted = options.get("columns")
    if wanted is None:
        return list(range(len(names)))
    return [_resolve(c, names) for c in ([wanted] if isinstance(wanted, (str, int)) else wanted)]


def read_csv(path: str | os.PathLike, *, blocksize: int | str = "64MB", dtype_backend: str | None = None,
             storage_options: dict | None = None, **kwargs: Any) -> Any:
    """A dask.dataframe.DataFrame over the CSV file at path, one partition per byte range.

    path: a local path (the same file on every worker) or an fsspec URL
    naming one object (s3://, https://, ...; storage_options= as fsspec
    takes them), listed on the client and read by ranged GETs on the
    workers.  An object that changes size while it is read is an error
    naming it.

    Takes simdsv.read_csv's keyword arguments, pandas' and polars' names
    included (threads: per task, default 1).  Types are inferred once, from
    a sample of the start, middle and end of the file, and given to every
    partition (pass schema= to fix them); a value that does not fit its
    column's type is an error naming its line, column and byte (or a null
    with on_error="null"); the dialect is detected once (sniff=False: the
    defaults) and given to every task.  dtype_backend as Table.to_pandas (default
    NumPy dtypes, as read_csv(path).to_pandas() gives them: the computed
    frame equals it; a partition's int column with nulls is float64 there,
    as in the single read; "pyarrow" gives every partition the same dtypes
    whatever its nulls).  Escape and comment bytes, lenient mode and
    skip_lines are refused (simdsv.Error): the quote parity would not be
    the quote state.
    """
    import dask
    import dask.dataframe as dd
    from dask.utils import parse_bytes

    if _remote.is_url(path):
        secrets = _remote.Secrets([path], storage_options)
        files, _ = _remote.expand(path, storage_options, secrets)
        if len(files) != 1:
            raise ValueError(f"{secrets.redact(path)}: names {len(files)} objects; one was expected")
        source: Source = files[0]
        size = files[0].size
    elif storage_options is not None:
        raise ValueError("storage_options apply to URLs (s3://, https://, ...), not to a local path")
    else:
        source = _remote.local_path(os.fspath(path))
        size = os.path.getsize(source)
    name = _name(source)
    block = parse_bytes(blocksize) if isinstance(blocksize, str) else int(blocksize)
    if block <= 0:
        raise ValueError("blocksize must be positive")
    options = _options.normalize("read_csv", kwargs, _options.DIALECT_KEYS + _options.TYPED_KEYS + _detect.KEYS)
    options.setdefault("threads", 1)
    if options.get("row_limit") is not None:
        raise ValueError("row_limit (nrows) would apply to each partition: use .head() on the DataFrame")
    input_keys = {k: options.pop(k) for k in _detect.KEYS if k in options}
    plan = _options.build("read_csv", **options)
    _detect.apply(plan, options, **input_keys)
    ints, strings = plan.ints, dict(plan.strings)
    strings.pop(_c.OPT_COLUMNS, None)
    # The options as detected and the schema, once, as a task (the file may
    # be visible to the workers only).
    names, types, ints, strings, utc = dask.compute(dask.delayed(_infer)(source, ints, strings))[0]
    _c.range_summary(b"", 0, -1, ints, strings)  # refuses unsupported dialects here, not on the workers

    fields = _fields(options, plan, names)
    casts = _resolve_casts({names[k] if isinstance(k, int) else k: v for k, v in plan.casts.items()},
                           [names[f] for f in fields])
    range_strings = dict(strings)
    range_strings[_c.OPT_NAMES] = _options.join_list(names)
    range_strings[_c.OPT_SCHEMA] = ",".join(f"#{f + 1}:{types[f]}" for f in fields)
    range_strings[_c.OPT_COLUMNS] = _options.join_list(f"#{f + 1}" for f in fields)

    bounds = list(range(0, size, block)) + [size] if size else [0, 0]
    summaries = [dask.delayed(_summarize)(source, b, e, ints, strings) for b, e in zip(bounds, bounds[1:])]
    ranges = dask.delayed(_c.range_combine)(summaries)
    schema = _arrow_schema([names[f] for f in fields], [types[f] for f in fields], utc)
    parts = [
        dask.delayed(_read_partition)(source, ranges, i, ints, range_strings, casts, dtype_backend, schema)
        for i in range(len(summaries))
    ]
    meta = schema.empty_table()
    if casts:
        meta = _cast_batch(meta, casts, name, 0)
    return dd.from_delayed(parts, meta=arrow_to_pandas(meta, dtype_backend), verify_meta=False)
