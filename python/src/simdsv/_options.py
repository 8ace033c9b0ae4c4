"""Keyword arguments -> the option dicts the C layer takes ({id: int}, {id: str})."""

from __future__ import annotations

import os
from typing import Any, Iterable, Mapping

from . import _simdsv as _c

_UTF8 = {"strict": _c.UTF8_STRICT, "lossy": _c.UTF8_LOSSY, "none": _c.UTF8_NONE}
_ON_ERROR = {"fail": _c.ON_ERROR_FAIL, "null": _c.ON_ERROR_NULL}
_RAGGED = {"error": _c.RAGGED_ERROR, "pad": _c.RAGGED_PAD, "truncate": _c.RAGGED_TRUNCATE}

# pyarrow / numpy-ish spellings of the simdsv types.
_TYPE_ALIASES = {
    "double": "float64",
    "float": "float64",
    "int": "int64",
    "large_string": "string",
    "large_utf8": "string",
    "utf8": "string",
    "str": "string",
    "boolean": "bool",
    "date32[day]": "date",
    "date32": "date",
}


def _byte(name: str, value: Any, allow_none: bool) -> int:
    if value is None:
        if allow_none:
            return -1
        raise ValueError(f"{name} cannot be None")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        data = value.encode("utf-8")
        if len(data) == 1:
            return data[0]
    raise ValueError(f"{name} must be one ASCII character, got {value!r}")


def _escape_item(item: Any) -> str:
    return str(item).replace("\\", "\\\\").replace(",", "\\,")


def join_list(items: Iterable[Any]) -> str:
    """A list option: items joined by commas, commas and backslashes escaped."""
    return ",".join(_escape_item(i) for i in items)


def type_name(value: Any) -> str:
    """A simdsv type name from a str or a pyarrow DataType."""
    text = str(value).strip()
    if text.startswith("timestamp"):
        return "timestamp"
    return _TYPE_ALIASES.get(text, text)


def schema_spec(schema: Any) -> str | None:
    """SIMDSV_OPT_SCHEMA text from a dict {column: type}, a pyarrow Schema or the text itself."""
    if schema is None:
        return None
    if isinstance(schema, str):
        return schema
    if hasattr(schema, "names") and hasattr(schema, "types"):  # pyarrow.Schema
        schema = dict(zip(schema.names, schema.types))
    items = []
    for column, typ in dict(schema).items():
        key = f"#{column + 1}" if isinstance(column, int) else str(column)
        items.append(f"{_escape_item(key)}:{type_name(typ)}")
    return ",".join(items)


def build(
    *,
    delimiter: Any = ",",
    quote: Any = '"',
    escape: Any = None,
    comment: Any = None,
    header: bool = True,
    skip_lines: int = 0,
    lenient: bool = False,
    utf8: str = "strict",
    threads: int | None = None,
    infer_rows: int | None = 10000,
    row_limit: int | None = None,
    on_error: str = "fail",
    short_rows: str = "pad",
    long_rows: str = "error",
    decimal_comma: bool = False,
    batch_rows: int | None = None,
    null_values: Iterable[str] | Mapping[str, str] | None = None,
    true_values: Iterable[str] | None = None,
    false_values: Iterable[str] | None = None,
    columns: Iterable[Any] | None = None,
    schema: Any = None,
    names: Iterable[str] | None = None,
    use_mmap: bool = False,
) -> tuple[dict[int, int], dict[int, str]]:
    try:
        ints = {
            _c.OPT_DELIMITER: _byte("delimiter", delimiter, False),
            _c.OPT_QUOTE: _byte("quote", quote, True),
            _c.OPT_ESCAPE: _byte("escape", escape, True),
            _c.OPT_COMMENT: _byte("comment", comment, True),
            _c.OPT_HEADER: int(bool(header)),
            _c.OPT_SKIP_LINES: int(skip_lines),
            _c.OPT_LENIENT: int(bool(lenient)),
            _c.OPT_UTF8: _UTF8[utf8],
            _c.OPT_THREADS: 0 if threads is None else int(threads),
            _c.OPT_INFER_ROWS: -1 if infer_rows is None else int(infer_rows),
            _c.OPT_ROW_LIMIT: 0 if row_limit is None else int(row_limit),
            _c.OPT_ON_ERROR: _ON_ERROR[on_error],
            _c.OPT_SHORT_ROWS: _RAGGED[short_rows],
            _c.OPT_LONG_ROWS: _RAGGED[long_rows],
            _c.OPT_DECIMAL_COMMA: int(bool(decimal_comma)),
            _c.OPT_MMAP: int(bool(use_mmap)),
        }
    except KeyError as e:
        raise ValueError(f"unknown value {e.args[0]!r}") from None
    if threads is not None and threads < 1:
        raise ValueError("threads must be at least 1 (None: all cores)")
    if batch_rows is not None:
        ints[_c.OPT_BATCH_ROWS] = int(batch_rows)
    strings: dict[int, str] = {}
    if null_values is not None:
        if isinstance(null_values, Mapping):
            strings[_c.OPT_NULL_VALUES] = join_list(f"{k}={v}" for k, v in null_values.items())
        elif isinstance(null_values, str):
            strings[_c.OPT_NULL_VALUES] = _escape_item(null_values)
        else:
            strings[_c.OPT_NULL_VALUES] = join_list(null_values)
    if true_values is not None:
        strings[_c.OPT_TRUE_VALUES] = join_list(true_values)
    if false_values is not None:
        strings[_c.OPT_FALSE_VALUES] = join_list(false_values)
    if columns is not None:
        strings[_c.OPT_COLUMNS] = join_list(f"#{c + 1}" if isinstance(c, int) else c for c in columns)
    spec = schema_spec(schema)
    if spec:
        strings[_c.OPT_SCHEMA] = spec
    if names is not None:
        strings[_c.OPT_NAMES] = join_list(names)
    return ints, strings


def source(src: Any) -> Any:
    """What the C layer reads: a path (str/bytes/PathLike) or a buffer; a file object is read whole."""
    if isinstance(src, (str, os.PathLike)):
        return src
    if isinstance(src, (bytes, bytearray, memoryview)):
        return memoryview(src)
    if hasattr(src, "read"):
        data = src.read()
        if isinstance(data, str):
            data = data.encode("utf-8")
        return memoryview(data)
    try:
        return memoryview(src)
    except TypeError:
        raise TypeError(f"expected a path, bytes or a binary file object, got {type(src).__name__}") from None
