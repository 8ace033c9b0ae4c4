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
bounded memory, ``records`` iterates rows as lists of str, ``count`` counts
rows, and ``simdsv.dask.read_csv`` reads one file on many Dask workers.
Errors raise ``simdsv.Error`` (a ValueError) with ``line``, ``column``,
``byte_offset``, ``record``, ``field``, ``code`` and ``reason``.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

from . import _detect, _options
from . import _simdsv as _c

Error = _c.Error
__version__ = _c.version

__all__ = ["Error", "Table", "CsvStream", "read_csv", "infer_schema", "open_csv", "records", "count", "__version__"]

_POSITION = re.compile(r"line (\d+), column (\d+) \(byte (\d+)\): (.*)$", re.S)


class Table:
    """A CSV file read into typed columns, held as Arrow data.

    Implements the Arrow PyCapsule interface, so ``pyarrow.table(t)``,
    ``polars.DataFrame(t)`` and DuckDB take it without copying; it can be
    consumed any number of times.
    """

    __slots__ = ("_native",)

    def __init__(self, native: Any) -> None:
        self._native = native

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any:
        return self._native.__arrow_c_stream__(requested_schema)

    def __arrow_c_schema__(self) -> Any:
        return self._native.__arrow_c_schema__()

    def __arrow_c_array__(self, requested_schema: Any = None) -> Any:
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
        """simdsv type per column: null, bool, int64, float64, date, timestamp or string."""
        return {c[0]: c[1] for c in self._native.column_info}

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
        import pyarrow

        # Not pyarrow.table(self): it first asks whether self is a pandas
        # DataFrame, which imports pandas (0.3-0.7 s, more than the read of
        # a 200 MB file) when the caller has not.
        return pyarrow.RecordBatchReader._import_from_c_capsule(self.__arrow_c_stream__()).read_all()

    def to_pandas(self, **kwargs: Any) -> Any:
        """A pandas.DataFrame (through pyarrow; keyword arguments go to pyarrow.Table.to_pandas)."""
        return self.to_arrow().to_pandas(**kwargs)

    def to_polars(self) -> Any:
        """A polars.DataFrame sharing simdsv's buffers (no copy)."""
        import polars

        return polars.DataFrame(self)

    def __repr__(self) -> str:
        cols = ", ".join(f"{n}: {t}" for n, t in self.types.items())
        return f"<simdsv.Table {self.num_rows} rows; {cols}>"


def read_csv(
    source: Any,
    *,
    columns: Any = None,
    schema: Any = None,
    threads: int | None = None,
    null_values: Any = None,
    **options: Any,
) -> Table:
    """Reads a whole CSV file into typed columns.

    source: a path, bytes-like object or binary file object (read whole).
    columns: names or 0-based indexes to keep, in output order.
    schema: {column: type} (types "int64", "float64", "bool", "date",
      "timestamp", "string", or pyarrow types), a pyarrow.Schema, or
      "name:type,..."; columns not named are inferred.
    threads: worker threads (None: all cores).
    null_values: tokens read as null (a list, or {column: token}); an empty
      unquoted field is always null.
    Other options (keywords):
      delimiter=",", quote='"' (None: no quoting), escape=None, comment=None,
      header=True, names=None (column names when header=False),
      skip_lines=0, lenient=False, utf8="strict" ("lossy", "none"),
      infer_rows=10000 (rows sampled at the start, middle and end; None: all;
      a later value that does not fit widens the column), row_limit=None,
      on_error="fail" ("null": values that do not fit a given type become
      null and are listed in Table.rejects), short_rows="pad",
      long_rows="error" ("pad", "truncate", "error"), decimal_comma=False,
      true_values, false_values, use_mmap=False.
    sniff=True: the encoding, dialect and layout of every setting not given
      are detected as the simdsv command does (sniff=False: the defaults);
      encoding=None (detected) or a name ("latin1", "utf-16le", ...);
      compression="infer" (gzip and zstd by their first bytes), "gzip",
      "zstd" or None.  Every reader takes these.
    Raises simdsv.Error with the line, column and byte offset of bad data.
    """
    ints, strings = _detect.build(columns=columns, schema=schema, threads=threads, null_values=null_values, **options)
    return Table(_c.read_table(_options.source(source), ints, strings))


def infer_schema(source: Any, **kwargs: Any) -> Table:
    """Only the columns' names and types (a Table without rows), from the inference sample."""
    ints, strings = _detect.build(**kwargs)
    return Table(_c.read_table(_options.source(source), ints, strings, True))


def _positioned(exc: Exception) -> Error:
    """A stream's error text ("path: line L, column C (byte B): why") as simdsv.Error with positions."""
    text = str(exc)
    err = Error(text)
    m = _POSITION.search(text)
    if m:
        err.line, err.column, err.byte_offset = (int(m.group(i)) for i in (1, 2, 3))
        err.reason = m.group(4)
    return err


class CsvStream:
    """Record batches of a CSV file read in bounded memory (from open_csv).

    Iterating yields pyarrow.RecordBatch objects; ``__arrow_c_stream__``
    hands the whole stream to a consumer (pyarrow.RecordBatchReader.from_stream,
    polars, duckdb) instead.  Either way it is read once.
    """

    def __init__(self, native: Any) -> None:
        self._native = native
        self._schema: Any = None

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any:
        return self._native.__arrow_c_stream__(requested_schema)

    @property
    def schema(self) -> Any:
        """The pyarrow.Schema of every batch."""
        if self._schema is None:
            import pyarrow

            try:
                self._schema = pyarrow.Schema._import_from_c_capsule(self._native.schema_capsule())
            except Error as e:
                raise _positioned(e) from None
        return self._schema

    def __iter__(self) -> Iterator[Any]:
        import pyarrow

        schema = self.schema
        while True:
            try:
                capsule = self._native.next_batch()
            except Error as e:
                raise _positioned(e) from None
            if capsule is None:
                return
            array = pyarrow.Array._import_from_c_capsule(schema.__arrow_c_schema__(), capsule)
            yield pyarrow.RecordBatch.from_struct_array(array)

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

    Takes read_csv's keyword arguments.  Types are fixed from the first 8 MiB
    of data (and the schema given): a later value that does not fit is an
    error with its position (or a null with on_error="null").
    """
    ints, strings = _detect.build(batch_rows=batch_rows, **kwargs)
    return CsvStream(_c.open_stream(_options.source(source), ints, strings))


def records(source: Any, *, header: bool | None = None, utf8: str = "strict", **kwargs: Any) -> Any:
    """Iterates the data records as lists of str (quotes removed, escapes decoded).

    The returned iterator's ``header`` is the header row (or None).
    header: True / False, or None (default) to detect it.
    Takes the dialect keyword arguments of read_csv.
    """
    if header is not None:
        kwargs["header"] = header
    ints, strings = _detect.build(records=True, utf8=utf8, **kwargs)
    return _c.records(_options.source(source), ints, strings, utf8 != "strict", header is not False)


def count(source: Any, *, threads: int | None = None, **kwargs: Any) -> int:
    """The number of data records (quote-aware; on several threads for large files)."""
    ints, strings = _detect.build(records=True, threads=threads, **kwargs)
    return _c.count(_options.source(source), ints, strings)
