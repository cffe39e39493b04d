"""Statistical kernels: pure numpy/scipy, one module per family of tests."""
