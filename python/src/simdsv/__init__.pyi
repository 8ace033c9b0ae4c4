from typing import Any, Iterable, Iterator, Literal, Mapping, Union
import os

_Source = Union[str, os.PathLike[str], bytes, bytearray, memoryview, Any]
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
    def to_pandas(self, **kwargs: Any) -> Any: ...
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

def read_csv(
    source: _Source,
    *,
    columns: Iterable[Union[str, int]] | None = ...,
    schema: _Schema | None = ...,
    threads: int | None = ...,
    null_values: Iterable[str] | Mapping[str, str] | str | None = ...,
    true_values: Iterable[str] | None = ...,
    false_values: Iterable[str] | None = ...,
    delimiter: str = ...,
    quote: str | None = ...,
    escape: str | None = ...,
    comment: str | None = ...,
    header: bool = ...,
    names: Iterable[str] | None = ...,
    skip_lines: int = ...,
    lenient: bool = ...,
    utf8: Literal["strict", "lossy", "none"] = ...,
    infer_rows: int | None = ...,
    row_limit: int | None = ...,
    on_error: Literal["fail", "null"] = ...,
    short_rows: Literal["pad", "truncate", "error"] = ...,
    long_rows: Literal["pad", "truncate", "error"] = ...,
    decimal_comma: bool = ...,
    use_mmap: bool = ...,
    sniff: bool = ...,
    encoding: str | None = ...,
    compression: Literal["infer", "gzip", "zstd"] | None = ...,
) -> Table: ...
def infer_schema(source: _Source, **kwargs: Any) -> Table: ...
def open_csv(source: _Source, *, batch_rows: int = ..., **kwargs: Any) -> CsvStream: ...
def records(source: _Source, *, header: bool | None = ..., utf8: str = ..., **kwargs: Any) -> Records: ...
def count(source: _Source, *, threads: int | None = ..., **kwargs: Any) -> int: ...
