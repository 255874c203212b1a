"""real/reduce_argmax_3d_partial.tile: test/test_reduction.py make_reduce_axis1_3d(ct.argmax) as
test_reduce_argmaxmin[argmax, keepdims=False, int32, tile=16, shape=(2, 4, 4)] launches it: one block loads a 16x4x4
tile of input i32 (2, 4, 4) (rows 2..15 past the edge, unspecified), takes the argmax along axis 1 (the smallest
index on ties, like torch.argmax / np.argmax) and stores the 16x4 result into output i32 (2, 4), masked at its edge.
Integers: exact. Cases: the test's input (make_tensor: integers in [-9, 10)); and an input of values from
{INT32_MIN, -1, 0, INT32_MAX} (many ties, one column all INT32_MIN, the reduction's identity value) with the output
the first 2 rows of a (16, 4) buffer (row stride 4, as the file's div_by<4> assumes): rows 2..15 of the result are
unspecified and must not reach the buffer's rows 2..15, which keep their sentinel. The output starts as a sentinel
(the test's is zeros)."""
import numpy as np

from parity import Case, Out, named

I32 = np.iinfo(np.int32)


def cases(rng):
    x = rng.integers(-9, 10, (2, 4, 4)).astype(np.int32)
    yield Case(file="real/reduce_argmax_3d_partial.tile", grid=(1, 1, 1), name="reduce_argmax_3d_partial(test)",
               args={**named("x", x), **named("y", np.full((2, 4), -1, np.int32))},
               expect={"y": Out(np.argmax(x, axis=1).astype(np.int32), exact=True)})

    x = rng.choice(np.array([I32.min, -1, 0, I32.max], np.int32), (2, 4, 4))
    x[1, :, 2] = I32.min
    x[0, :, 1] = [0, I32.max, -1, I32.max]
    buf = np.full((16, 4), -1, np.int32)
    want = buf.copy()
    want[:2] = np.argmax(x, axis=1)
    yield Case(file="real/reduce_argmax_3d_partial.tile", grid=(1, 1, 1),
               name="reduce_argmax_3d_partial(ties, 2 of 16 rows)",
               args={**named("x", x), **named("y", buf[:2]), "y": buf}, expect={"y": Out(want, exact=True)})
