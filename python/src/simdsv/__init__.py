"""simdsv: read CSV into Arrow, pandas, Polars, DuckDB and Dask at memory speed.

    import simdsv
    table = simdsv.read_csv("data.csv", threads=2)
    table.to_arrow()      # pyarrow.Table, no copy
    table.to_pandas()     # pandas.DataFrame
    table.to_polars()     # polars.DataFrame, no copy
    pyarrow.table(table); polars.DataFrame(table); duckdb.sql("SELECT * FROM table")

Tables implement the Arrow PyCapsule interface (``__arrow_c_stream__``,
``__arrow_c_schema__``, ``__arrow_c_array__``): consumers take the buffers
simdsv filled, without a copy.  ``open_csv`` streams record batches in
bounded memory, ``scan_csv`` is a polars.LazyFrame over that stream (the
query's columns, row limit and predicate pushed down), ``records`` iterates
rows as lists of str, ``count`` counts rows, and ``simdsv.dask.read_csv``
reads one file on many Dask workers.
The pandas and polars keyword names (``sep``, ``usecols``, ``dtype``,
``na_values``, ``nrows``, ``separator``, ``n_rows``, ...) are accepted
beside simdsv's own (docs/PYTHON.md has the table).  Errors raise
``simdsv.Error`` (a ValueError) with ``line``, ``column``, ``byte_offset``,
``record``, ``field``, ``code`` and ``reason``.
"""

from __future__ import annotations

import os
from typing import Any, Iterator

from . import _detect, _options, _remote, _types
from . import _simdsv as _c

Error = _c.Error
__version__ = _c.version

__all__ = ["Error", "Table", "CsvStream", "read_csv", "infer_schema", "open_csv", "scan_csv", "records", "count",
           "__version__"]

_READ_KEYS = _options.DIALECT_KEYS + _options.TYPED_KEYS + _options.DATASET_KEYS


def _value_error(where: str, column: str, err: _types.CastError, header: int) -> Error:
    """simdsv.Error for a value that does not fit its narrower type (code SIMDSV_ERR_VALUE, record and reason)."""
    why = f"value {err.value!r} in column `{column}` does not fit {err.type_name}: {err.why}"
    exc = Error(f"{where}: data row {err.row + 1}: {why}")
    exc.code, exc.reason = "SIMDSV_ERR_VALUE", why
    exc.line = exc.column = exc.byte_offset = exc.field = 0
    exc.record = err.row + header
    return exc


def _cast_batch(batch: Any, casts: dict, where: str, header: int, first_row: int = 0) -> Any:
    """A pyarrow Table or RecordBatch with the narrower types asked for (casts: {name or position: ColumnType})."""
    import pyarrow as pa

    names = batch.schema.names
    columns = list(batch.columns)
    fields = list(batch.schema)
    for key, typ in casts.items():
        index = names.index(key) if key == "*" or key in names else None
        targets = range(len(names)) if key == "*" else [] if index is None else [index]
        for i in targets:
            try:
                columns[i] = _types.cast_column(columns[i], typ.arrow)
            except _types.CastError as e:
                e.row += first_row
                raise _value_error(where, names[i], e, header) from None
            fields[i] = pa.field(names[i], columns[i].type)
    schema = pa.schema(fields)
    if isinstance(batch, pa.RecordBatch):
        return pa.RecordBatch.from_arrays(columns, schema=schema)
    return pa.Table.from_arrays(columns, schema=schema)


