"""Detection and decompression keywords -> the C layer's entries.

Every reader (read_csv, infer_schema, open_csv, records, count) opens its
input as the library's simdsv_input: gzip and zstd are decoded
(compression="infer" tells them by their first bytes), and with sniff=True
(the default) the encoding, dialect and layout are detected by
simdsv_input_detect, the same call the CLI makes, for every setting the
caller did not give: a keyword given wins over detection.
"""

from __future__ import annotations

from typing import Any, Mapping

from . import _simdsv as _c

_COMPRESSION = {
    "infer": _c.COMPRESSION_AUTO,
    None: _c.COMPRESSION_NONE,
    "gzip": _c.COMPRESSION_GZIP,
    "zstd": _c.COMPRESSION_ZSTD,
}

# The detected settings each keyword gives (bits 1 << SNIFF_x), as the CLI's
# options do: a keyword passed, whatever its value, is a setting given.  The
# keywords are simdsv's names (pandas' and polars' are normalized to them first).
_GIVES = {
    "delimiter": (_c.SNIFF_DELIMITER,),
    "quote": (_c.SNIFF_QUOTE,),
    "quoting": (_c.SNIFF_QUOTE,),
    "escape": (_c.SNIFF_ESCAPE,),
    "comment": (_c.SNIFF_COMMENT,),
    "header": (_c.SNIFF_HEADER, _c.SNIFF_HEADER_ROWS),
    "names": (_c.SNIFF_HEADER, _c.SNIFF_HEADER_ROWS),
    "skip_lines": (_c.SNIFF_PREAMBLE, _c.SNIFF_TABLES),
    "decimal_comma": (_c.SNIFF_DECIMAL,),
    "decimal": (_c.SNIFF_DECIMAL,),
    "thousands": (_c.SNIFF_DECIMAL,),
    "date_format": (_c.SNIFF_DATES,),
    "dayfirst": (_c.SNIFF_DATES,),
}

KEYS = ("sniff", "encoding", "compression")

# What a file object's detection reads first (as the library does for a pipe).
SAMPLE_BYTES = 256 * 1024


def apply(
    plan: Any,
    given: Mapping[str, Any],
    *,
    records: bool = False,
    sniff: bool = True,
    encoding: str | None = None,
    compression: str | None = "infer",
) -> None:
    """Adds the input's entries to plan (an _options.Plan): compression, encoding, detection.

    given: the call's keywords (simdsv's names).  records: the reader reads
    records only (records, count): detection then leaves the value formats
    (decimal comma, thousands, dates) out.
    """
    if compression not in _COMPRESSION:
        raise ValueError(f"compression must be 'infer', 'gzip', 'zstd' or None, got {compression!r}")
    ints, strings = plan.ints, plan.strings
    ints[_c.OPT_COMPRESSION] = _COMPRESSION[compression]
    if encoding is not None:
        strings[_c.OPT_ENCODING] = str(encoding)
    if sniff:
        mask = 0
        for name, settings in _GIVES.items():
            if name in given:
                for setting in settings:
                    mask |= 1 << setting
        if encoding is not None:
            mask |= 1 << _c.SNIFF_ENCODING
        header = given.get("header")
        if isinstance(header, int) and not isinstance(header, bool):  # pandas' row number: the lines before it
            mask |= 1 << _c.SNIFF_PREAMBLE | 1 << _c.SNIFF_TABLES
        ints[_c.DETECT_GIVEN] = mask
        if records:
            ints[_c.DETECT_RECORDS] = 1


class _Replay:
    """A file object's bytes: the sample read for detection first, then the rest as read() gives it (str
    encoded as UTF-8, a quarter as many characters as bytes asked for, so that they fit)."""

    def __init__(self, first: bytes, rest: Any, text: bool) -> None:
        self._first, self._rest, self._text = first, rest, text
        name = getattr(rest, "name", None)
        self.name = name if isinstance(name, str) else None  # named in errors (a URL, a path)

    def read(self, size: int) -> bytes:
        if self._first:
            out, self._first = self._first[:size], self._first[size:]
            return out
        if self._text:
            return self._rest.read(max(size // 4, 1)).encode("utf-8")
        return self._rest.read(size)


def _read_sample(file: Any) -> tuple[bytes, bool, bool]:
    """(up to SAMPLE_BYTES of the file, whether it is text, whether that was all of it)."""
    chunks, size, text = [], 0, False
    while size < SAMPLE_BYTES:
        data = file.read(SAMPLE_BYTES - size if not text else max((SAMPLE_BYTES - size) // 4, 1))
        if isinstance(data, str):
            text, data = True, data.encode("utf-8")
        if not data:
            return b"".join(chunks), text, True
        chunks.append(data)
        size += len(data)
    return b"".join(chunks), text, False


def file_source(file: Any, plan: Any) -> Any:
    """What the C layer reads for a file object (read as it goes, never whole): detection, when asked, runs on
    its first SAMPLE_BYTES, which are then read again; gzip is decoded (Python's gzip module)."""
    sample, text, whole = _read_sample(file)
    ints, strings = plan.ints, plan.strings
    if sample[:2] == b"\x1f\x8b" and ints.get(_c.OPT_COMPRESSION) in (_c.COMPRESSION_AUTO, _c.COMPRESSION_GZIP):
        import gzip

        file, text = gzip.GzipFile(fileobj=_Replay(sample, file, False), mode="rb"), False
        sample, _, whole = _read_sample(file)
    elif sample[:4] == b"\x28\xb5\x2f\xfd" and ints.get(_c.OPT_COMPRESSION) != _c.COMPRESSION_NONE:
        raise ValueError("a zstd-compressed file object cannot be streamed: pass its path or its bytes")
    ints[_c.OPT_COMPRESSION] = _c.COMPRESSION_NONE
    if _c.DETECT_GIVEN in ints:
        detected_ints, detected_strings = _c.detect(memoryview(sample), ints, strings)
        if not whole:
            detected_ints.pop(_c.OPT_END_OFFSET, None)  # the sample's end is not the file's: no footer found
        detected_ints[_c.OPT_COMPRESSION] = _c.COMPRESSION_NONE
        plan.ints, plan.strings = detected_ints, detected_strings
    return _Replay(sample, file, text)
