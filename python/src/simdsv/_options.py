"""Keyword arguments -> the option dicts the C layer takes ({id: int}, {id: str}).

The one place where simdsv's own keyword names and the pandas / polars names
(``sep``, ``usecols``, ``dtype``, ``na_values``, ``nrows``, ``separator``,
``n_rows``, ...) meet: every public function normalizes its keywords here,
so an alias means the same thing everywhere and an unknown keyword is a
TypeError naming the closest known one.  Only options given are set: the
C library's defaults (and its detection, when on) decide the rest.
"""

from __future__ import annotations

import difflib
import os
from typing import Any, Callable, Iterable, Mapping

from . import _simdsv as _c
from ._types import ColumnType, column_type

_UTF8 = {"strict": _c.UTF8_STRICT, "lossy": _c.UTF8_LOSSY, "none": _c.UTF8_NONE}
_ON_ERROR = {"fail": _c.ON_ERROR_FAIL, "null": _c.ON_ERROR_NULL}
_SHORT_ROWS = {"error": _c.RAGGED_ERROR, "pad": _c.RAGGED_PAD, "truncate": _c.RAGGED_TRUNCATE}
# A row longer than the header cannot be padded: only cut or refused.
_LONG_ROWS = {"error": _c.RAGGED_ERROR, "truncate": _c.RAGGED_TRUNCATE}
_DATE_ORDERS = {"iso": _c.DATE_ISO, "dmy": _c.DATE_DMY, "mdy": _c.DATE_MDY, "ymd": _c.DATE_YMD}

# pandas' default missing-value strings (keep_default_na=True), as pandas 3 lists them.
PANDAS_DEFAULT_NA = ("", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
                     "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null")

# simdsv's keywords: those of the reader's dialect (every function), those of
# the typed reader (read_csv, infer_schema, open_csv, the Dask reader).
DIALECT_KEYS = ("delimiter", "quote", "escape", "comment", "header", "names", "skip_lines", "lenient", "utf8",
                "threads", "use_mmap")
TYPED_KEYS = ("columns", "usecols", "schema", "null_values", "keep_default_na", "true_values", "false_values",
              "infer_rows", "row_limit", "on_error", "short_rows", "long_rows", "decimal_comma", "decimal",
              "thousands", "parse_dates", "date_format", "dayfirst", "low_memory", "engine", "try_parse_dates",
              "quoting", "string_view")

# Many inputs read as one (a list, a glob, a folder, a URL of several objects): the library's dataset options.
DATASET_KEYS = ("union_by_name", "include_path_column", "hive_partitioning")
_HIVE = {None: _c.HIVE_AUTO, True: _c.HIVE_ON, False: _c.HIVE_OFF}

# pandas / polars spelling -> simdsv's.  Where both are given, that is a TypeError.
ALIASES = {
    "sep": "delimiter",
    "separator": "delimiter",
    "quotechar": "quote",
    "quote_char": "quote",
    "escapechar": "escape",
    "comment_prefix": "comment",
    "has_header": "header",
    "new_columns": "names",
    "skiprows": "skip_lines",
    "skip_rows": "skip_lines",
    "n_threads": "threads",
    "memory_map": "use_mmap",
    "dtype": "schema",
    "dtypes": "schema",
    "schema_overrides": "schema",
    "na_values": "null_values",
    "nrows": "row_limit",
    "n_rows": "row_limit",
    "infer_schema_length": "infer_rows",
    "truncate_ragged_lines": "long_rows",
    "include_file_paths": "include_path_column",
}


def _closest(key: str, known: Iterable[str]) -> str:
    match = difflib.get_close_matches(key, list(known), n=1, cutoff=0.5)
    return f"; did you mean {match[0]!r}?" if match else ""


def normalize(function: str, kwargs: Mapping[str, Any], known: Iterable[str]) -> dict[str, Any]:
    """kwargs with aliases replaced by simdsv's names; TypeError for an unknown or doubled keyword."""
    known = tuple(known)
    names = set(known) | {a for a, k in ALIASES.items() if k in known}
    out: dict[str, Any] = {}
    given_as: dict[str, str] = {}
    for key, value in kwargs.items():
        if key not in names:
            raise TypeError(f"{function}() got an unexpected keyword argument {key!r}{_closest(key, names)}")
        canonical = ALIASES.get(key, key)
        if key == "truncate_ragged_lines":
            value = "truncate" if value else "error"
        if canonical in out:
            raise TypeError(f"{function}() got {given_as[canonical]!r} and {key!r}, which mean the same option")
        out[canonical] = value
        given_as[canonical] = key
    return out


