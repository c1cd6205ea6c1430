# sst: streaming CPU-profile filters.  See README.
.SUFFIXES:

PREFIX	= /usr/local
BINDIR	= $(PREFIX)/bin
MANDIR	= $(PREFIX)/share/man
CC	= cc
OPT	= -O2
PKGS	= libbsd-overlay zlib libzstd sqlite3
# libunistring ships no pkg-config file.
EXTRALIBS = -lunistring
DEBPKGS	= build-essential pkg-config libbsd-dev libjsmn-dev check mandoc \
	  zlib1g-dev libzstd-dev libsqlite3-dev sqlite3 libunistring-dev \
	  zstd graphviz libxml2-utils parallel openssh-server chromium \
	  python3

# make SANITIZE=1 (with any target): AddressSanitizer and UBSan, built
# into build/san/ so that plain and sanitized objects never mix.
# make check VALGRIND=1: every program of the golden, pipeline and
# malformed cases run under valgrind memcheck (ONLY and SHARD pick
# some; see tests/README).  make fuzz: the libFuzzer harnesses of
# tests/fuzz.
SAN_1	= -fsanitize=address,undefined,float-cast-overflow \
	  -fno-omit-frame-pointer -fno-sanitize-recover=all
SANFLAGS = $(SAN_$(SANITIZE))
ifeq ($(SANITIZE),1)
B	= build/san
BIN	= build/san/bin
else
B	= build
BIN	= bin
endif
ifeq ($(VALGRIND),1)
DEBPKGS	+= valgrind
endif
ifeq ($(SANITIZE)$(VALGRIND),11)
$(error SANITIZE=1 and VALGRIND=1 do not mix)
endif

CFLAGS	= -std=c11 -Wall -Wextra -pedantic $(OPT) -g -ffp-contract=off \
	  -D_DEFAULT_SOURCE -DJSMN_STRICT -DJSMN_PARENT_LINKS \
	  `pkg-config --cflags $(PKGS)` $(INCS) $(SANFLAGS)
LDLIBS	= -Wl,--as-needed `pkg-config --libs $(PKGS)` $(EXTRALIBS) -lm
CHECKLIBS = `pkg-config --libs check`

# Prerequisites with $$ are expanded a second time (the spd variants and
# the fuzz harnesses).
.SECONDEXPANSION:

# common/ holds one folder per layer (common/README); every folder is on
# the include path, so that a file includes a header by its name alone.
LAYERS	= base stream json formats reduce draw
INCS	= $(LAYERS:%=-Icommon/%)
COMMON_SRC = $(wildcard common/*/*.c)
COMMON_OBJ = $(COMMON_SRC:common/%.c=$(B)/common/%.o)
FILTERS	= $(patsubst filters/%.c,$(BIN)/%,$(wildcard filters/*.c))
PIPELINES = $(wildcard pipelines/*)
UNITS	= $(patsubst tests/unit/%.c,$(B)/tests/%,$(wildcard tests/unit/test_*.c))
MANS	= $(wildcard man/*.[157])

# Each object's real dependencies: the compiler writes the headers it
# read into a .d file beside the object (-MMD; -MP adds an empty rule
# per header, so that a removed header is no error), and make reads
# them all back, so touching a header rebuilds only what includes it.
DEPFLAGS = -MMD -MP

all: $(FILTERS)

$(B)/common/%.o: common/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(B)/libsst.a: $(COMMON_OBJ)
	rm -f $@
	ar rcs $@ $(COMMON_OBJ)

$(B)/filters/%.o: filters/%.c
	@mkdir -p $(B)/filters
	$(CC) $(CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(BIN)/%: $(B)/filters/%.o $(B)/libsst.a
	@mkdir -p $(BIN)
	$(CC) $(CFLAGS) -o $@ $< $(B)/libsst.a $(LDLIBS)

$(B)/tests/%.o: tests/unit/%.c
	@mkdir -p $(B)/tests
	$(CC) $(CFLAGS) $(DEPFLAGS) -Itests/unit -c -o $@ $<

$(B)/tests/%: $(B)/tests/%.o $(B)/tests/tutil.o $(B)/libsst.a
	$(CC) $(CFLAGS) -o $@ $< $(B)/tests/tutil.o $(B)/libsst.a \
	    $(CHECKLIBS) $(LDLIBS)

# test_spd's checks over spd.c built with one define: SPD_COLLIDE,
# colliding raw text hashes; SPD_CONVERT, every raw text miss converted
# where it is read.  SPD_PARTS are the files of common/ built with the
# define into build/tests/VARIANT/, linked before libsst.a so that
# their objects stand in for the archive's.
SPD_PARTS = spd spdread spdraw spdq spdrec spdout
SPDVARIANTS = $(B)/tests/test_spdcollide $(B)/tests/test_spdconv
$(B)/tests/spdcollide/%.o: common/formats/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DEPFLAGS) -DSPD_COLLIDE -c -o $@ $<
$(B)/tests/spdconv/%.o: common/formats/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DEPFLAGS) -DSPD_CONVERT -c -o $@ $<
$(SPDVARIANTS): $(B)/tests/test_%: $(B)/tests/test_%.o \
    $$(addprefix $(B)/tests/$$*/,$$(addsuffix .o,$$(SPD_PARTS))) \
    $(B)/tests/tutil.o $(B)/libsst.a
	$(CC) $(CFLAGS) -o $@ $< $(filter $(B)/tests/$*/%.o,$^) \
	    $(B)/tests/tutil.o $(B)/libsst.a $(CHECKLIBS) $(LDLIBS)

