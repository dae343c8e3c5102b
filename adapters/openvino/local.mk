# ---- the OpenVINO extension (adapters/openvino/; configure --with-openvino) --
# A libtool module loaded by ov::Core::add_extension.  It links libsgk's C
# API only, OpenVINO and the oneTBB OpenVINO itself loads (m4/sgk_openvino.m4).
# Installed beside libsgk, and found from there through $ORIGIN.
SGK_OPENVINO_SOURCES = \
	adapters/openvino/element_types.cpp adapters/openvino/element_types.hpp \
	adapters/openvino/operands.cpp adapters/openvino/operands.hpp \
	adapters/openvino/plan_cache.cpp adapters/openvino/plan_cache.hpp \
	adapters/openvino/counters.cpp adapters/openvino/counters.hpp \
	adapters/openvino/extension_api.h \
	adapters/openvino/library_version.cpp adapters/openvino/library_version.hpp \
	adapters/openvino/sgk_op.cpp adapters/openvino/sgk_op.hpp \
	adapters/openvino/sgk_op_of.cpp adapters/openvino/sgk_op_of.hpp \
	adapters/openvino/elements_shape.cpp adapters/openvino/elements_shape.hpp \
	adapters/openvino/scatter_nd_op.cpp adapters/openvino/scatter_nd_op.hpp \
	adapters/openvino/gather_nd_op.cpp adapters/openvino/gather_nd_op.hpp \
	adapters/openvino/scatter_elements_op.cpp adapters/openvino/scatter_elements_op.hpp \
	adapters/openvino/gather_elements_op.cpp adapters/openvino/gather_elements_op.hpp \
	adapters/openvino/gather_op.cpp adapters/openvino/gather_op.hpp \
	adapters/openvino/tensor_scatter_op.cpp adapters/openvino/tensor_scatter_op.hpp \
	adapters/openvino/conversions.cpp adapters/openvino/conversions.hpp \
	adapters/openvino/transposed_scatter.cpp adapters/openvino/transposed_scatter.hpp \
	adapters/openvino/tbb_backend.cpp adapters/openvino/tbb_backend.hpp
SGK_OPENVINO_CPPFLAGS = -I$(top_srcdir)/include $(OPENVINO_CPPFLAGS) $(TBB_CPPFLAGS)
SGK_OPENVINO_CXXFLAGS = $(SGK_WARN_CXXFLAGS) $(SGK_VISIBILITY_FLAGS)

# The operators, once: linked into the module and into their test.
if HAVE_OPENVINO
noinst_LTLIBRARIES += adapters/openvino/libsgk_openvino_ops.la
lib_LTLIBRARIES += adapters/openvino/libsgk_openvino.la
endif
adapters_openvino_libsgk_openvino_ops_la_SOURCES = $(SGK_OPENVINO_SOURCES)
adapters_openvino_libsgk_openvino_ops_la_CPPFLAGS = $(SGK_OPENVINO_CPPFLAGS)
adapters_openvino_libsgk_openvino_ops_la_CXXFLAGS = $(SGK_OPENVINO_CXXFLAGS)

adapters_openvino_libsgk_openvino_la_SOURCES = adapters/openvino/extension.cpp
adapters_openvino_libsgk_openvino_la_CPPFLAGS = $(SGK_OPENVINO_CPPFLAGS)
adapters_openvino_libsgk_openvino_la_CXXFLAGS = $(SGK_OPENVINO_CXXFLAGS)
adapters_openvino_libsgk_openvino_la_LIBADD = adapters/openvino/libsgk_openvino_ops.la src/libsgk.la
adapters_openvino_libsgk_openvino_la_LDFLAGS = -module -avoid-version -shared -no-undefined \
	$(OPENVINO_LIBS) $(TBB_LIBS) -Wl,-rpath,'$$ORIGIN'

# The operators' own test, without OpenVINO's CPU plugin (which cannot be
# loaded under AddressSanitizer): each operator evaluated directly on
# ov::Tensors.
if HAVE_OPENVINO
if HAVE_CMOCKA
check_PROGRAMS += adapters/openvino/tests/test_ops
TESTS += adapters/openvino/tests/test_ops
endif
endif
adapters_openvino_tests_test_ops_SOURCES = adapters/openvino/tests/test_ops.cpp \
	adapters/openvino/tests/test_ops.hpp adapters/openvino/tests/test_ops_every_type.cpp \
	adapters/openvino/tests/test_ops_plans_errors.cpp \
	$(TEST_REFERENCE) $(TEST_COMMON)
adapters_openvino_tests_test_ops_CPPFLAGS = $(SGK_OPENVINO_CPPFLAGS) -I$(top_srcdir)/adapters/openvino \
	-I$(top_srcdir)/tests
adapters_openvino_tests_test_ops_CXXFLAGS = $(SGK_WARN_CXXFLAGS) $(CMOCKA_CFLAGS)
adapters_openvino_tests_test_ops_CFLAGS = $(AM_CFLAGS)
adapters_openvino_tests_test_ops_LDADD = adapters/openvino/libsgk_openvino_ops.la src/libsgk.la \
	$(CMOCKA_LIBS) $(PTHREAD_LIBS) -lm
adapters_openvino_tests_test_ops_LDFLAGS = $(OPENVINO_LIBS) $(TBB_LIBS) \
	-Wl,-rpath,$(OPENVINO_LIBDIR)

# Through OpenVINO's CPU plugin, from Python: every ONNX backend node test
# of the family, multi-node models against onnx.reference and OpenVINO
# alone, errors, concurrent requests, models exported by torch.onnx.export
# and their bad indices (tests/openvino/).
TESTS += tests/test_openvino.sh
EXTRA_DIST += tests/test_openvino.sh tests/openvino/common.py \
	tests/openvino/test_node_tests.py tests/openvino/test_models.py \
	tests/openvino/onnx_models.py tests/openvino/model_patterns.py tests/openvino/test_visibility.py \
	tests/openvino/test_precision.py tests/openvino/exported.py \
	tests/openvino/test_exported_models.py tests/openvino/test_exported_errors.py \
	adapters/openvino/local.mk python/sgk/_openvino.py bench/openvino-models.py \
	bench/openvino_exported.py
