"""Inputs named by fsspec URLs (s3://, gs://, https://, memory://, ...): listed, then read by byte ranges.

A URL is listed once (a glob, a folder or one object) into RemoteFile objects with their sizes; each is then
read front to back by ranges of ``block`` bytes (a few fetched ahead on threads while the reader parses), never
downloaded whole before parsing starts.  fsspec (and the package of each protocol: s3fs, gcsfs, aiohttp) is
imported only when a URL is given: the core package imports without them.

Errors name the object, and never show a secret: a URL's embedded password and the secret values of
storage_options are replaced by *** in every message that passes through here.
"""

from __future__ import annotations

import re
import threading
import urllib.parse
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

# A URL with a protocol other than file:// (a local path stays a path: memory-mapped, read with pread).
_URL = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*)://")
MAGIC = re.compile(r"[*?\[]")
# Keys of storage_options (at any depth) whose values are secrets.
_SECRET_KEY = re.compile(r"secret|password|passwd|token|credential|session|private|auth", re.IGNORECASE)

# Bytes per range request, and requests in flight ahead of the reader.
BLOCK = 8 << 20
AHEAD = 4


def is_url(source: Any) -> bool:
    """Whether source is a str URL read through fsspec (file:// is a local path)."""
    if not isinstance(source, str):
        return False
    match = _URL.match(source)
    return bool(match) and match.group(1).lower() != "file"


def local_path(source: str) -> str:
    """A file:// URL's path; anything else as it is."""
    return urllib.parse.unquote(source[7:]) if source.lower().startswith("file://") else source


class Secrets:
    """What never appears in a message: passwords embedded in URLs and the secret values of storage_options."""

    def __init__(self, urls: list[str], storage_options: dict | None) -> None:
        self.words: list[str] = []
        for url in urls:
            try:
                password = urllib.parse.urlsplit(url).password
            except ValueError:
                password = None
            if password:
                self.words += [password, urllib.parse.unquote(password)]
        self._collect(storage_options or {}, False)
        self.words = sorted({w for w in self.words if w}, key=len, reverse=True)

    def _collect(self, value: Any, secret: bool) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                self._collect(item, secret or bool(_SECRET_KEY.search(str(key))))
        elif isinstance(value, (list, tuple)):
            for item in value:
                self._collect(item, secret)
        elif isinstance(value, str):
            if secret:
                self.words.append(value)
        elif hasattr(value, "password") and isinstance(getattr(value, "password"), str):  # aiohttp.BasicAuth
            self.words.append(value.password)

    def redact(self, text: str) -> str:
        # user:password@ in any URL, whatever the password
        text = re.sub(r"(//[^/@:\s]*):[^@/\s]*@", r"\1:***@", text)
        for word in self.words:
            text = text.replace(word, "***")
        return text


def shown(url: str) -> str:
    """url as messages and the file name column show it: without an embedded password."""
    return re.sub(r"(//[^/@:\s]*):[^@/\s]*@", r"\1:***@", url)


def _fsspec() -> Any:
    try:
        import fsspec
    except ImportError:
        raise ImportError("reading a URL needs the fsspec package (pip install fsspec; and s3fs for s3://, "
                          "gcsfs for gs://, aiohttp for http(s)://)") from None
    return fsspec


def reraise(exc: BaseException, name: str, secrets: Secrets) -> None:
    """Raises exc again as an OSError of its kind whose message names the object and holds no secret (the
    original, which may show them, is dropped from the chain)."""
    kind = (FileNotFoundError if isinstance(exc, FileNotFoundError)
            else PermissionError if isinstance(exc, PermissionError)
            else ImportError if isinstance(exc, ImportError) else OSError)
    text = str(exc) or type(exc).__name__
    if kind is OSError and not isinstance(exc, OSError):
        text = f"{type(exc).__name__}: {text}"
    cause = exc.__cause__  # fsspec's HTTP "not found" hides the status (401, 403) here
    if cause is not None and str(cause) not in text:
        text += f" ({type(cause).__name__}: {cause})"
    text = secrets.redact(text)
    raise kind(f"{secrets.redact(name)}: {text}") from None


