"""real/raw_memory_interleave.tile: test/test_raw_array_memory.py interleave_load_store_gather_scatter_offset as
test_interleave_load_store_gather_scatter_offset_ordering launches it (one block, a f32 (16,)): eleven accesses to a
through ct.store/ct.load, ct.gather/ct.scatter and the raw load_offset/store_offset, each read seeing the writes
before it in program order (the gather of a[0..3] reads a[3] before store_offset(3, s) overwrites it). The reference
replays the source in NumPy. Cases: the test's a = zeros (its expected [100, 100, 101, 100, 101, 101, 102, 1, 101,
101, 102, 1, 0, 0, 0, 0]); and a starting random, so every value that is read is told apart from the one written
later (a[7] = old a[3] + 1; a[12..15] keep theirs). Copies and single f32 additions of 1 (NumPy's f32 add is
correctly rounded): bit for bit."""
import numpy as np

from parity import Case, Out, named

TEST_WANT = [100, 100, 101, 100, 101, 101, 102, 1, 101, 101, 102, 1, 0, 0, 0, 0]


def reference(a):
    a = a.copy()
    one = np.float32(1)
    a[0] = np.float32(100)      # 1) ct.store(a, (0,), full 100)
    a[1] = a[0]                 # 2) store_offset(1, load_offset(0))
    a[2] = a[1] + one           # 3) ct.load (1,), + 1, ct.store (2,)
    s = a[1]                    # 4) s = load_offset(1)
    g = a[0:4] + one            #    g = gather a[0..3] + 1
    a[3] = s                    #    store_offset(3, s)
    a[4:8] = g                  #    scatter to a[4..7]
    a[8:12] = a[4:8]            # 5) store_offset(8..11, load_offset(4..7))
    return a


def cases(rng):
    zeros = np.zeros(16, np.float32)
    assert list(reference(zeros)) == TEST_WANT
    rand = rng.uniform(-9, 9, 16).astype(np.float32)
    for label, a in (("test", zeros), ("random", rand)):
        yield Case(file="real/raw_memory_interleave.tile", grid=(1, 1, 1), name=f"raw_memory_interleave({label})",
                   args=named("a", a), expect={"a": Out(reference(a), exact=True)})