def _byte(name: str, value: Any) -> int:
    if value is None:
        return -1
    if isinstance(value, str) and len(value.encode("utf-8")) == 1:
        return value.encode("utf-8")[0]
    raise ValueError(f"{name} must be one ASCII character or None, got {value!r}")


def _escape_item(item: Any) -> str:
    return str(item).replace("\\", "\\\\").replace(",", "\\,")


def join_list(items: Iterable[Any]) -> str:
    """A list option: items joined by commas, commas and backslashes escaped."""
    return ",".join(_escape_item(i) for i in items)


def _count(name: str, value: Any, least: int, none_means: str | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        tail = f", or None for {none_means}" if none_means else ""
        raise ValueError(f"{name} must be an integer of at least {least}{tail}, got {value!r}")
    return value


def _choice(name: str, value: Any, choices: Mapping[str, int]) -> int:
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}, got {value!r}")
    return choices[value]


def _strings(name: str, value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    try:
        return [str(v) for v in value]
    except TypeError:
        raise TypeError(f"{name} must be a str or a list of str, got {type(value).__name__}") from None


def null_spec(null_values: Any, keep_default_na: bool) -> str | None:
    """SIMDSV_OPT_NULL_VALUES text: a token, a list, or {column: token or list} (per-column tokens)."""
    items: list[str] = list(PANDAS_DEFAULT_NA[1:]) if keep_default_na else []
    if isinstance(null_values, Mapping):
        for column, tokens in null_values.items():
            items += [f"{column}={t}" for t in _strings(f"null_values[{column!r}]", tokens)]
    elif null_values is not None:
        items += _strings("null_values", null_values)
    return join_list(items) if items else None


# strftime formats of the date orders the C reader knows (pandas date_format).
_DATE_FORMAT_ORDER = {"%Y-%m-%d": "iso", "ISO8601": "iso", "%d/%m/%Y": "dmy", "%d.%m.%Y": "dmy", "%d-%m-%Y": "dmy",
                      "%d/%m/%y": "dmy", "%d.%m.%y": "dmy", "%m/%d/%Y": "mdy", "%m-%d-%Y": "mdy", "%m/%d/%y": "mdy",
                      "%Y/%m/%d": "ymd", "%Y.%m.%d": "ymd"}


def date_order_of(date_format: str) -> str:
    """The date order of a strftime format: its date part (a time may follow after a space or 'T')."""
    date_part = date_format.replace("T", " ").split(" ", 1)[0]
    if date_part not in _DATE_FORMAT_ORDER:
        raise ValueError(f"date_format {date_format!r} is not one the reader knows: day, month, year in an order of "
                         f"{', '.join(sorted(_DATE_FORMAT_ORDER))} (a time may follow)")
    return _DATE_FORMAT_ORDER[date_part]


class Plan:
    """What a call asks of the C layer, and what Python does around it.

    ints, strings: the option dicts.  casts: {column name: ColumnType} of
    types the C reader reads as a wider one (int64, string, timestamp), to be
    cast exactly afterwards.  usecols_filter: a callable over the column names
    (pandas' callable usecols), resolved with the header before the read.
    schema_only: nrows=0 (the columns without rows).
    """

    def __init__(self) -> None:
        self.ints: dict[int, int] = {}
        self.strings: dict[int, str] = {}
        self.casts: dict[Any, ColumnType] = {}
        self.usecols: Any = None
        self.schema_only = False


def _header(value: Any, names_given: bool, plan: Plan) -> tuple[bool, int]:
    """(the file has a header row, lines before it) from simdsv's bool or pandas' header (row, None, 'infer')."""
    if value is True or value is False:
        return value, 0
    if value is None:
        return False, 0
    if value == "infer":
        return not names_given, 0
    if isinstance(value, int) and value >= 0:
        return True, value
    raise ValueError(f"header must be True, False, None, 'infer' or a row number (int >= 0), got {value!r}"
                     " (a header of several rows is not supported)")


def build(function: str = "read_csv", **kwargs: Any) -> Plan:
    """The Plan of one call's keyword arguments (already normalized)."""
    plan = Plan()
    ints, strings = plan.ints, plan.strings
    if "delimiter" in kwargs and kwargs["delimiter"] is not None:
        sep = kwargs["delimiter"]
        if not isinstance(sep, str) or not 1 <= len(sep.encode("utf-8")) <= 4:
            raise ValueError(f"delimiter must be a str of 1 to 4 bytes, got {sep!r}")
        if len(sep.encode("utf-8")) == 1:
            ints[_c.OPT_DELIMITER] = sep.encode("utf-8")[0]
        else:
            strings[_c.OPT_DELIMITER_STRING] = sep
    if kwargs.get("quoting") is not None:
        if kwargs["quoting"] not in (0, 3):
            raise ValueError("quoting must be csv.QUOTE_MINIMAL (0) or csv.QUOTE_NONE (3)")
        if kwargs["quoting"] == 3:
            kwargs["quote"] = None
    for key, opt in (("quote", _c.OPT_QUOTE), ("escape", _c.OPT_ESCAPE)):
        if key in kwargs:
            ints[opt] = _byte(key, kwargs[key])
    if kwargs.get("comment") is not None:
        # The marker whole ("#", "//", "--", "§"): a record starting with all of its bytes is a comment, so a line
        # starting with one '/' stays data under "//" (the library's SIMDSV_OPT_COMMENT_STRING).
        mark = kwargs["comment"]
        if not isinstance(mark, str) or not 1 <= len(mark.encode("utf-8")) <= 4:
            raise ValueError(f"comment must be a str of 1 to 4 bytes (\"#\", \"//\") or None, got {mark!r}")
        strings[_c.OPT_COMMENT_STRING] = mark
    names = kwargs.get("names")
    if names is not None:
        names = _strings("names", names)
    # header not given (and no names): left to the C default, or to detection.
    header_given = "header" in kwargs or names is not None
    has_header, header_line = _header(kwargs.get("header", "infer"), names is not None, plan)
    skip = _count("skip_lines", kwargs.get("skip_lines", 0), 0) + header_line
    if names is not None and has_header:
        # names replace the header row: it is skipped, and the names stand in.
        skip += 1
        has_header = False
    if header_given:
        ints[_c.OPT_HEADER] = int(has_header)
    if skip:
        ints[_c.OPT_SKIP_LINES] = skip
    if names is not None:
        strings[_c.OPT_NAMES] = join_list(names)
    if "lenient" in kwargs:
        ints[_c.OPT_LENIENT] = int(bool(kwargs["lenient"]))
    if "utf8" in kwargs:
        ints[_c.OPT_UTF8] = _choice("utf8", kwargs["utf8"], _UTF8)
    if kwargs.get("threads") is not None:
        ints[_c.OPT_THREADS] = _count("threads", kwargs["threads"], 1, "all cores")
    if "use_mmap" in kwargs:
        ints[_c.OPT_MMAP] = int(bool(kwargs["use_mmap"]))
    if "infer_rows" in kwargs:
        rows = kwargs["infer_rows"]
        ints[_c.OPT_INFER_ROWS] = -1 if rows is None else _count("infer_rows", rows, 1, "every row")
    if kwargs.get("row_limit") is not None:
        limit = _count("row_limit", kwargs["row_limit"], 0)
        if limit == 0:
            plan.schema_only = True
        else:
            ints[_c.OPT_ROW_LIMIT] = limit
    if "on_error" in kwargs:
        ints[_c.OPT_ON_ERROR] = _choice("on_error", kwargs["on_error"], _ON_ERROR)
    if "short_rows" in kwargs:
        ints[_c.OPT_SHORT_ROWS] = _choice("short_rows", kwargs["short_rows"], _SHORT_ROWS)
    if "long_rows" in kwargs:
        ints[_c.OPT_LONG_ROWS] = _choice("long_rows", kwargs["long_rows"], _LONG_ROWS)
    decimal_comma = bool(kwargs.get("decimal_comma", False))
    if kwargs.get("decimal") is not None:
        if kwargs["decimal"] not in (".", ","):
            raise ValueError(f"decimal must be '.' or ',', got {kwargs['decimal']!r}")
        decimal_comma = kwargs["decimal"] == ","
    if decimal_comma or "decimal_comma" in kwargs or "decimal" in kwargs:
        ints[_c.OPT_DECIMAL_COMMA] = int(decimal_comma)
    if kwargs.get("thousands") is not None:
        mark = kwargs["thousands"]
        if mark not in (",", ".", " ", "'", "_"):
            raise ValueError(f"thousands must be one of ',', '.', ' ', \"'\", '_', or None, got {mark!r}")
        ints[_c.OPT_THOUSANDS] = ord(mark)
    order = None
    if kwargs.get("date_format") is not None:
        if not isinstance(kwargs["date_format"], str):
            raise ValueError("date_format must be one strftime format (str)")
        order = date_order_of(kwargs["date_format"])
    if kwargs.get("dayfirst"):
        if order not in (None, "dmy"):
            raise ValueError("dayfirst=True contradicts date_format")
        order = "dmy"
    if order is not None:
        ints[_c.OPT_DATE_ORDER] = _DATE_ORDERS[order]
    if "batch_rows" in kwargs:
        ints[_c.OPT_BATCH_ROWS] = _count("batch_rows", kwargs["batch_rows"], 1)
    if kwargs.get("string_view") is not None:
        ints[_c.OPT_STRINGS] = _c.STRINGS_VIEW if kwargs["string_view"] else _c.STRINGS_UTF8
    nulls = null_spec(kwargs.get("null_values"), bool(kwargs.get("keep_default_na", False)))
    if nulls is not None:
        strings[_c.OPT_NULL_VALUES] = nulls
    for key, opt in (("true_values", _c.OPT_TRUE_VALUES), ("false_values", _c.OPT_FALSE_VALUES)):
        if kwargs.get(key) is not None:
            strings[opt] = join_list(_strings(key, kwargs[key]))
    if kwargs.get("union_by_name") is not None:
        ints[_c.OPT_UNION_BY_NAME] = 1 if kwargs["union_by_name"] else 0
    if "hive_partitioning" in kwargs:
        if kwargs["hive_partitioning"] not in _HIVE:
            raise ValueError(f"hive_partitioning must be None (auto), True or False, got {kwargs['hive_partitioning']!r}")
        ints[_c.OPT_HIVE] = _HIVE[kwargs["hive_partitioning"]]
    path_column = kwargs.get("include_path_column")
    if path_column:  # dask's spelling: True names the column "path"
        if path_column is not True and not isinstance(path_column, str):
            raise TypeError(f"include_path_column is a bool or a column name, got {path_column!r}")
        strings[_c.OPT_FILENAME_COLUMN] = "path" if path_column is True else path_column
    _projection(kwargs, plan)
    _schema(kwargs, plan)
    return plan


def _selector(item: Any) -> str:
    if isinstance(item, bool) or not isinstance(item, (int, str)):
        raise TypeError(f"a column is a name (str) or a 0-based position (int), got {item!r}")
    if isinstance(item, int):
        if item < 0:
            raise ValueError(f"column positions are 0-based and not negative, got {item}")
        return f"#{item + 1}"
    return item


def _projection(kwargs: dict[str, Any], plan: Plan) -> None:
    """columns= (output in the order given) or usecols= (pandas: file order; a callable over the names)."""
    if kwargs.get("columns") is not None and kwargs.get("usecols") is not None:
        raise TypeError("columns and usecols both given: they select the same thing")
    if kwargs.get("columns") is not None:
        wanted = kwargs["columns"]
        wanted = [wanted] if isinstance(wanted, (str, int)) else list(wanted)
        plan.strings[_c.OPT_COLUMNS] = join_list(_selector(c) for c in wanted)
    elif kwargs.get("usecols") is not None:
        wanted = kwargs["usecols"]
        plan.usecols = wanted if callable(wanted) else ([wanted] if isinstance(wanted, (str, int)) else list(wanted))
        for c in [] if callable(wanted) else plan.usecols:
            _selector(c)


def resolve_usecols(plan: Plan, names: list[str]) -> list[int]:
    """usecols against the file's column names: the projection, in file order (its 0-based fields)."""
    wanted = plan.usecols
    if callable(wanted):
        fields = [i for i, n in enumerate(names) if wanted(n)]
    else:
        fields = []
        for c in wanted:
            if isinstance(c, int):
                if c >= len(names):
                    raise ValueError(f"usecols: no column at position {c} (the file has {len(names)})")
                fields.append(c)
            elif c in names:
                fields.append(names.index(c))
            else:
                raise ValueError(f"usecols: no column {c!r}{_closest(c, names)}")
        fields = sorted(set(fields))
    plan.strings[_c.OPT_COLUMNS] = join_list(f"#{f + 1}" for f in fields)
    plan.usecols = None
    return fields


def _schema(kwargs: dict[str, Any], plan: Plan) -> None:
    """schema=/dtype=: one type for every column, or per column; parse_dates= adds timestamps."""
    schema = kwargs.get("schema")
    items: list[tuple[Any, Any]] = []
    if isinstance(schema, str) and ":" in schema and column_type(schema, strict=False) is None:
        plan.strings[_c.OPT_SCHEMA] = schema  # the C text "name:type,..."
        schema = None
    if schema is None:
        pass
    elif hasattr(schema, "names") and hasattr(schema, "types"):  # pyarrow.Schema
        items = list(zip(schema.names, schema.types))
    elif isinstance(schema, Mapping) or hasattr(schema, "items"):  # dict, polars.Schema
        items = list(schema.items())
    else:
        items = [("*", schema)]
    parse_dates = kwargs.get("parse_dates")
    if parse_dates not in (None, True, False):
        typed = {key for key, _ in items}
        for column in [parse_dates] if isinstance(parse_dates, (str, int)) else parse_dates:
            if isinstance(column, (list, tuple)):
                raise ValueError("parse_dates: combining columns into one date is not supported")
            if column not in typed:
                items.append((column, "timestamp"))
    specs = []
    for key, value in items:
        typ = column_type(value)
        selector = key if key == "*" else _selector(key)
        specs.append(f"{_escape_item(selector)}:{typ.read_as}")
        if typ.arrow is not None:
            plan.casts[key] = typ
    if specs:
        text = ",".join(specs)
        plan.strings[_c.OPT_SCHEMA] = plan.strings[_c.OPT_SCHEMA] + "," + text if _c.OPT_SCHEMA in plan.strings \
            else text


_OPTION_NAMES = {getattr(_c, f"OPT_{n.upper()}"): n for n in (
    "delimiter", "quote", "escape", "comment", "header", "skip_lines", "lenient", "utf8", "mmap", "threads",
    "infer_rows", "row_limit", "on_error", "short_rows", "long_rows", "decimal_comma", "batch_rows", "thousands",
    "date_order")}


def call(fn: Callable[..., Any], *args: Any) -> Any:
    """fn(*args), with the C layer's "option N: V is out of range" said with the keyword's name."""
    try:
        return fn(*args)
    except ValueError as e:
        text = str(e)
        if not text.startswith("option ") or isinstance(e, _c.Error):
            raise
        number = text[len("option "):].split(":", 1)[0]
        name = _OPTION_NAMES.get(int(number)) if number.isdigit() else None
        if name is None:
            raise
        raise ValueError(f"{name}: {text.split(': ', 1)[1]}") from None


def source(src: Any, stream: bool = False) -> Any:
    """What the C layer reads: a path (str/bytes/PathLike), a buffer, or (stream) a file object read as it goes;
    without stream a file object is read whole."""
    if isinstance(src, (str, bytes, os.PathLike)):
        return src if not isinstance(src, bytes) else memoryview(src)
    if isinstance(src, (bytearray, memoryview)):
        return memoryview(src)
    if hasattr(src, "read"):
        if stream:
            return src
        data = src.read()
        if isinstance(data, str):
            data = data.encode("utf-8")
        return memoryview(data)
    try:
        return memoryview(src)
    except TypeError:
        raise TypeError(f"expected a path, bytes or a binary file object, got {type(src).__name__}") from None
