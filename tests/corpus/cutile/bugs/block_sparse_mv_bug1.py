# Twin of kernels/control.py block_sparse_mv with one seeded bug.
import cuda.tile as ct


# tilesight: launch grid=(4,) A=f32[64,256] nz=i32[4,8] x=f32[256] y=f32[64] TM=16 TN=32
@ct.kernel
def block_sparse_mv(A, nz, x, y, TM: ct.Constant[int], TN: ct.Constant[int]):
    bm = ct.bid(0)
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for bn in range(A.shape[1] // TN):
        # The block mask indexed (column, row): nz has 4 rows, bn runs to 7.
        if ct.load(nz, index=(bn, bm), shape=()) == 0:  # BUG: bounds.index error
            continue
        a = ct.load(A, index=(bm, bn), shape=(TM, TN))
        xv = ct.load(x, index=(bn,), shape=(TN,))
        acc += a * xv.reshape((1, TN))
    ct.store(y, index=(bm,), tile=ct.sum(acc, axis=1))
