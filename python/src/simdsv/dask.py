"""simdsv.dask.read_csv: CSV files read on many Dask workers, by byte ranges.

Per file, the graph has three stages:

1. one task per byte range of ``blocksize`` bytes reads just that range
   (``os.pread``) and summarizes it (simdsv_range_summarize: for every
   state its begin can be in -- outside or inside quotes, and in the
   dialects whose quote state is not the quote parity the reader's other
   grammar states -- where its first record starts and its end's state);
2. one task combines the summaries in order (their state maps composed)
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

Several files (a list, a glob, a folder, a URL of several objects) are
first joined into one schema by the library's dataset (a task): union by
name, the types each column widens to across the files, hive partition
and file name columns; every file's ranges are then read with the joined
types and completed with the columns it lacks, so the frame equals
simdsv.read_csv over the same files.  A compressed file is one partition.
"""

from __future__ import annotations

import os
from typing import Any

from . import Table, _cast_batch, _detect, _Inputs, _options, _remote, _resolve_casts, arrow_to_pandas
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


def _read_partition(source: Source, ranges: list | None, i: int, ints: dict, strings: dict, casts: dict,
                    dtype_backend: str | None, schema: Any, layout: dict | None = None) -> Any:
    """Partition i of a file: the records of its range (ranges None: the whole file, compressed), in the
    dataset's columns (layout: see _layout; None: the file's own are the frame's)."""
    if ranges is None:
        table = _read_whole(source, ints, strings)
    else:
        try:
            table = _read_range(source, ranges[i], ints, strings)
        except _c.Error:
            # After bad quoting the ranges behind it may start in the wrong
            # quote state and fail too: report the first failing range, whose
            # error is the single read's.
            for earlier in ranges[:i]:
                _read_range(source, earlier, ints, strings)
            raise
    arrow = table.to_arrow()
    if layout is not None:
        arrow = _complete(arrow, layout, schema)
    arrow = _same_zones(arrow, schema)
    if casts:
        arrow = _cast_batch(arrow, casts, _name(source), 0)
    return arrow_to_pandas(arrow, dtype_backend)


def _read_whole(source: Source, ints: dict, strings: dict) -> Table:
    """A compressed file, read whole as simdsv.read_csv reads it (its options already detected)."""
    if isinstance(source, str):
        return Table(_c.read_table(source, ints, strings, False))
    plan = _Plan(ints, strings)
    replay = _detect.file_source(source.reader(), plan)
    return Table(_c.read_table(replay, plan.ints, plan.strings, False))


def _complete(arrow: Any, layout: dict, schema: Any) -> Any:
    """A file's columns as the dataset's: its own (renamed when matched by position), then null for those it
    lacks, the hive partition values of its path and its name, in the schema's order."""
    import pyarrow as pa

    n = arrow.num_rows
    columns = []
    for field in schema:
        if field.name in layout["own"]:
            columns.append(arrow.column(layout["own"][field.name]))
        elif field.name in layout["constants"]:
            value = layout["constants"][field.name]
            text = pa.array([value] * n if value is not None else [None] * n, pa.string())
            columns.append(text.cast(field.type) if field.type != pa.string() else text)
        else:
            columns.append(pa.nulls(n, field.type))
    return pa.Table.from_arrays(columns, schema=pa.schema([pa.field(f.name, c.type) for f, c in
                                                           zip(schema, columns)]))


def _read_range(source: Source, rng: tuple, ints: dict, strings: dict) -> Table:
    data = _fetch(source, rng[0], rng[1] - rng[0])
    return Table(_c.read_range(data, rng, ints, strings, _name(source)))


class _Plan:
    """The options of one source's detection (as _options.Plan holds them)."""

    def __init__(self, ints: dict, strings: dict) -> None:
        self.ints, self.strings = dict(ints), dict(strings)


def _detected_remote(file: Any, ints: dict, strings: dict) -> tuple[dict, dict, Any, bool]:
    """(ints, strings, a reader of the object from its start, whether it is compressed) with detection run on
    the object's first bytes, as simdsv.read_csv does for a URL."""
    reader = file.reader()
    head = reader.read(4)
    compressed = head[:2] == b"\x1f\x8b" or head == b"\x28\xb5\x2f\xfd"
    reader.rewind()
    plan = _Plan(ints, strings)
    replay = _detect.file_source(reader, plan)
    if compressed:  # read whole as gzip (file_source decodes it); the ranges of the data are not the file's
        plan.ints[_c.OPT_COMPRESSION] = _c.COMPRESSION_GZIP
    return plan.ints, plan.strings, replay, compressed


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
        compressed = ints[_c.OPT_COMPRESSION] != _c.COMPRESSION_NONE
        sample: Any = source
        infer_ints = dict(ints)
        infer_ints[_c.OPT_MMAP] = 1  # the sample touches a few pages only
    else:
        ints, strings, sample, compressed = _detected_remote(source, ints, strings)
        infer_ints = dict(ints)
    infer_strings = {k: v for k, v in strings.items() if k != _c.OPT_COLUMNS}
    table = Table(_c.read_table(sample, infer_ints, infer_strings, True))
    types = ["string" if c[1] == "null" else c[1] for c in table._native.column_info]
    # Timestamps: naive, or UTC when the sample's values had offsets (a range alone would decide from its own).
    utc = [c.name for c in table.to_arrow().schema if getattr(c.type, "tz", None)]
    return table.column_names, types, ints, strings, utc, compressed