.PRECIOUS: $(B)/filters/%.o $(B)/tests/%.o $(B)/tests/spdcollide/%.o \
	$(B)/tests/spdconv/%.o

# Install the Debian packages the build and tests need, if any is missing.
deps:
	@sh tests/deps.sh $(DEBPKGS)
	@sh tests/s3/install.sh || \
	    echo "warning: no local S3 server: the S3 tests will fail" >&2
	@sh tests/pics/install.sh || \
	    echo "warning: no jsdom: the sst-flame script tests will fail" >&2
	@sh tests/pprof/install.sh || \
	    echo "warning: no pprof-format: the pprof tests will be skipped" >&2

# make check runs the pipelines' cases beside the rest (tests/run.sh).
JOBS	= 2

# With SANITIZE=1 the plain bin/ is built too, for the scripts that run
# pipelines/ by path (which then use bin/); the rest use build/san/bin.
check: deps
	@$(MAKE) --no-print-directory all units build/genpyspy
	@if [ "$(SANITIZE)" = 1 ]; then \
	    $(MAKE) --no-print-directory SANITIZE= all; fi
	@SANITIZE=$(SANITIZE) VALGRIND=$(VALGRIND) JOBS=$(JOBS) sh tests/run.sh

units: $(UNITS)

lint: deps
	mandoc -Tlint -W warning $(MANS)

demo: deps
	@$(MAKE) --no-print-directory all
	pipelines/analyze-pyspy-profile tests/fixtures/demo.speedscope.json \
	    --thread StreamingExecutor

bench: all build/genpyspy build/gentrace build/s2sfloor
	sh bench/run.sh

# The pictures of README, from the demo profile: a flame graph (SVG,
# and a PNG screenshot by headless Chromium) and a call graph (PNG).
PICS	= pictures
pictures: all
	@mkdir -p $(PICS) build
	bin/sst-flatten tests/fixtures/demo.speedscope.json >build/demo.sst
	bin/sst-flame --title 'sst-flame: the demo profile' build/demo.sst \
	    >$(PICS)/demo-flame.svg
	h=`sed -n 's/^<svg .* height="\([0-9]*\)".*/\1/p' \
	    $(PICS)/demo-flame.svg` && t=`mktemp -d` && \
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
	    --user-data-dir=$$t --window-size=1200,$$h \
	    --screenshot=$(CURDIR)/$(PICS)/demo-flame.png \
	    file://$(CURDIR)/$(PICS)/demo-flame.svg 2>/dev/null; \
	    st=$$?; rm -rf $$t; exit $$st
	pipelines/sst-graph -o $(PICS)/demo-callgraph.png build/demo.sst
	@if [ -d $(CORPUS)/pytorch ]; then $(MAKE) --no-print-directory \
	    $(PICS)/gpu-temporal.svg; else echo "make pictures: no" \
	    "$(CORPUS)/pytorch: gpu-temporal.svg not remade" >&2; fi

# The shares of GPU time (idle, compute, non-compute) of the public
# PyTorch traces of the corpus that have GPU events, sst-gpu -F temporal
# drawn by sst-bars, one bar per trace named by a word of its file name.
CORPUS	= ../shared/corpus
GPUPIC	= amd alexnet nccl sampled
GPUTITLE = GPU time of the PyTorch traces, as HTA's temporal breakdown
$(PICS)/gpu-temporal.svg: bin/sst-gpu bin/sst-bars
	@mkdir -p $(PICS) build
	printf 'trace\tidle (%%)\tcompute (%%)\tnon-compute (%%)\n' \
	    >build/gpu.tsv
	for t in $(GPUPIC); do \
	    bin/sst-gpu -F temporal $(CORPUS)/pytorch/HTA__*$$t*.json \
	    >build/gpu1.tsv && awk -F '\t' -v n=$$t 'NR == 2 { print n "\t" \
	    $$6 "\t" $$7 "\t" $$8 }' build/gpu1.tsv >>build/gpu.tsv || exit; \
	done
	bin/sst-bars --title "$(GPUTITLE)" build/gpu.tsv >$@.tmp
	mv $@.tmp $@

build/genpyspy: bench/genpyspy.c
	@mkdir -p build
	$(CC) $(CFLAGS) -o $@ bench/genpyspy.c $(LDLIBS)

build/gentrace: bench/gentrace.c
	@mkdir -p build
	$(CC) $(CFLAGS) -o $@ bench/gentrace.c $(LDLIBS)

