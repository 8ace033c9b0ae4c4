"""Detection and decompression keywords -> the C layer's entries.

Every reader (read_csv, infer_schema, open_csv, records, count) opens its
input as the library's simdsv_input: gzip and zstd are decoded
(compression="infer" tells them by their first bytes), and with sniff=True
(the default) the encoding, dialect and layout are detected by
simdsv_input_detect, the same call the CLI makes, for every setting the
caller did not give: a keyword given wins over detection.
"""

from __future__ import annotations

from typing import Any

from . import _options
from . import _simdsv as _c

_COMPRESSION = {
    "infer": _c.COMPRESSION_AUTO,
    None: _c.COMPRESSION_NONE,
    "gzip": _c.COMPRESSION_GZIP,
    "zstd": _c.COMPRESSION_ZSTD,
}

# The detected settings each keyword gives (bits 1 << SNIFF_x), as the CLI's
# options do: a keyword passed, whatever its value, is a setting given.
_GIVES = {
    "delimiter": (_c.SNIFF_DELIMITER,),
    "quote": (_c.SNIFF_QUOTE,),
    "escape": (_c.SNIFF_ESCAPE,),
    "comment": (_c.SNIFF_COMMENT,),
    "header": (_c.SNIFF_HEADER, _c.SNIFF_HEADER_ROWS),
    "skip_lines": (_c.SNIFF_PREAMBLE, _c.SNIFF_TABLES),
    "decimal_comma": (_c.SNIFF_DECIMAL,),
}


def build(
    *,
    records: bool = False,
    sniff: bool = True,
    encoding: str | None = None,
    compression: str | None = "infer",
    **kwargs: Any,
) -> tuple[dict[int, int], dict[int, str]]:
    """_options.build's dicts plus the input's: compression, encoding, detection.

    records: the reader reads records only (records, count): detection then
    leaves the value formats (decimal comma, thousands, dates) out.
    """
    if compression not in _COMPRESSION:
        raise ValueError(f"compression must be 'infer', 'gzip', 'zstd' or None, got {compression!r}")
    ints, strings = _options.build(**kwargs)
    ints[_c.OPT_COMPRESSION] = _COMPRESSION[compression]
    if encoding is not None:
        strings[_c.OPT_ENCODING] = str(encoding)
    if sniff:
        given = 0
        for name, settings in _GIVES.items():
            if name in kwargs:
                for setting in settings:
                    given |= 1 << setting
        if encoding is not None:
            given |= 1 << _c.SNIFF_ENCODING
        ints[_c.DETECT_GIVEN] = given
        if records:
            ints[_c.DETECT_RECORDS] = 1
    return ints, strings