class Table:
    """A CSV file read into typed columns, held as Arrow data.

    Implements the Arrow PyCapsule interface, so ``pyarrow.table(t)``,
    ``polars.DataFrame(t)`` and DuckDB take it without copying; it can be
    consumed any number of times.
    """

    __slots__ = ("_native", "_casts", "_cast_table", "_where", "_header")

    def __init__(self, native: Any, casts: dict | None = None, where: str = "", header: int = 1) -> None:
        self._native = native
        self._casts = _resolve_casts(casts, [c[0] for c in native.column_info])
        self._cast_table: Any = None
        self._where = where
        self._header = header
        if self._casts:
            self._cast_table = _cast_batch(_arrow_of(native), self._casts, where, header)

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any:
        if self._cast_table is not None:
            return self._cast_table.__arrow_c_stream__(requested_schema)
        return self._native.__arrow_c_stream__(requested_schema)

    def __arrow_c_schema__(self) -> Any:
        if self._cast_table is not None:
            return self._cast_table.schema.__arrow_c_schema__()
        return self._native.__arrow_c_schema__()

    def __arrow_c_array__(self, requested_schema: Any = None) -> Any:
        if self._cast_table is not None:
            return self._cast_table.to_struct_array().combine_chunks().__arrow_c_array__(requested_schema)
        if self._native.num_chunks > 1:  # a dataset's table: one array is a copy of its chunks
            return _arrow_of(self._native).to_struct_array().combine_chunks().__arrow_c_array__(requested_schema)
        return self._native.__arrow_c_array__(requested_schema)

    @property
    def num_rows(self) -> int:
        """Number of data rows."""
        return self._native.num_rows

    def __len__(self) -> int:
        return self._native.num_rows

    @property
    def column_names(self) -> list[str]:
        """Column names, in output order."""
        return [c[0] for c in self._native.column_info]

    @property
    def types(self) -> dict[str, str]:
        """Type per column: null, bool, int64, float64, date, timestamp, string, or the narrower type asked for
        (int32, float32, decimal128(10,2), time64[us], timestamp[ms,UTC], dictionary, ...)."""
        return {c[0]: self._casts[c[0]].name if c[0] in self._casts else c[1] for c in self._native.column_info}

    @property
    def reasons(self) -> dict[str, str]:
        """Why each column got its type (e.g. "string: leading zero in `00501` at line 17")."""
        return {c[0]: c[2] or "" for c in self._native.column_info}

    @property
    def rejects(self) -> list[tuple[int, int, int, int, str, str]]:
        """Values made null with on_error="null": (line, row, column, byte_offset, value, reason)."""
        return self._native.rejects

    def to_arrow(self) -> Any:
        """A pyarrow.Table sharing simdsv's buffers (no copy)."""
        return self._cast_table if self._cast_table is not None else _arrow_of(self._native)

    def to_pandas(self, dtype_backend: str | None = None, **kwargs: Any) -> Any:
        """A pandas.DataFrame (through pyarrow).

        dtype_backend: None or "numpy" (default: NumPy dtypes; dates and
        timestamps as datetime64, a column of ints with nulls as float64),
        "numpy_nullable" (Int64, Float64, boolean, string: pandas' nullable
        dtypes) or "pyarrow" (pd.ArrowDtype), as pandas names them.  Other
        keyword arguments go to pyarrow.Table.to_pandas.
        """
        return arrow_to_pandas(self.to_arrow(), dtype_backend, **kwargs)

    def to_polars(self) -> Any:
        """A polars.DataFrame sharing simdsv's buffers (no copy)."""
        import polars

        return polars.DataFrame(self)

    def __repr__(self) -> str:
        cols = ", ".join(f"{n}: {t}" for n, t in self.types.items())
        return f"<simdsv.Table {self.num_rows} rows; {cols}>"


def _arrow_of(native: Any) -> Any:
    """A pyarrow.Table of the C table.  Not pyarrow.table(native): it first asks whether its argument is a
    pandas DataFrame, which imports pandas (0.3-0.7 s, more than the read of a 200 MB file) when the caller has
    not."""
    import pyarrow

    return pyarrow.RecordBatchReader._import_from_c_capsule(native.__arrow_c_stream__()).read_all()


def _resolve_casts(casts: dict | None, names: list[str]) -> dict:
    """{column name: ColumnType}: positions turned into the names of the columns read; "*" to every column the
    other keys do not name."""
    if not casts:
        return {}
    out: dict = {}
    every = casts.get("*")
    if every is not None:
        out = {n: every for n in names}
    for key, typ in casts.items():
        if key != "*":  # positions were turned into names before the read (_prepare)
            out[key] = typ
    return {k: v for k, v in out.items() if k in names}


