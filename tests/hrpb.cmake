# hrpb.cmake: tests of the HRPB builder, decoder, CPU executor, metrics and
# the wave-aware splitting of heavy panels (CPU only).
tcspmm_add_test(test_hrpb SOURCES test_hrpb.c matgen.c)
tcspmm_add_test(test_wave_split SOURCES test_wave_split.c matgen.c)
# New values for a plan's matrix: HRPB's value slots and the cpu path (CPU only).
tcspmm_add_test(test_plan_values SOURCES test_plan_values.c matgen.c)
# The clustered row order of HRPB panels (CPU only).
tcspmm_add_test(test_row_order SOURCES test_row_order.c matgen.c)
# The rule of the automatic path choice on made-up plan metrics (CPU only).
tcspmm_add_test(test_auto_path SOURCES test_auto_path.c)
