from typing import Any, Callable, Iterable, Iterator, Literal, Mapping, Union
import os

_Source = Union[str, os.PathLike[str], bytes, bytearray, memoryview, list, tuple, Any]
_Schema = Union[str, Mapping[Union[str, int], Any], Any]

__version__: str

class Error(ValueError):
    code: str
    line: int
    column: int
    byte_offset: int
    record: int
    field: int
    reason: str

class Table:
    def __arrow_c_stream__(self, requested_schema: Any = ...) -> Any: ...
    def __arrow_c_schema__(self) -> Any: ...
    def __arrow_c_array__(self, requested_schema: Any = ...) -> tuple[Any, Any]: ...
    @property
    def num_rows(self) -> int: ...
    def __len__(self) -> int: ...
    @property
    def column_names(self) -> list[str]: ...  # unique: a,b,a -> a, b, a_2; an empty name -> column_N
    @property
    def types(self) -> dict[str, str]: ...
    @property
    def reasons(self) -> dict[str, str]: ...
    @property
    def rejects(self) -> list[tuple[int, int, int, int, str, str]]: ...
    def to_arrow(self) -> Any: ...
    def to_pandas(self, dtype_backend: Literal["numpy", "numpy_nullable", "pyarrow"] | None = ..., **kwargs: Any) -> Any: ...
    def to_polars(self) -> Any: ...

class CsvStream:
    def __arrow_c_stream__(self, requested_schema: Any = ...) -> Any: ...
    @property
    def schema(self) -> Any: ...
    def __iter__(self) -> Iterator[Any]: ...
    def read_all(self) -> Any: ...
    def close(self) -> None: ...
    def __enter__(self) -> CsvStream: ...
    def __exit__(self, *exc: Any) -> None: ...

class Records(Iterator[list[str]]):
    header: list[str] | None
    def __next__(self) -> list[str]: ...

_Type = Any  # a Python, NumPy, pandas, pyarrow or Polars type, or its name ("int32", "float32", "category", ...)
_TypeSpec = Union[_Type, Mapping[Union[str, int], _Type], str]
_Columns = Union[str, int, Iterable[Union[str, int]]]
_Nulls = Union[str, Iterable[str], Mapping[str, Union[str, Iterable[str]]]]
_Header = Union[bool, int, None, Literal["infer"]]

def read_csv(
    source: _Source,
    *,
    columns: _Columns | None = ...,
    usecols: _Columns | Callable[[str], bool] | None = ...,
    schema: _TypeSpec | None = ...,
    dtype: _TypeSpec | None = ...,
    schema_overrides: _TypeSpec | None = ...,
    threads: int | None = ...,
    n_threads: int | None = ...,
    null_values: _Nulls | None = ...,
    na_values: _Nulls | None = ...,
    keep_default_na: bool = ...,
    true_values: Iterable[str] | None = ...,
    false_values: Iterable[str] | None = ...,
    delimiter: str = ...,
    sep: str = ...,
    separator: str = ...,
    quote: str | None = ...,
    quotechar: str | None = ...,
    quote_char: str | None = ...,
    quoting: Literal[0, 3] | None = ...,
    escape: str | None = ...,
    escapechar: str | None = ...,
    comment: str | None = ...,
    comment_prefix: str | None = ...,
    header: _Header = ...,
    has_header: bool = ...,
    names: Iterable[str] | None = ...,
    new_columns: Iterable[str] | None = ...,
    skip_lines: int = ...,
    skiprows: int = ...,
    skip_rows: int = ...,
    lenient: bool = ...,
    utf8: Literal["strict", "lossy", "none"] = ...,
    infer_rows: int | None = ...,
    infer_schema_length: int | None = ...,
    row_limit: int | None = ...,
    nrows: int | None = ...,
    n_rows: int | None = ...,
    on_error: Literal["fail", "null"] = ...,
    short_rows: Literal["pad", "truncate", "error"] = ...,
    long_rows: Literal["truncate", "error"] = ...,
    truncate_ragged_lines: bool = ...,
    decimal_comma: bool = ...,
    decimal: Literal[".", ","] = ...,
    thousands: Literal[",", ".", " ", "'", "_"] | None = ...,
    parse_dates: bool | Iterable[Union[str, int]] | None = ...,
    try_parse_dates: bool = ...,
    date_format: str | None = ...,
    dayfirst: bool = ...,
    use_mmap: bool = ...,
    memory_map: bool = ...,
    string_view: bool | None = ...,
    low_memory: bool = ...,
    engine: str | None = ...,
    sniff: bool = ...,
    encoding: str | None = ...,
    compression: Literal["infer", "gzip", "zstd"] | None = ...,
    storage_options: Mapping[str, Any] | None = ...,
    union_by_name: bool = ...,
    hive_partitioning: bool | None = ...,
    include_path_column: bool | str = ...,
    include_file_paths: str | None = ...,
) -> Table: ...
def infer_schema(source: _Source, **kwargs: Any) -> Table: ...
# A polars.LazyFrame (Any here: polars is an optional dependency).  Takes read_csv's keywords; a file object is
# read whole.  Projection, n_rows and predicates are pushed down to the reader.
def scan_csv(source: _Source, *, batch_rows: int | None = ..., **kwargs: Any) -> Any: ...
def open_csv(source: _Source, *, batch_rows: int = ..., **kwargs: Any) -> CsvStream: ...
def records(source: _Source, **kwargs: Any) -> Records: ...
def count(source: _Source, **kwargs: Any) -> int: ...
