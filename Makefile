# sst: streaming CPU-profile filters.  See README.
.SUFFIXES:

PREFIX	= /usr/local
BINDIR	= $(PREFIX)/bin
MANDIR	= $(PREFIX)/share/man
CC	= cc
OPT	= -O2
PKGS	= libbsd-overlay
DEBPKGS	= build-essential pkg-config libbsd-dev libjsmn-dev check mandoc

# make SANITIZE=1 (with any target): AddressSanitizer and UBSan, built
# into build/san/ so that plain and sanitized objects never mix.
# make check VALGRIND=1: the golden suite with every filter under
# valgrind.  make fuzz: the libFuzzer harnesses of tests/fuzz.
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
	  `pkg-config --cflags $(PKGS)` -Icommon $(SANFLAGS)
LDLIBS	= `pkg-config --libs $(PKGS)` -lm
CHECKLIBS = `pkg-config --libs check`

COMMON_SRC = $(wildcard common/*.c)
COMMON_OBJ = $(COMMON_SRC:common/%.c=$(B)/common/%.o)
FILTERS	= $(patsubst filters/%.c,$(BIN)/%,$(wildcard filters/*.c))
PIPELINES = $(wildcard pipelines/*)
UNITS	= $(patsubst tests/unit/%.c,$(B)/tests/%,$(wildcard tests/unit/test_*.c))
MANS	= $(wildcard man/*.[157])

all: $(FILTERS)

$(B)/common/%.o: common/%.c common/sst.h
	@mkdir -p $(B)/common
	$(CC) $(CFLAGS) -c -o $@ $<

$(B)/libsst.a: $(COMMON_OBJ)
	rm -f $@
	ar rcs $@ $(COMMON_OBJ)

$(BIN)/%: filters/%.c $(B)/libsst.a common/sst.h
	@mkdir -p $(BIN)
	$(CC) $(CFLAGS) -o $@ $< $(B)/libsst.a $(LDLIBS)

$(B)/tests/%: tests/unit/%.c $(B)/libsst.a common/sst.h
	@mkdir -p $(B)/tests
	$(CC) $(CFLAGS) -o $@ $< $(B)/libsst.a $(CHECKLIBS) $(LDLIBS)

# Install the Debian packages the build and tests need, if any is missing.
deps:
	@sh tests/deps.sh $(DEBPKGS)

check: deps
	@$(MAKE) --no-print-directory all units
	@SANITIZE=$(SANITIZE) VALGRIND=$(VALGRIND) sh tests/run.sh

units: $(UNITS)

lint: deps
	mandoc -Tlint -W warning $(MANS)

demo: deps
	@$(MAKE) --no-print-directory all
	pipelines/analyze-pyspy-profile tests/fixtures/demo.speedscope.json \
	    --thread StreamingExecutor

bench: all build/genpyspy
	sh bench/run.sh

build/genpyspy: bench/genpyspy.c
	@mkdir -p build
	$(CC) $(CFLAGS) -o $@ bench/genpyspy.c $(LDLIBS)

install: all
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
	    $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7
	cp $(FILTERS) $(PIPELINES) $(DESTDIR)$(BINDIR)/
	cp man/*.1 $(DESTDIR)$(MANDIR)/man1/
	cp man/*.5 $(DESTDIR)$(MANDIR)/man5/
	cp man/*.7 $(DESTDIR)$(MANDIR)/man7/

clean:
	rm -rf bin build tests/out

.PHONY: all check units lint demo bench install clean deps