_NULLABLE = None


def _nullable_dtypes() -> dict:
    global _NULLABLE
    if _NULLABLE is None:
        import pandas as pd
        import pyarrow as pa

        _NULLABLE = {pa.int8(): pd.Int8Dtype(), pa.int16(): pd.Int16Dtype(), pa.int32(): pd.Int32Dtype(),
                     pa.int64(): pd.Int64Dtype(), pa.uint8(): pd.UInt8Dtype(), pa.uint16(): pd.UInt16Dtype(),
                     pa.uint32(): pd.UInt32Dtype(), pa.uint64(): pd.UInt64Dtype(), pa.bool_(): pd.BooleanDtype(),
                     pa.float32(): pd.Float32Dtype(), pa.float64(): pd.Float64Dtype(),
                     pa.string(): pd.StringDtype(), pa.large_string(): pd.StringDtype(),
                     pa.string_view(): pd.StringDtype()}
    return _NULLABLE


def arrow_to_pandas(table: Any, dtype_backend: str | None = None, **kwargs: Any) -> Any:
    """pyarrow Table -> pandas.DataFrame with simdsv's dtype_backend rules (shared with simdsv.dask)."""
    import pandas as pd

    if dtype_backend not in (None, "numpy", "numpy_nullable", "pyarrow"):
        raise ValueError(f"dtype_backend must be None, 'numpy', 'numpy_nullable' or 'pyarrow', got {dtype_backend!r}")
    if dtype_backend == "pyarrow":
        kwargs.setdefault("types_mapper", pd.ArrowDtype)
        # string views (string_view=True) as utf8: pandas' ArrowDtype methods run pyarrow compute functions, which
        # in pyarrow 26 mostly lack string_view kernels (filter, take, compare, sort)
        import pyarrow as pa

        if any(pa.types.is_string_view(t) for t in table.schema.types):
            table = table.cast(pa.schema([f.with_type(pa.string()) if pa.types.is_string_view(f.type) else f
                                          for f in table.schema]))
    elif dtype_backend == "numpy_nullable":
        kwargs.setdefault("types_mapper", _nullable_dtypes().get)
    kwargs.setdefault("date_as_object", False)  # dates as datetime64, as pandas' own parsers give them
    if not _pandas_copies_on_write(pd):
        return table.to_pandas(**kwargs)
    kwargs.setdefault("split_blocks", True)
    df = table.to_pandas(**kwargs)
    _copy_before_writing(df)
    return df


_ARROW_OWNS_IT: Any = None


def _pandas_copies_on_write(pd: Any) -> bool:
    return int(pd.__version__.split(".")[0]) >= 3


def _copy_before_writing(df: Any) -> None:
    """to_pandas(split_blocks=True) hands pandas the Arrow buffers of every column that needs no conversion (ints
    without nulls, floats, timestamps) instead of copying all columns of one dtype into one 2-D block: on taxi_200
    that block is 206 MB of fresh memory, whose first touch cost more CPU than the read (docs/BENCHMARKS.md, "to_pandas
    without the block copy").  Those arrays are read-only, and pandas writes into a column in place when no other
    object shares it (`df.loc[0, "a"] = 1`: "assignment destination is read-only").  pandas 3 copies on write
    whatever is shared, so each read-only column is marked as shared, with an object that lives as long as the
    module (a pandas block, as pandas wants it): the first write into it copies that column alone, and the Arrow
    table is never written."""
    import numpy as np
    import pandas as pd

    global _ARROW_OWNS_IT
    if _ARROW_OWNS_IT is None:
        _ARROW_OWNS_IT = pd.DataFrame({"arrow": np.empty(0)})._mgr.blocks[0]
    for block in df._mgr.blocks:
        values = getattr(block.values, "_ndarray", block.values)  # datetime64: a DatetimeArray over an ndarray
        if isinstance(values, np.ndarray) and not values.flags.writeable:
            block.refs.add_reference(_ARROW_OWNS_IT)