# The least work of sst2speedscope -S, for bench/s2s-1m.sh (a floor).
build/s2sfloor: bench/s2sfloor.c $(B)/libsst.a
	$(CC) $(CFLAGS) -o $@ bench/s2sfloor.c $(B)/libsst.a $(LDLIBS)

# The libFuzzer harnesses (tests/fuzz/README), built with clang into
# build/fuzz; make fuzz runs each for FUZZ_SECONDS.
FUZZCC	= clang
FUZZ_SECONDS = 60
FUZZDEBPKGS = clang libclang-rt-14-dev
FZ	= build/fuzz
FUZZFLAGS = -std=c11 -Wall -Wextra -g -O1 -ffp-contract=off \
	  -U_FORTIFY_SOURCE -D_DEFAULT_SOURCE -DJSMN_STRICT \
	  -DJSMN_PARENT_LINKS `pkg-config --cflags $(PKGS)` $(INCS) \
	  -fsanitize=address,undefined,float-cast-overflow \
	  -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZDEFS = -Dexit=fuzz_exit -Derr=fuzz_err -Derrx=fuzz_errx \
	  -Dwarn=fuzz_warn -Dwarnx=fuzz_warnx -Dmalloc=fuzz_malloc \
	  -Dcalloc=fuzz_calloc -Drealloc=fuzz_realloc \
	  -Dreallocarray=fuzz_reallocarray -Daligned_alloc=fuzz_aligned_alloc \
	  -Dstrdup=fuzz_strdup \
	  -Dfree=fuzz_free -Dread=fuzz_read -Dfopen=fuzz_fopen \
	  -Dfdopen=fuzz_fdopen -Dfclose=fuzz_fclose -DSST_ONETHREAD \
	  -DSST_SMALLWIN
FUZZ_FILTER_collapsed = collapsed2sst
FUZZ_FILTER_categories = sst-categories
FUZZ_FILTER_perf2sst = perf2sst
FUZZ_FILTER_pprof2sst = pprof2sst
# A filter's harness is built only when the filter exists.
FUZZERS	= json spd rec cpuprofile gpu \
	  $(foreach h,collapsed categories perf2sst pprof2sst,$(if $(wildcard \
	  filters/$(FUZZ_FILTER_$(h)).c),$(h)))

$(FZ)/common/%.o: common/%.c
	@mkdir -p $(@D)
	$(FUZZCC) $(FUZZFLAGS) -fsanitize=fuzzer-no-link $(FUZZDEFS) \
	    $(DEPFLAGS) -c -o $@ $<

$(FZ)/libsst.a: $(COMMON_SRC:common/%.c=$(FZ)/common/%.o)
	rm -f $@
	ar rcs $@ $^

$(FZ)/filters/%.o: filters/%.c
	@mkdir -p $(FZ)/filters
	$(FUZZCC) $(FUZZFLAGS) -fsanitize=fuzzer-no-link $(FUZZDEFS) \
	    -Dmain=filter_main -Dsst_init=fuzz_sst_init $(DEPFLAGS) -c -o $@ $<

$(FZ)/fuzz.o: tests/fuzz/fuzz.c
	@mkdir -p $(FZ)
	$(FUZZCC) $(FUZZFLAGS) $(DEPFLAGS) -c -o $@ tests/fuzz/fuzz.c

.PRECIOUS: $(FZ)/filters/%.o

# A filter's harness (FUZZ_FILTER_name set) links the filter's object.
$(FZ)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h tests/fuzz/filter.h \
    $(FZ)/fuzz.o $(FZ)/libsst.a \
    $$(addprefix $(FZ)/filters/,$$(addsuffix .o,$$(FUZZ_FILTER_$$*)))
	$(FUZZCC) $(FUZZFLAGS) -Itests/fuzz -fsanitize=fuzzer -o $@ $< \
	    $(FZ)/fuzz.o $(filter $(FZ)/filters/%.o,$^) $(FZ)/libsst.a \
	    $(LDLIBS)

fuzz-deps:
	@sh tests/deps.sh $(DEBPKGS) $(FUZZDEBPKGS)

fuzz-build: fuzz-deps
	@$(MAKE) --no-print-directory $(FUZZERS:%=$(FZ)/fuzz_%)

fuzz: fuzz-build
	@sh tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZERS)

install: all
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
	    $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7
	cp $(FILTERS) $(PIPELINES) $(DESTDIR)$(BINDIR)/
	cp man/*.1 $(DESTDIR)$(MANDIR)/man1/
	cp man/*.5 $(DESTDIR)$(MANDIR)/man5/
	cp man/*.7 $(DESTDIR)$(MANDIR)/man7/

clean:
	rm -rf bin build tests/out

# The dependencies the compiler wrote (DEPFLAGS above).
-include $(wildcard $(B)/common/*/*.d $(B)/filters/*.d $(B)/tests/*.d \
	$(B)/tests/*/*.d $(FZ)/*.d $(FZ)/*/*.d $(FZ)/*/*/*.d)

.PHONY: all check units lint demo bench install clean deps fuzz fuzz-build \
	fuzz-deps pictures
