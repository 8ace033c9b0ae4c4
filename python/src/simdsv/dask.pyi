import os
from typing import Any, Union

def read_csv(path: Union[str, os.PathLike[str]], *, blocksize: Union[int, str] = ..., columns: Any = ..., **kwargs: Any) -> Any: ...
