"""The element types of launch files: their short names (as launch files and directives spell
them), the longer names directives also accept, and their sizes."""

# Short name -> (bits, cuda.tile attribute).
DTYPES = {
    'f16': (16, 'float16'), 'bf16': (16, 'bfloat16'), 'f32': (32, 'float32'), 'f64': (64, 'float64'),
    'i8': (8, 'int8'), 'i16': (16, 'int16'), 'i32': (32, 'int32'), 'i64': (64, 'int64'),
    'u8': (8, 'uint8'), 'u16': (16, 'uint16'), 'u32': (32, 'uint32'), 'u64': (64, 'uint64'),
    'bool': (8, 'bool_'),
    # fp8 as Tile IR (and so tilesight's launch files and run's buffers) names them.
    'f8E4M3FN': (8, 'float8_e4m3fn'), 'f8E5M2': (8, 'float8_e5m2'), 'f8E8M0FNU': (8, 'float8_e8m0fnu'),
}

ALIASES = {attr: short for short, (_, attr) in DTYPES.items()}
ALIASES.update({short.lower(): short for short in DTYPES if short.startswith('f8')})

# __cuda_array_interface__ typestr kind letter and byte size -> short name ('V2' is bfloat16,
# as cuTile reads it).
TYPESTR = {('f', 2): 'f16', ('f', 4): 'f32', ('f', 8): 'f64', ('V', 2): 'bf16',
           ('i', 1): 'i8', ('i', 2): 'i16', ('i', 4): 'i32', ('i', 8): 'i64',
           ('u', 1): 'u8', ('u', 2): 'u16', ('u', 4): 'u32', ('u', 8): 'u64', ('b', 1): 'bool'}


# torch's dtype names (aliases included) -> the cuda.tile dtype cuTile's foreign dtype registry
# maps them to (cext/tile_kernel.cpp: foreign_dtype_table), for the stand-in of torch.
TORCH = {
    'float16': 'float16', 'half': 'float16', 'bfloat16': 'bfloat16',
    'float32': 'float32', 'float': 'float32', 'float64': 'float64', 'double': 'float64',
    'int8': 'int8', 'int16': 'int16', 'short': 'int16', 'int32': 'int32', 'int': 'int32',
    'int64': 'int64', 'long': 'int64',
    'uint8': 'uint8', 'uint16': 'uint16', 'uint32': 'uint32', 'uint64': 'uint64', 'bool': 'bool_',
    'float8_e4m3fn': 'float8_e4m3fn', 'float8_e5m2': 'float8_e5m2', 'float8_e8m0fnu': 'float8_e8m0fnu',
}


def torch_dtype(name):
    """The cuda.tile dtype cuTile takes for torch.NAME, or None (not a dtype, or one this cuTile
    lacks)."""
    attr = TORCH.get(name)
    if attr is None:
        return None
    import cuda.tile as ct
    return getattr(ct, attr, None)


def canonical(name):
    """The short name of dtype `name` (f32 or float32), or None."""
    if name in DTYPES:
        return name
    return ALIASES.get(name)


def bits(short):
    return DTYPES[short][0]


def is_integer(short):
    return short[0] in 'iu'


def is_float(short):
    return short[0] in 'fb' and short != 'bool'


def int_range(short):
    """The values an integer dtype holds, as (lowest, highest)."""
    n = bits(short)
    if short[0] == 'u':
        return 0, (1 << n) - 1
    return -(1 << (n - 1)), (1 << (n - 1)) - 1


def cutile_dtype(ct, short):
    """cuda.tile's dtype for `short`, or None when this cuTile has none (an older one)."""
    return getattr(ct, DTYPES[short][1], None)