def _joined(sources: list, ints: dict, strings: dict) -> tuple[list[str], list[str], list[str]]:
    """The dataset's columns (names, types, the UTC timestamp columns), joined by the library over every file's
    sample (simdsv_dataset_infer): the files' columns by position or by name, hive partitions, the file name."""
    items = [("path", s) if isinstance(s, str) else ("remote", s) for s in sources]
    table = Table(_Inputs.dataset_of(items, ints, strings).read(True))
    types = ["string" if c[1] == "null" else c[1] for c in table._native.column_info]
    utc = [c.name for c in table.to_arrow().schema if getattr(c.type, "tz", None)]
    return table.column_names, types, utc


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


def _sources(path: Any, storage_options: dict | None) -> tuple[list[Source], bool]:
    """(the files path names, whether it named one file itself): a local path, a glob or a folder (listed by
    the library, on the client: the paths must be the same on every worker), an fsspec URL (listed by
    _remote), or a list of these."""
    if isinstance(path, (list, tuple)):
        return [s for p in path for s in _sources(p, storage_options)[0]], False
    if _remote.is_url(path):
        return _remote.expand(path, storage_options, _remote.Secrets([path], storage_options))
    if storage_options is not None:
        raise ValueError("storage_options apply to URLs (s3://, https://, ...), not to a local path")
    local = _remote.local_path(os.fspath(path))
    if os.path.isdir(local) or (_remote.MAGIC.search(local) and not os.path.exists(local)):
        return _options.call(_c.dataset, [("path", local)], {}, {}).files(), False
    return [local], True


def _size(source: Source) -> int:
    return os.path.getsize(source) if isinstance(source, str) else source.size


def _layout(own: list[str], joined: list[str], by_name: bool, constants: dict) -> tuple[dict, dict]:
    """(the file's field of each dataset column it has, keyed by the dataset's name; {file field: dataset
    column}) for a file with columns own."""
    fields = {}
    for k, name in enumerate(own):
        target = name if by_name else (joined[k] if k < len(joined) else None)
        if target is not None and target in joined and target not in constants:
            fields[target] = k
    return fields, {k: name for name, k in fields.items()}


def _hive_values(name: str, keys: list[str]) -> dict:
    """The `key=value` folders of a path for the hive columns keys ("" and __HIVE_DEFAULT_PARTITION__: null),
    as the library reads them (its typing is applied by casting to the joined type)."""
    found = {}
    for part in name.split("/")[:-1]:
        key, eq, value = part.partition("=")
        if eq and key in keys:
            found[key] = None if value in ("", "__HIVE_DEFAULT_PARTITION__") else value
    return {k: found.get(k) for k in keys}