class RemoteFile:
    """One object: its filesystem, path, the name shown for it, its size and what identifies its version."""

    def __init__(self, fs: Any, path: str, info: dict, secrets: Secrets) -> None:
        self.fs, self.path, self.secrets = fs, path, secrets
        self.name = shown(fs.unstrip_protocol(path))
        if info.get("size") is None:  # an HTTP folder listing has links, not sizes
            try:
                info = fs.info(path)
            except Exception as e:  # noqa: BLE001
                reraise(e, self.name, secrets)
        self.size = int(info.get("size") or 0)
        self.version = _version(info)

    def fetch(self, start: int, end: int) -> bytes:
        """Bytes [start, end) of the object, which must all be there (an object that shrank is an error)."""
        try:
            data = self.fs.cat_file(self.path, start=start, end=end)
        except Exception as e:  # noqa: BLE001 - every failure becomes an OSError naming the object
            if not isinstance(e, FileNotFoundError):
                self.check_unchanged()  # a range past a new, shorter end fails: say why
            reraise(e, self.name, self.secrets)
        if len(data) != end - start:
            raise OSError(f"{self.name}: the object changed while it was read (bytes {start}..{end} of "
                          f"{self.size} asked, {len(data)} came)")
        return data

    def check_unchanged(self) -> None:
        """Raises OSError when the object's size or version is no longer the one listed."""
        try:
            self.fs.invalidate_cache(self.path)
            now = self.fs.info(self.path)
        except Exception as e:  # noqa: BLE001
            reraise(e, self.name, self.secrets)
        if int(now.get("size") or 0) != self.size or _version(now) != self.version:
            raise OSError(f"{self.name}: the object changed while it was read ({self.size} bytes listed, "
                          f"{int(now.get('size') or 0)} now)")

    def reader(self, block: int = BLOCK, ahead: int = AHEAD) -> "RangeReader":
        return RangeReader(self, block, ahead)


def _version(info: dict) -> tuple:
    """What tells one version of an object from another, as the filesystem lists it."""
    return tuple(str(info.get(k)) for k in ("ETag", "etag", "LastModified", "mtime", "generation", "version_id")
                 if info.get(k) is not None)


class RangeReader:
    """An object read front to back: read(n) as a file object, from ranges fetched ``ahead`` at a time on
    threads.  Before its last range is handed out the object is checked against its listing, so a change
    mid-read is an error, never a mix of two versions."""

    _pool: ThreadPoolExecutor | None = None
    _pool_lock = threading.Lock()

    def __init__(self, file: RemoteFile, block: int, ahead: int) -> None:
        self.file, self.block, self.ahead = file, block, max(ahead, 1)
        self.name = file.name
        self.mode = "rb"
        self._rewind()

    @classmethod
    def _executor(cls) -> ThreadPoolExecutor:
        with cls._pool_lock:
            if cls._pool is None:
                cls._pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="simdsv-fetch")
            return cls._pool

    def _rewind(self) -> None:
        self._next = 0  # the next offset to ask for
        self._pending: deque[Future] = deque()
        self._current = memoryview(b"")
        self._checked = False

    def rewind(self) -> None:
        for future in self._pending:
            future.cancel()
        self._rewind()

    def _fill(self) -> None:
        while len(self._pending) < self.ahead and self._next < self.file.size:
            end = min(self._next + self.block, self.file.size)
            self._pending.append(self._executor().submit(self.file.fetch, self._next, end))
            self._next = end

    def read(self, size: int = -1) -> bytes:
        if size is None or size < 0:
            return b"".join(iter(lambda: self.read(self.block), b""))
        while not self._current:
            self._fill()
            if not self._pending:
                return b""
            self._current = memoryview(self._pending.popleft().result())
            if not self._pending and self._next >= self.file.size and not self._checked:
                # The last range: checked before it is handed out (a reader that knows the size may never ask
                # past the end).
                self._checked = True
                self.file.check_unchanged()
        out = bytes(self._current[:size])
        self._current = self._current[size:]
        return out

    def close(self) -> None:
        self.rewind()


