# tests/sparse24.cmake: the 2:4 / 1:2 structured-sparsity tests.
tcspmm_add_test(test_sparse24 SOURCES test_sparse24.c sparse24_gen.c LABELS cpu)
tcspmm_add_test(gpu_sparse24 SOURCES gpu_sparse24.c matgen.c sparse24_gen.c LABELS gpu)
