# ---- the PyTorch adapter (adapters/torch/; configure --with-torch) --------
# A libtool module that python/sgk/torch.py loads (sgk.torch.enable()): it
# registers sgk as the CPU kernel of aten's scatter/gather ops.  It links
# libsgk's C API only and the torch it was configured against
# (m4/sgk_torch.m4), whose libraries it finds through its run path.
# Installed beside libsgk, and found from there through $ORIGIN.
SGK_TORCH_SOURCES = \
	adapters/torch/adapter_api.h \
	adapters/torch/counters.cpp adapters/torch/counters.hpp \
	adapters/torch/operands.cpp adapters/torch/operands.hpp \
	adapters/torch/output_pool.cpp adapters/torch/output_pool.hpp \
	adapters/torch/rows.cpp adapters/torch/rows.hpp \
	adapters/torch/reductions.cpp adapters/torch/reductions.hpp \
	adapters/torch/size_rule.cpp adapters/torch/size_rule.hpp \
	adapters/torch/threads.cpp adapters/torch/threads.hpp \
	adapters/torch/kernels.hpp \
	adapters/torch/gathers.cpp \
	adapters/torch/scatters.cpp \
	adapters/torch/index_updates.cpp \
	adapters/torch/index_put.cpp \
	adapters/torch/registration.cpp

if HAVE_TORCH
lib_LTLIBRARIES += adapters/torch/libsgk_torch.la
endif
adapters_torch_libsgk_torch_la_SOURCES = $(SGK_TORCH_SOURCES)
adapters_torch_libsgk_torch_la_CPPFLAGS = -I$(top_srcdir)/include $(TORCH_CPPFLAGS)
adapters_torch_libsgk_torch_la_CXXFLAGS = $(SGK_WARN_CXXFLAGS) $(SGK_VISIBILITY_FLAGS) $(TORCH_CXXFLAGS)
adapters_torch_libsgk_torch_la_LIBADD = src/libsgk.la
adapters_torch_libsgk_torch_la_LDFLAGS = -module -avoid-version -shared -no-undefined \
	$(TORCH_LIBS) -Wl,-rpath,'$$ORIGIN'

# From Python, against PyTorch's own kernels (tests/torch/): OpInfo sample
# inputs of every served op and dtype, gradcheck, bad indices, fork,
# threads.
TESTS += tests/test_torch.sh
EXTRA_DIST += tests/test_torch.sh tests/torch/common.py tests/torch/test_opinfo.py \
	tests/torch/test_adapter.py tests/torch/test_adapter_processes.py adapters/torch/local.mk \
	python/sgk/torch.py \
	bench/torch-models.py docs/torch.md m4/sgk_torch.m4
