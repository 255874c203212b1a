"""real/token_order.tile: the seven kernels of test/test_token_order.py (one per `// -----` chunk),
whose tests only compile them: run here on X, Y i32 with what each kernel computes when its memory
operations happen in the order the tokens give. Integers: exact."""
import numpy as np

from parity import Case, Out, named

FILE = "real/token_order.tile"


def ints(rng, n):
    return rng.integers(-1000, 1000, n).astype(np.int32)


def cases(rng):
    # 1 no_control_flow: X[:1024] = X[:1024] + X[1024:], then a gather of X[:1024] (after that store)
    # scattered to X[1024:].
    x = ints(rng, 2048)
    s = x[:1024] + x[1024:]
    yield Case(file=FILE, chunk=1, name="token_order#1 no_control_flow", grid=(1, 1, 1), args=named("X", x),
               expect={"X": Out(np.concatenate([s, s]), exact=True)})
    # 2 ifelse_load_store: if cond, X += 1 (stored, reloaded, stored again); else X as it was.
    for cond in (1, 0):
        x = ints(rng, 1024)
        yield Case(file=FILE, chunk=2, name=f"token_order#2 ifelse_load_store(cond={cond})", grid=(1, 1, 1),
                   args={**named("X", x), "cond": cond}, expect={"X": Out(x + cond, exact=True)})
    # 3 for_loop_load_store and 5 while_loop_load_store: n reloads, increments and stores: X + n.
    for chunk, kernel in ((3, "for_loop_load_store"), (5, "while_loop_load_store")):
        for n in (10, 0):
            x = ints(rng, 1024)
            yield Case(file=FILE, chunk=chunk, name=f"token_order#{chunk} {kernel}(n={n})", grid=(1, 1, 1),
                       args={**named("X", x), "n": n}, expect={"X": Out(x + n, exact=True)})
    # 4 one_parallel_one_serial_store: X tile 0 copied to tiles 0..n-1 (the others keep theirs); Y's tiles
    # reloaded and stored unchanged.
    for n in (10, 3):
        x, y = ints(rng, 10240), ints(rng, 10240)
        want = x.copy()
        want[:1024 * n] = np.tile(x[:1024], n)
        yield Case(file=FILE, chunk=4, name=f"token_order#4 one_parallel_one_serial_store(n={n})", grid=(1, 1, 1),
                   args={**named("X", x), **named("Y", y), "n": n},
                   expect={"X": Out(want, exact=True), "Y": Out(y, exact=True)})
    # 6 if_else_kernel (acquire): X[:1024] += 1; Y[0] becomes its old value + 1 on either branch
    # (an atomic add of 1 then a store of old + 1, or a gather then a store of value + 1).
    for n in (10, 0):
        x, y = ints(rng, 1024), ints(rng, 1024)
        want = y.copy()
        want[0] += 1
        yield Case(file=FILE, chunk=6, name=f"token_order#6 if_else_kernel(n={n})", grid=(1, 1, 1),
                   args={**named("X", x), **named("Y", y), "n": n},
                   expect={"X": Out(x + 1, exact=True), "Y": Out(want, exact=True)})
    # 7 for_loop_kernel (release): n times, an atomic add of 1 to Y[0] then a store of its old value
    # + 1: Y[0] + n; X[:1024] += 1.
    for n in (10, 0):
        x, y = ints(rng, 1024), ints(rng, 1024)
        want = y.copy()
        want[0] += n
        yield Case(file=FILE, chunk=7, name=f"token_order#7 for_loop_kernel(n={n})", grid=(1, 1, 1),
                   args={**named("X", x), **named("Y", y), "n": n},
                   expect={"X": Out(x + 1, exact=True), "Y": Out(want, exact=True)})
