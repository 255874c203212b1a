import cuda.tile as ct


# tilesight: launch grid=(4,) x=f32[32,128] idx=i32[32] TM=8 TN=128
@ct.kernel
def argmax_rows(x, idx, TM: ct.Constant[int], TN: ct.Constant[int]):
    bm = ct.bid(0)
    t = ct.load(x, index=(bm, 0), shape=(TM, TN))
    ct.store(idx, index=(0,), tile=ct.argmax(t, axis=1).astype(ct.int32))
