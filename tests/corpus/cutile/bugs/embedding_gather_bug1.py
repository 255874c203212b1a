# Twin of kernels/gather_scatter.py embedding_gather with one seeded bug.
import cuda.tile as ct


# tilesight: launch grid=(4,) table=f32[100,32] ids=i32[64] out=f32[64,32] TB=16 D=32
@ct.kernel
def embedding_gather(table, ids, out, TB: ct.Constant[int], D: ct.Constant[int]):
    b = ct.bid(0)
    rows = ct.load(ids, index=(b,), shape=(TB,))
    cols = ct.arange(D, dtype=ct.int32)
    # 1-based ids, bounds check off: an id of len(table) - 1 reads one row past the table.
    emb = ct.gather(table, (rows.reshape((TB, 1)) + 1, cols.reshape((1, D))), check_bounds=False)  # BUG: bounds.index warning
    ct.store(out, index=(b, 0), tile=emb)
