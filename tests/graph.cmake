# graph.cmake: tcspmm_spmm captured into a CUDA graph on every GPU path
# (label gpu; skipped without a GPU).
tcspmm_add_test(gpu_graph SOURCES gpu_graph.c matgen.c sparse24_gen.c LABELS gpu)
