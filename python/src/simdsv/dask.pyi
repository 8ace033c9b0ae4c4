import os
from typing import Any, Literal, Union

def read_csv(
    path: Union[str, os.PathLike[str], list, tuple],
    *,
    blocksize: Union[int, str] = ...,
    dtype_backend: Literal["numpy", "numpy_nullable", "pyarrow"] | None = ...,
    storage_options: dict[str, Any] | None = ...,
    **kwargs: Any,
) -> Any: ...