def _map_path(plan: Any, source: Any) -> None:
    """A file named by its path is mapped unless use_mmap says otherwise (as C's bench_read and polars map it):
    read() fills a fresh buffer as large as the file, whose first touch cost more than the typed read itself
    (docs/BENCHMARKS.md, Python against the C reader).  The price, documented: a file truncated while it is read
    raises SIGBUS."""
    if _c.OPT_MMAP not in plan.ints and isinstance(source, (str, os.PathLike)):
        plan.ints[_c.OPT_MMAP] = 1


class _Inputs:
    """Several inputs read as one table or stream (the library's simdsv_dataset): local paths, globs and folders
    (listed by the library), buffers, and remote objects (read through callbacks by byte ranges; each dataset
    made gets fresh readers, so the inputs can be read more than once)."""

    def __init__(self, items: list) -> None:
        self.items = items  # ("path", str) | ("memory", name, buffer) | ("remote", _remote.RemoteFile)

    def dataset(self, ints: dict, strings: dict) -> Any:
        return self.dataset_of(self.items, ints, strings)

    @staticmethod
    def dataset_of(items: list, ints: dict | None = None, strings: dict | None = None) -> Any:
        inputs = [("callback", item[1].name, item[1].reader(), item[1].size) if item[0] == "remote" else item
                  for item in items]
        return _options.call(_c.dataset, inputs, ints or {}, strings or {})


def _input_items(source: Any, storage_options: dict | None, index: int) -> list:
    """The dataset inputs one item of a source list names."""
    if _remote.is_url(source):
        files, _ = _remote.expand(source, storage_options, _remote.Secrets([source], storage_options))
        return [("remote", f) for f in files]
    if isinstance(source, (str, os.PathLike)):
        return [("path", _remote.local_path(os.fspath(source)))]
    if isinstance(source, (bytes, bytearray, memoryview)):
        return [("memory", f"<buffer {index}>", source)]
    raise TypeError(f"a list of inputs holds paths, URLs and buffers, got {type(source).__name__}")


def _inputs_of(source: Any, storage_options: dict | None, as_dataset: bool) -> tuple[Any, _Inputs | None]:
    """(the source read alone, None) or (None, the inputs read as one): a list, a glob, a folder, a URL of
    several objects, or any source when a dataset option (union_by_name, include_path_column, hive_partitioning)
    asks for it.  One remote object alone is read as a file object, by byte ranges."""
    if isinstance(source, (list, tuple)):
        return None, _Inputs([item for i, s in enumerate(source) for item in _input_items(s, storage_options, i)])
    if _remote.is_url(source):
        files, alone = _remote.expand(source, storage_options, _remote.Secrets([source], storage_options))
        if alone and not as_dataset:
            return files[0].reader(), None
        return None, _Inputs([("remote", f) for f in files])
    if storage_options is not None:
        raise ValueError("storage_options apply to URLs (s3://, https://, ...), not to a local path or a buffer")
    if isinstance(source, (str, os.PathLike)):
        path = _remote.local_path(os.fspath(source))
        if as_dataset or os.path.isdir(path) or (_remote.MAGIC.search(path) and not os.path.exists(path)):
            return None, _Inputs([("path", path)])
        return path, None
    if as_dataset and isinstance(source, (bytes, bytearray, memoryview)):
        return None, _Inputs([("memory", "<buffer>", source)])
    return source, None