def read_csv(path: Any, *, blocksize: int | str = "64MB", dtype_backend: str | None = None,
             storage_options: dict | None = None, **kwargs: Any) -> Any:
    """A dask.dataframe.DataFrame over CSV files, one partition per byte range of each.

    path: a local path (the same file on every worker), a glob, a folder, an
    fsspec URL (s3://, https://, ...; a glob or folder URL names several
    objects; storage_options= as fsspec takes them: the objects are listed
    on the client and read by ranged GETs on the workers), or a list of
    these.  Several files are one frame as simdsv.read_csv reads them:
    union_by_name=, hive_partitioning=, include_path_column= as there.  An
    object that changes size while it is read is an error naming it.

    Takes simdsv.read_csv's keyword arguments, pandas' and polars' names
    included (threads: per task, default 1).  Types are inferred once, from
    a sample of the start, middle and end of each local file (the first
    8 MiB of an object), joined across files, and given to every partition
    (pass schema= to fix them); a value that does not fit its
    column's type is an error naming its line, column and byte (or a null
    with on_error="null"); the dialect is detected once per file (sniff=False: the
    defaults) and given to every task.  dtype_backend as Table.to_pandas (default
    NumPy dtypes, as read_csv(path).to_pandas() gives them: the computed
    frame equals it; a partition's int column with nulls is float64 there,
    as in the single read; "pyarrow" gives every partition the same dtypes
    whatever its nulls).  Every dialect is cut exactly (escape and comment
    bytes, lenient mode, delimiters of several bytes included) but
    skip_lines, which is refused (simdsv.Error): a range cannot know whether
    its begin is in a skipped line.  A compressed file is read whole, as one
    partition.
    """
    import dask
    import dask.dataframe as dd
    from dask.utils import parse_bytes

    sources, alone = _sources(path, storage_options)
    block = parse_bytes(blocksize) if isinstance(blocksize, str) else int(blocksize)
    if block <= 0:
        raise ValueError("blocksize must be positive")
    options = _options.normalize("read_csv", kwargs, _options.DIALECT_KEYS + _options.TYPED_KEYS + _detect.KEYS
                                 + _options.DATASET_KEYS)
    options.setdefault("threads", 1)
    if options.get("row_limit") is not None:
        raise ValueError("row_limit (nrows) would apply to each partition: use .head() on the DataFrame")
    input_keys = {k: options.pop(k) for k in _detect.KEYS if k in options}
    plan = _options.build("read_csv", **options)
    _detect.apply(plan, options, **input_keys)
    ints, strings = plan.ints, dict(plan.strings)
    strings.pop(_c.OPT_COLUMNS, None)
    # The options as detected and the schema, once per file, as tasks (the files may be visible to the workers
    # only); with several files (or a dataset option) the library joins their columns, also as a task.
    as_dataset = not alone or any(options.get(k) not in (None, False) for k in _options.DATASET_KEYS)
    tasks = [dask.delayed(_infer)(s, ints, strings) for s in sources]
    if as_dataset:
        tasks.append(dask.delayed(_joined)(sources, ints, strings))
    found = dask.compute(*tasks)
    per_file = found[: len(sources)]
    if as_dataset:
        names, types, utc = found[-1]
    else:
        names, types, _, _, utc, _ = per_file[0]
    by_name = bool(options.get("union_by_name"))
    path_column = strings.get(_c.OPT_FILENAME_COLUMN)
    own_columns = {n for f in per_file for n in (f[0] if by_name else per_file[0][0])}
    hive_keys = [n for n in names if n not in own_columns and n != path_column] if as_dataset else []

    fields = _fields(options, plan, names)
    wanted = [names[f] for f in fields]
    casts = _resolve_casts({names[k] if isinstance(k, int) else k: v for k, v in plan.casts.items()}, wanted)
    schema = _arrow_schema(wanted, [types[f] for f in fields], utc)
    parts = []
    for source, (own, _, file_ints, file_strings, _, compressed) in zip(sources, per_file):
        if not compressed:
            _c.range_summary(b"", 0, -1, file_ints, file_strings)  # refuses unsupported dialects here
        constants = _hive_values(_name(source), hive_keys) if hive_keys else {}
        if path_column:
            constants[path_column] = _name(source)
        by_dataset, to_dataset = _layout(own, names, by_name, constants)
        read = [k for k in range(len(own)) if k in to_dataset and to_dataset[k] in wanted]
        if not as_dataset:
            read = fields
        read_strings = dict(file_strings)
        read_strings[_c.OPT_NAMES] = _options.join_list(own)
        read_strings[_c.OPT_SCHEMA] = ",".join(
            f"#{k + 1}:{types[names.index(to_dataset[k]) if as_dataset else k]}" for k in read)
        read_strings[_c.OPT_COLUMNS] = _options.join_list(f"#{k + 1}" for k in read)
        layout = None
        if as_dataset:
            layout = {"own": {to_dataset[k]: i for i, k in enumerate(read)}, "constants": constants}
        if compressed:
            whole_strings = {k: v for k, v in read_strings.items() if k != _c.OPT_NAMES}
            parts.append(dask.delayed(_read_partition)(source, None, 0, file_ints, whole_strings, casts,
                                                       dtype_backend, schema, layout))
            continue
        size = _size(source)
        bounds = list(range(0, size, block)) + [size] if size else [0, 0]
        summaries = [dask.delayed(_summarize)(source, b, e, file_ints, file_strings)
                     for b, e in zip(bounds, bounds[1:])]
        ranges = dask.delayed(_c.range_combine)(summaries)
        parts += [dask.delayed(_read_partition)(source, ranges, i, file_ints, read_strings, casts, dtype_backend,
                                                schema, layout)
                  for i in range(len(summaries))]
    meta = schema.empty_table()
    if casts:
        meta = _cast_batch(meta, casts, _name(sources[0]), 0)
    return dd.from_delayed(parts, meta=arrow_to_pandas(meta, dtype_backend), verify_meta=False)
