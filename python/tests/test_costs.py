"""What the package costs around the C reader: nothing a caller did not ask for."""

from __future__ import annotations

import subprocess
import sys


def test_to_arrow_leaves_pandas_unimported() -> None:
    # pyarrow.table(obj) checks for a pandas DataFrame first and so imports
    # pandas (0.3-0.7 s: more than reading a 200 MB file on one thread).
    code = (
        "import sys, simdsv\n"
        "t = simdsv.read_csv(b'a,b\\n1,x\\n2,y\\n').to_arrow()\n"
        "assert t.to_pydict() == {'a': [1, 2], 'b': ['x', 'y']}, t.to_pydict()\n"
        "print('pandas' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