def _prepare(function: str, source: Any, kwargs: dict, keys: tuple, stream: bool = False,
             records: bool = False) -> tuple[Any, Any]:
    """(the C layer's source, the Plan) of a call: keywords normalized, detection asked for (or done, for a file
    object read as it goes), usecols resolved with the header.  A URL of one object is read by byte ranges as a
    file object; a list, glob, folder or URL of several objects becomes _Inputs (one dataset)."""
    storage_options = kwargs.pop("storage_options", None)
    as_dataset = any(kwargs.get(k) not in (None, False)
                     for k in _options.DATASET_KEYS + ("include_file_paths",))
    source, inputs = _inputs_of(source, storage_options, as_dataset)
    if inputs is not None and function == "records":
        raise TypeError("records() reads one input: pass one path, URL or buffer (read_csv, open_csv and count "
                        "take several)")
    given = _options.normalize(function, kwargs, keys + _detect.KEYS)
    input_keys = {k: given.pop(k) for k in _detect.KEYS if k in given}
    plan = _options.build(function, **given)
    _detect.apply(plan, given, records=records, **input_keys)
    if inputs is not None:
        if _c.OPT_MMAP not in plan.ints:
            plan.ints[_c.OPT_MMAP] = 1  # the local files among them, as for one path (_map_path)
        src: Any = inputs
    else:
        _map_path(plan, source)
        src = _options.source(source, stream or isinstance(source, _remote.RangeReader))
        if hasattr(src, "read"):
            src = _detect.file_source(src, plan)
    if plan.usecols is not None or any(isinstance(k, int) for k in plan.casts):
        # pandas' usecols keeps the file's order and may be a callable over the names, and a narrower type given
        # by position is cast by name after the read: the names first.
        if hasattr(src, "read"):
            src = _options.source(src)  # read whole: the names are needed before the read
        ints = {k: v for k, v in plan.ints.items() if k != _c.OPT_ROW_LIMIT}
        strings = {k: v for k, v in plan.strings.items() if k not in (_c.OPT_COLUMNS, _c.OPT_SCHEMA)}
        names = [c[0] for c in _read_native(src, ints, strings, True).column_info]
        for key in [k for k in plan.casts if isinstance(k, int)]:
            if key >= len(names):
                raise ValueError(f"schema: no column at position {key} (the file has {len(names)})")
            plan.casts[names[key]] = plan.casts.pop(key)
        if plan.usecols is not None:
            _options.resolve_usecols(plan, names)
    return src, plan


def _read_native(src: Any, ints: dict, strings: dict, schema_only: bool) -> Any:
    if isinstance(src, _Inputs):
        # a file's rows are a chunk of their own, as pyarrow's and polars' dataset reads give them: joining
        # them into one record batch copies every value once more (docs/BENCHMARKS.md, many files as one table)
        dataset = src.dataset(ints, strings)
        return dataset.read(True) if schema_only else dataset.read_chunks()
    return _options.call(_c.read_table, src, ints, strings, schema_only)


def _where(source: Any) -> str:
    if isinstance(source, (list, tuple)):
        return "dataset"
    return _remote.shown(source) if isinstance(source, str) else "<buffer>"


def _name_narrow_types(exc: Exception, casts: dict) -> Exception:
    """A C error about a column read as a wider type, saying the type asked for ("of type int8", not int64)."""
    if getattr(exc, "code", None) != "SIMDSV_ERR_VALUE":
        return exc
    for name, typ in casts.items():
        said, meant = f"column `{name}` of type {typ.read_as}", f"column `{name}` of type {typ.name}"
        if said in str(exc):
            exc.args = (str(exc).replace(said, meant),)
            exc.reason = exc.reason.replace(said, meant)
    return exc


def _read(src: Any, plan: Any, schema_only: bool) -> Any:
    try:
        return _read_native(src, plan.ints, plan.strings, schema_only)
    except Error as e:
        raise _name_narrow_types(e, plan.casts) from None