def expand(url: str, storage_options: dict | None, secrets: Secrets) -> tuple[list[RemoteFile], bool]:
    """(the objects a URL names, in byte order of their paths; whether it named one object itself): one object;
    a folder: every object under it; a glob: ``*`` (any characters but '/'), ``?``, ``[...]`` and ``**`` as a
    whole part (any number of folders), as the library's globs.  Names starting with '.' or '_' are skipped in
    folders and matched by a glob only when its part says so, as the library does for local files.  A URL that
    names nothing is FileNotFoundError."""
    fsspec = _fsspec()
    try:
        fs, path = fsspec.core.url_to_fs(url, **(storage_options or {}))
        if MAGIC.search(path):
            # Listed under the part before the first wildcard and matched here (fsspec's HTTP glob compares the
            # pattern to percent-encoded links: year=* never matches nginx's year%3D2024/).
            base = path[: MAGIC.search(path).start()].rsplit("/", 1)[0]
            pattern = _glob_regex(path[len(base) + 1:])
            found = {}
            for p, info in fs.find(base, detail=True).items():
                name = _decoded(p)
                relative = name[len(base.rstrip("/")) + 1:]
                if pattern.fullmatch(relative) and not _hidden(relative, path[len(base) + 1:]):
                    found[name] = info
        else:
            info = fs.info(path)
            if info.get("type") == "directory" or path.endswith("/"):  # HTTP says "file" of a folder's page
                found = {}
                for p, child in fs.find(path, detail=True).items():
                    name = _decoded(p)
                    if not _hidden(name[len(path.rstrip("/")) + 1:], ""):
                        found[name] = child
            else:
                found = {path: info}
    except Exception as e:  # noqa: BLE001
        reraise(e, url, secrets)
    if not found:
        raise FileNotFoundError(f"{secrets.redact(url)}: no object matches")
    files = [RemoteFile(fs, p, found[p], secrets) for p in sorted(found, key=lambda p: p.encode())]
    return files, len(found) == 1 and path in found


def _decoded(path: str) -> str:
    """A listed path with percent-escapes of characters other than / ? # % decoded (HTTP listings escape '=':
    year%3D2024), so that hive folders and globs see the names; the server takes either spelling."""
    return re.sub(r"%([0-9A-Fa-f]{2})",
                  lambda m: m.group(0) if chr(int(m.group(1), 16)) in "/?#%" or int(m.group(1), 16) < 0x21
                  or int(m.group(1), 16) > 0x7E else chr(int(m.group(1), 16)), path)


def _glob_regex(pattern: str) -> re.Pattern:
    out = []
    parts = pattern.split("/")
    for i, part in enumerate(parts):
        if part == "**":  # any number of folders; last, every name below
            out.append("(?:[^/]+/)*" + ("[^/]+/" if i == len(parts) - 1 else ""))
            continue
        text, j = "", 0
        while j < len(part):
            c = part[j]
            if c == "*":
                text += "[^/]*"
            elif c == "?":
                text += "[^/]"
            elif c == "[" and "]" in part[j + 2:] + part[j + 1:j + 2]:
                end = part.index("]", j + 2 if part[j + 1:j + 2] in ("!", "]") else j + 1)
                body = part[j + 1:end]
                text += "[" + ("^" + body[1:] if body.startswith("!") else body).replace("\\", "\\\\") + "]"
                j = end
            else:
                text += re.escape(c)
            j += 1
        out.append(text + "/")
    return re.compile("".join(out)[:-1])


def _hidden(relative: str, pattern: str) -> bool:
    """Whether a name under a folder or glob has a part starting with '.' or '_' that the pattern does not
    spell out (its own part starting so)."""
    spelled = {part[0] for part in pattern.split("/") if part[:1] in (".", "_")}
    return any(part[:1] in (".", "_") and part[0] not in spelled for part in relative.split("/"))
