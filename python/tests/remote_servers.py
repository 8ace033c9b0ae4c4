"""Real servers for the remote-storage tests, started on free ports over temporary folders and stopped after.

- S3: versitygw (an S3-compatible gateway, Apache-2.0) over a folder: every top-level folder is a bucket.
- HTTP: nginx (Debian's) serving a folder with Range requests, folder listings (fsspec's HTTP globbing reads
  them) and, under /private/, HTTP basic authentication.

tests/remote/install.sh builds or installs both (make python-test runs it); a missing one is an error that says
so, never a skipped test.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass

VERSITYGW_VERSION = "v1.8.0"  # as tests/remote/install.sh builds it
ACCESS_KEY = "simdsv-test-access"
SECRET_KEY = "simdsv-test-secret-7f3a91"
HTTP_USER = "reader"
HTTP_PASSWORD = "http-secret-5c2e"


def _cache() -> pathlib.Path:
    if os.environ.get("SIMDSV_CACHE"):
        return pathlib.Path(os.environ["SIMDSV_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return pathlib.Path(base) / "simdsv"


def _binary(path: pathlib.Path | str | None, what: str) -> str:
    if path is None or not os.access(path, os.X_OK):
        raise RuntimeError(f"{what} is not installed: run tests/remote/install.sh (make python-test does)")
    return str(path)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_until_up(process: subprocess.Popen, url: str, log: pathlib.Path, what: str) -> None:
    """Polls url until the server answers (any HTTP status) or the process exits (then its log is the error)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited with status {process.returncode}:\n{log.read_text(errors='replace')}")
        try:
            urllib.request.urlopen(url, timeout=1).close()
            return
        except urllib.error.HTTPError:
            return  # it answered
        except OSError:
            time.sleep(0.05)
    _stop(process)
    raise RuntimeError(f"{what} did not answer within 30 s:\n{log.read_text(errors='replace')}")


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@dataclass
class S3Server:
    endpoint: str
    root: pathlib.Path
    process: subprocess.Popen

    @property
    def storage_options(self) -> dict:
        """s3fs's options for this server."""
        return {"key": ACCESS_KEY, "secret": SECRET_KEY, "client_kwargs": {"endpoint_url": self.endpoint,
                                                                            "region_name": "us-east-1"}}

    def filesystem(self):
        """A fresh s3fs.S3FileSystem (no instance cache: listings of earlier tests are not reused)."""
        import s3fs

        options = self.storage_options
        return s3fs.S3FileSystem(key=options["key"], secret=options["secret"],
                                 client_kwargs=options["client_kwargs"], skip_instance_cache=True)


@dataclass
class HttpServer:
    url: str
    root: pathlib.Path
    process: subprocess.Popen


def start_s3(workdir: pathlib.Path) -> S3Server:
    gateway = _binary(_cache() / f"versitygw-{VERSITYGW_VERSION}" / "versitygw", f"versitygw {VERSITYGW_VERSION}")
    root, meta = workdir / "objects", workdir / "metadata"  # metadata beside the objects, not in xattrs
    root.mkdir()
    meta.mkdir()
    log = workdir / "versitygw.log"
    port = _free_port()
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [gateway, "--access", ACCESS_KEY, "--secret", SECRET_KEY, "--port", f"127.0.0.1:{port}",
             "posix", "--sidecar", str(meta), str(root)],
            stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
    endpoint = f"http://127.0.0.1:{port}"
    _wait_until_up(process, endpoint, log, "versitygw")
    return S3Server(endpoint, root, process)


_NGINX_CONF = """\
daemon off;
master_process off;
worker_processes 1;
pid {work}/nginx.pid;
error_log {work}/nginx-error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {work}/body;
    proxy_temp_path {work}/proxy;
    fastcgi_temp_path {work}/fastcgi;
    uwsgi_temp_path {work}/uwsgi;
    scgi_temp_path {work}/scgi;
    types {{ text/csv csv; }}
    default_type application/octet-stream;
    server {{
        listen 127.0.0.1:{port};
        root {root};
        autoindex on;
        location /private/ {{
            auth_basic "simdsv tests";
            auth_basic_user_file {work}/htpasswd;
        }}
    }}
}}
"""


def start_http(workdir: pathlib.Path) -> HttpServer:
    nginx = _binary(shutil.which("nginx") or "/usr/sbin/nginx", "nginx")
    root = workdir / "http"
    (root / "private").mkdir(parents=True)
    work = workdir / "nginx"
    work.mkdir()
    (work / "htpasswd").write_text(f"{HTTP_USER}:{{PLAIN}}{HTTP_PASSWORD}\n")
    port = _free_port()
    (work / "nginx.conf").write_text(_NGINX_CONF.format(work=work, port=port, root=root))
    log = work / "nginx-error.log"
    log.touch()
    process = subprocess.Popen([nginx, "-p", str(work), "-e", str(log), "-c", str(work / "nginx.conf")],
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    _wait_until_up(process, url + "/", log, "nginx")
    return HttpServer(url, root, process)


def stop(server: S3Server | HttpServer) -> None:
    _stop(server.process)