def read_csv(source: Any, **kwargs: Any) -> Table:
    """Reads a whole CSV file into typed columns.

    source: a path, bytes-like object or binary file object (read whole),
      or an fsspec URL (s3://, https://, memory://, ...; storage_options=
      as fsspec takes them), read by byte ranges as it is parsed; or many
      as one table: a list of these, a glob or a folder (local or remote),
      with union_by_name=False (True: columns matched by name),
      hive_partitioning=None (key=value folders as columns; None: when
      every path has them) and include_path_column=False (True or a name:
      a column with each row's file).
    Keywords (simdsv's names; pandas' and polars' beside them, see
    docs/PYTHON.md):
      columns: names or 0-based positions to keep, in output order (a str is
        one column); usecols: the same in file order, or a callable over
        the names (pandas).
      schema / dtype: one type for every column, {column: type}, a
        pyarrow.Schema, or the C text "name:type,..."; a type is a Python,
        NumPy, pandas, pyarrow or Polars type or its name, narrower types
        (int8..uint64, float32, decimal128(p, s), time64, timestamp with a
        unit or a zone, dictionary/category) read exactly; columns not named
        are inferred.
      threads: worker threads (None: all cores).
      null_values / na_values: tokens read as null (a str, a list, or
        {column: token or list}); an empty unquoted field is always null;
        keep_default_na=True adds pandas' default tokens (default False).
      delimiter / sep (1 to 4 bytes), quote / quotechar (None: no quoting),
      escape / escapechar, comment, header (True/False, or pandas' row
      number, None, 'infer': a header unless names are given), names
      (replace the header row when there is one), skip_lines / skiprows,
      lenient, utf8="strict" ("lossy", "none"), infer_rows=10000 (None:
      every row), row_limit / nrows, on_error="fail" ("null": values that do
      not fit a given type become null and are listed in Table.rejects),
      short_rows="pad" ("truncate", "error"), long_rows="error"
      ("truncate"), decimal_comma / decimal=",", thousands, date_format /
      dayfirst (non-ISO dates: the date order), parse_dates (columns read
      as timestamps), true_values, false_values, use_mmap / memory_map
      (default True for a path: mapped; False: read with read()).
      string_view: string columns as Arrow string views (pyarrow
        string_view) whose long strings point into the input's own bytes,
        kept alive by the table; False: Arrow utf8, every string copied
        (default: see docs/PYTHON.md).
      low_memory and engine are accepted and have no effect.
      sniff=True: the encoding, dialect and layout of every setting not given
        are detected as the simdsv command does (sniff=False: the defaults);
        encoding=None (detected) or a name ("latin1", "utf-16le", ...);
        compression="infer" (gzip and zstd by their first bytes), "gzip",
        "zstd" or None.  Every reader takes these.
    Raises simdsv.Error with the line, column and byte offset of bad data;
    TypeError for an unknown keyword (naming the closest known one).
    """
    src, plan = _prepare("read_csv", source, kwargs, _READ_KEYS)
    native = _read(src, plan, plan.schema_only)
    return Table(native, plan.casts, _where(source), plan.ints.get(_c.OPT_HEADER, 1))


def infer_schema(source: Any, **kwargs: Any) -> Table:
    """Only the columns' names and types (a Table without rows), from the inference sample.

    A record of the sample's start that does not parse (the first one
    included) raises the simdsv.Error read_csv raises for it.
    """
    src, plan = _prepare("infer_schema", source, kwargs, _READ_KEYS)
    native = _read(src, plan, True)
    return Table(native, plan.casts, _where(source), plan.ints.get(_c.OPT_HEADER, 1))


