"""Column types as users write them (Python, NumPy, pandas, pyarrow and Polars types, and their usual strings)
-> what the C reader reads, and the exact cast to the narrower type asked for.

The C reader has seven types (null, bool, int64, float64, date, timestamp,
string).  A narrower type is read as the C type that holds every value of it
exactly, then cast by pyarrow with overflow and truncation checked (a value
that does not fit is an error naming its column, row and value):

    int8 .. int32, uint8 .. uint32          int64, then a checked cast
    uint64, float32, decimal128(p, s)        the text, then pyarrow's parse of it (correctly
                                             rounded for float32: no double rounding through float64)
    time64                                   the text HH:MM[:SS[.fraction]]
    timestamp in s / ms / ns, with a zone    timestamp[us], then a checked cast (the zone names how
                                             the instants are shown; text without an offset is UTC)
    dictionary / categorical                 string, then dictionary-encoded

Types other than these are refused with the list of known ones.
"""

from __future__ import annotations

import re
from typing import Any

KNOWN = ("bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float32, float64, decimal128(p, s), "
         "date, time64, timestamp (naive, with a unit s/ms/us/ns, with a zone), string, dictionary/category "
         "(as Python, NumPy, pandas, pyarrow or Polars types, or their names)")

_INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")


class ColumnType:
    """read_as: the C type name; arrow: None when the C type is the answer, else the pyarrow type's
    description ("int32", "decimal128(10,2)", "timestamp[ms,UTC]", ...); name: how Table.types shows it."""

    __slots__ = ("read_as", "arrow", "name")

    def __init__(self, read_as: str, arrow: str | None = None) -> None:
        self.read_as = read_as
        self.arrow = arrow
        self.name = arrow or read_as

    def __repr__(self) -> str:
        return f"ColumnType({self.read_as!r}, {self.arrow!r})"


def _timestamp(unit: str, tz: str | None) -> ColumnType:
    if unit not in ("s", "ms", "us", "ns"):
        raise ValueError(f"timestamp unit must be s, ms, us or ns, got {unit!r}")
    if unit == "us" and tz is None:
        return ColumnType("timestamp")
    return ColumnType("timestamp", f"timestamp[{unit},{tz or ''}]")


def _int(name: str) -> ColumnType:
    if name == "int64":
        return ColumnType("int64")
    return ColumnType("string" if name == "uint64" else "int64", name)


def _from_text(text: str) -> ColumnType | None:
    """A type from its usual spellings (Python/NumPy/pandas/pyarrow/Polars names), or None."""
    raw = text.strip()
    low = raw.lower().replace(" ", "")
    if low.endswith("[pyarrow]"):
        low = low[: -len("[pyarrow]")]
    simple = {
        "bool": "bool", "boolean": "bool", "bool_": "bool",
        "int": "int64", "integer": "int64", "long": "int64", "i64": "int64",
        "float": "float64", "double": "float64", "float64": "float64", "f64": "float64", "real": "float64",
        "str": "string", "string": "string", "utf8": "string", "large_string": "string", "large_utf8": "string",
        "object": "string", "text": "string", "string_view": "string", "o": "string",
        "date": "date", "date32": "date", "date32[day]": "date",
        "null": "null",
    }
    if low in simple:
        return ColumnType(simple[low])
    short_ints = {"i8": "int8", "i16": "int16", "i32": "int32", "u8": "uint8", "u16": "uint16", "u32": "uint32",
                  "u64": "uint64"}
    if low in _INTS or low in short_ints:
        return _int(short_ints.get(low, low))
    if low in ("float32", "f32", "single", "halffloat"):
        if low == "halffloat":
            return None
        return ColumnType("string", "float32")
    if low in ("category", "categorical", "dictionary", "enum") or low.startswith("dictionary<values=string"):
        return ColumnType("string", "dictionary")
    if low in ("time", "time64", "time64[us]", "time64[ns]"):
        return ColumnType("string", "time64[ns]" if low.endswith("[ns]") else "time64[us]")
    m = re.fullmatch(r"decimal(?:128)?\((?:precision=)?(\d+),(?:scale=)?(-?\d+)\)", low)
    if m:
        precision, scale = int(m.group(1)), int(m.group(2))
        if not 1 <= precision <= 38:
            raise ValueError(f"decimal128 precision must be 1 to 38, got {precision}")
        return ColumnType("string", f"decimal128({precision},{scale})")
    if low in ("datetime", "timestamp", "datetime64"):
        return _timestamp("us", None)
    # datetime64[ns], datetime64[ns, UTC], timestamp[ms], timestamp[us, tz=Europe/Paris], Datetime(time_unit='ms', ...)
    m = re.fullmatch(r"(?:datetime64|timestamp)\[(s|ms|us|ns)(?:,(?:tz=)?[^\]]+)?\]", low)
    if m:  # the zone as written (its case matters: "Europe/Paris")
        zone = re.search(r",(?:tz=)?([^\]]+)\]", raw.replace(" ", ""))
        return _timestamp(m.group(1), zone.group(1) if zone else None)
    m = re.fullmatch(r"datetime\((?:time_unit=)?'?(s|ms|us|ns)'?(?:,(?:time_zone=)?(?:'([^']*)'|none))?\)", low)
    if m:
        zone = re.search(r"time_zone='([^']*)'", raw)
        return _timestamp(m.group(1), zone.group(1) if zone else None)
    return None


