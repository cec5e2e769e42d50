// Placeholder; filled in by the layer's implementation.
