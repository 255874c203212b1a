"""real/copy_3d_strided.tile: test/test_copy.py array_copy_3d with stride_step 2 and permute (2, 0, 1):
yy = xx where xx = x[:, :, ::2].transpose(2, 0, 1) over x f16 (2, 192, 192) (shape (96, 2, 192), strides
(2, 36864, 192)), and yy the same view of y. The whole of y is compared bit for bit: the elements outside
the view must keep their (non-zero) initial contents."""
import numpy as np

from parity import Case, Out, strides_of


def cases(rng):
    x = rng.standard_normal((2, 192, 192)).astype(np.float16)
    y = np.full((2, 192, 192), np.float16(-3))
    xx = x[:, :, ::2].transpose(2, 0, 1)
    want = y.copy()
    want[:, :, ::2] = x[:, :, ::2]
    view = list(xx.shape) + strides_of(xx)   # the same for yy
    args = {"0": x.ravel(), **{str(1 + i): v for i, v in enumerate(view)},
            "7": y.ravel(), **{str(8 + i): v for i, v in enumerate(view)}}
    yield Case(file="real/copy_3d_strided.tile", grid=(2, 1, 3), args=args,
               expect={"7": Out(want.ravel(), fmt="float16", exact=True)})
