// Not a .tile file: the extension gives it the tileir language because it
// holds a cuda_tile.module (checked within its first 100 lines).
cuda_tile.module @detected {
  entry @k() {
    %c = constant <f32: 1.0> : tile<6xf32>
    return
  }
}