def _pyarrow_type(t: Any) -> ColumnType | None:
    import pyarrow as pa

    if pa.types.is_boolean(t):
        return ColumnType("bool")
    if pa.types.is_integer(t):
        return _int(str(t))
    if pa.types.is_float32(t):
        return ColumnType("string", "float32")
    if pa.types.is_float64(t):
        return ColumnType("float64")
    if pa.types.is_string(t) or pa.types.is_large_string(t) or str(t) == "string_view":
        return ColumnType("string")
    if pa.types.is_date32(t):
        return ColumnType("date")
    if pa.types.is_timestamp(t):
        return _timestamp(t.unit, t.tz)
    if pa.types.is_time64(t):
        return ColumnType("string", f"time64[{t.unit}]")
    if pa.types.is_decimal128(t):
        return ColumnType("string", f"decimal128({t.precision},{t.scale})")
    if pa.types.is_dictionary(t) and (pa.types.is_string(t.value_type) or pa.types.is_large_string(t.value_type)):
        return ColumnType("string", "dictionary")
    if pa.types.is_null(t):
        return ColumnType("null")
    return None


def column_type(value: Any, strict: bool = True) -> ColumnType | None:
    """The ColumnType of a user's type; ValueError naming the known types when it is none (None if not strict)."""
    found: ColumnType | None = None
    module = (value.__module__ if isinstance(value, type) else type(value).__module__) or ""
    if isinstance(value, ColumnType):
        found = value
    elif isinstance(value, str):
        found = _from_text(value)
    elif isinstance(value, type) and module == "builtins":
        found = {int: ColumnType("int64"), float: ColumnType("float64"), str: ColumnType("string"),
                 bool: ColumnType("bool"), object: ColumnType("string")}.get(value)
    elif isinstance(value, type) and module == "datetime":
        found = {"date": ColumnType("date"), "datetime": _timestamp("us", None),
                 "time": ColumnType("string", "time64[us]")}.get(value.__name__)
    elif module.startswith("pyarrow"):
        found = _pyarrow_type(value)
    elif module.startswith("numpy"):
        import numpy

        found = _from_text(numpy.dtype(value).name)
    elif module.startswith("pandas"):
        if hasattr(value, "pyarrow_dtype"):  # pd.ArrowDtype
            found = _pyarrow_type(value.pyarrow_dtype)
        elif getattr(value, "name", None) == "category":
            found = ColumnType("string", "dictionary")
        else:
            found = _from_text(str(value))
    elif module.startswith("polars"):
        found = _from_text(str(value))
    if found is None and strict:
        raise ValueError(f"unknown column type {value!r}; known: {KNOWN}")
    return found


def arrow_type(description: str) -> Any:
    """The pyarrow type of a ColumnType.arrow description."""
    import pyarrow as pa

    if description in _INTS or description == "float32":
        return getattr(pa, description)()
    if description == "dictionary":
        return pa.dictionary(pa.int32(), pa.string())
    if description.startswith("time64"):
        return pa.time64(description[7:-1])
    if description.startswith("decimal128"):
        precision, scale = description[11:-1].split(",")
        return pa.decimal128(int(precision), int(scale))
    unit, tz = description[len("timestamp["):-1].split(",")
    return pa.timestamp(unit, tz or None)


_TIME = re.compile(r"^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$")


def _time_values(column: Any, unit: str) -> Any:
    """time64 values of the text HH:MM[:SS[.fraction]] (pyarrow has no cast from string to time64)."""
    import pyarrow as pa

    scale = 10**9 if unit == "ns" else 10**6
    out = []
    for row, text in enumerate(column.to_pylist()):
        if text is None:
            out.append(None)
            continue
        m = _TIME.match(text)
        hour, minute, second = (int(m.group(i) or 0) for i in (1, 2, 3)) if m else (99, 0, 0)
        if not m or hour > 23 or minute > 59 or second > 59:
            raise CastError(row, text, f"time64[{unit}]", "not a time HH:MM[:SS[.fraction]]")
        fraction = (m.group(4) or "").ljust(9, "0")
        if unit == "us" and fraction[6:] != "000":
            raise CastError(row, text, "time64[us]", "finer than microseconds")
        sub = int(fraction[: 9 if unit == "ns" else 6])
        out.append(((hour * 60 + minute) * 60 + second) * scale + sub)
    return pa.array(out, pa.time64(unit))


class CastError(Exception):
    """A value that does not fit the narrower type: its row (0-based in the column), text and why."""

    def __init__(self, row: int, value: Any, type_name: str, why: str) -> None:
        super().__init__(row, value, type_name, why)
        self.row, self.value, self.type_name, self.why = row, value, type_name, why


def cast_column(column: Any, description: str) -> Any:
    """column (pyarrow, as the C reader read it) cast exactly to the type described; CastError when a value does
    not fit."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    if pa.types.is_string_view(column.type):
        column = column.cast(pa.string())  # pyarrow's compute functions (filter, unique, ...) take utf8
    if description.startswith("time64"):
        return _time_values(column, description[7:-1])
    if description == "dictionary":
        # The categories sorted, as pandas and pyarrow's CSV reader order them (not in order of appearance).
        categories = pc.array_sort_indices(pc.unique(column.drop_null()))
        values = pc.take(pc.unique(column.drop_null()), categories).cast(pa.string())
        indices = pc.index_in(column, value_set=values).cast(pa.int32())
        return pa.DictionaryArray.from_arrays(indices, values)
    target = arrow_type(description)
    try:
        return pc.cast(column, target, safe=True)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
        for row, value in enumerate(column.to_pylist()):
            if value is None:
                continue
            try:
                pc.cast(pa.array([value], column.type), target, safe=True)
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as one:
                raise CastError(row, value, description, str(one).split("\n")[0]) from None
        raise CastError(0, None, description, str(e)) from None