class CsvStream:
    """Record batches of a CSV file read in bounded memory (from open_csv).

    Iterating yields pyarrow.RecordBatch objects; ``__arrow_c_stream__``
    hands the whole stream to a consumer (pyarrow.RecordBatchReader.from_stream,
    polars, duckdb) instead.  Either way it is read once.
    """

    def __init__(self, native: Any, casts: dict | None = None, where: str = "", header: int = 1,
                 schema_only: bool = False) -> None:
        self._native = native
        self._schema: Any = None
        self._casts = casts or {}
        self._where = where
        self._header = header
        self._rows = 0
        self._schema_only = schema_only

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any:
        if self._casts or self._schema_only:
            import pyarrow

            reader = pyarrow.RecordBatchReader.from_batches(self.schema, iter(self))
            return reader.__arrow_c_stream__(requested_schema)
        return self._native.__arrow_c_stream__(requested_schema)

    @property
    def schema(self) -> Any:
        """The pyarrow.Schema of every batch."""
        if self._schema is None:
            import pyarrow

            schema = pyarrow.Schema._import_from_c_capsule(self._native.schema_capsule())
            if self._casts:
                self._casts = _resolve_casts(self._casts, schema.names)
                schema = _cast_batch(schema.empty_table(), self._casts, self._where, self._header).schema
            self._schema = schema
        return self._schema

    def __iter__(self) -> Iterator[Any]:
        import pyarrow

        schema = self.schema
        if self._schema_only:
            return
        read_schema = pyarrow.Schema._import_from_c_capsule(self._native.schema_capsule()) if self._casts else schema
        while True:
            capsule = self._native.next_batch()
            if capsule is None:
                return
            array = pyarrow.Array._import_from_c_capsule(read_schema.__arrow_c_schema__(), capsule)
            batch = pyarrow.RecordBatch.from_struct_array(array)
            if self._casts:
                batch = _cast_batch(batch, self._casts, self._where, self._header, self._rows)
            self._rows += batch.num_rows
            yield batch

    def read_all(self) -> Any:
        """All remaining batches as one pyarrow.Table."""
        import pyarrow

        return pyarrow.Table.from_batches(list(self), schema=self.schema)

    def close(self) -> None:
        """Releases the reader (and the file)."""
        self._native.close()

    def __enter__(self) -> "CsvStream":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def open_csv(source: Any, *, batch_rows: int = 65536, **kwargs: Any) -> CsvStream:
    """Streams a CSV file as record batches of at most batch_rows rows, in bounded memory.

    source: a path, a buffer, or a file object (binary or text), read as the
    batches are.  Takes read_csv's keyword arguments.  Types are fixed from
    the first 8 MiB of data (and the schema given): a later value that does
    not fit is an error with its position (or a null with on_error="null").
    """
    kwargs["batch_rows"] = batch_rows
    src, plan = _prepare("open_csv", source, kwargs, _READ_KEYS + ("batch_rows",), stream=True)
    if isinstance(src, _Inputs):
        native = src.dataset(plan.ints, plan.strings).open_stream()
    else:
        native = _options.call(_c.open_stream, src, plan.ints, plan.strings)
    return CsvStream(native, plan.casts, _where(source), plan.ints.get(_c.OPT_HEADER, 1), plan.schema_only)


def records(source: Any, **kwargs: Any) -> Any:
    """Iterates the data records as lists of str (quotes removed, escapes decoded).

    The returned iterator's ``header`` is the header row (or None).  Takes
    the dialect keyword arguments of read_csv (header: detected unless
    given); a file object is read as the records are.
    """
    src, plan = _prepare("records", source, kwargs, _options.DIALECT_KEYS, stream=True, records=True)
    lossy = plan.ints.get(_c.OPT_UTF8, _c.UTF8_STRICT) != _c.UTF8_STRICT
    return _options.call(_c.records, src, plan.ints, plan.strings, lossy, bool(plan.ints.get(_c.OPT_HEADER, 1)))


def count(source: Any, **kwargs: Any) -> int:
    """The number of data records (quote-aware; on several threads for large files)."""
    src, plan = _prepare("count", source, kwargs, _options.DIALECT_KEYS, stream=True, records=True)
    if not isinstance(src, _Inputs):
        return _options.call(_c.count, src, plan.ints, plan.strings)
    # Several inputs: each counted as it is read alone (its own detection), as the dataset reads it.
    total = 0
    for item in src.items:
        if item[0] == "path":  # a glob or a folder: its files as the library lists them
            ones: list = src.dataset_of([item]).files()
        else:
            ones = [item[1].reader() if item[0] == "remote" else memoryview(item[2])]
        for one in ones:
            own = _options.Plan()
            own.ints, own.strings = dict(plan.ints), dict(plan.strings)
            if hasattr(one, "read"):
                one = _detect.file_source(one, own)
            total += _options.call(_c.count, one, own.ints, own.strings)
    return total


# Last: _scan uses the names above (and simdsv.dask's schema helpers, which import them too).
from ._scan import scan_csv  # noqa: E402
