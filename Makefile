# oompardon - keeps the OOM killer away from the programs you name.

VERSION   := 0.1
PREFIX    ?= /usr/local
SBINDIR   ?= $(PREFIX)/sbin
MANDIR    ?= $(PREFIX)/share/man
SYSCONFDIR ?= /etc
UNITDIR   ?= $(PREFIX)/lib/systemd/system
DOCDIR    ?= $(PREFIX)/share/doc/oompardon

CC        ?= cc
WARNINGS  := -Wall -Wextra -Wshadow -Wconversion -Wsign-conversion -Wmissing-prototypes \
             -Wstrict-prototypes -Wformat=2 -Wundef -Wpointer-arith -Wcast-qual -Wvla
CFLAGS    ?= -O2 -g
CPPFLAGS  += -D_GNU_SOURCE -DVERSION='"$(VERSION)"'
ALL_CFLAGS = -std=gnu11 $(WARNINGS) -Werror=implicit-function-declaration $(CFLAGS)

SRCS      := $(sort $(wildcard src/*.c))
LIB_SRCS  := $(filter-out src/main.c,$(SRCS))
OBJS      := $(SRCS:src/%.c=build/obj/%.o)
LIB_OBJS  := $(LIB_SRCS:src/%.c=build/obj/%.o)
ASAN_OBJS := $(SRCS:src/%.c=build/asan/%.o)

UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=build/tests/%)
HELPER_SRCS := $(sort $(wildcard tests/helpers/*.c))
HELPER_BINS := $(HELPER_SRCS:tests/helpers/%.c=build/helpers/%)

SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

.PHONY: all run check deps-check deps-bench check-unit check-config check-integration check-asan check-valgrind \
        vmcheck bench install uninstall clean helpers

all: oompardon

oompardon: $(OBJS)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(OBJS)

build/obj/%.o: src/%.c $(wildcard src/*.h) | build/obj
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -MMD -c -o $@ $<

build/asan/%.o: src/%.c $(wildcard src/*.h) | build/asan
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(SAN_FLAGS) -c -o $@ $<

build/asan/oompardon: $(ASAN_OBJS)
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -o $@ $(ASAN_OBJS)

# An archive: a test pulls in only the objects it needs, so commands that call into
# main.c (cmd_load_rules) do not break the link of every test.
build/liboompardon.a: $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJS)

build/tests/%: tests/unit/%.c build/liboompardon.a | build/tests
	$(CC) $(CPPFLAGS) -Isrc $(ALL_CFLAGS) -Wno-missing-prototypes -o $@ $< build/liboompardon.a -lcmocka

build/helpers/%: tests/helpers/%.c | build/helpers
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -Wno-missing-prototypes -o $@ $<

helpers: $(HELPER_BINS)

build/obj build/asan build/tests build/helpers:
	mkdir -p $@

-include $(OBJS:.o=.d)

# The main job: see the README.
run: oompardon
	./tools/run.sh

# Everything CI runs. Each part can run alone.
# Installs the Debian packages the tests need (only those missing), then runs them all.
check: deps-check
	$(MAKE) check-unit check-config check-integration check-asan check-valgrind vmcheck

deps-check:
	tools/deps.sh check

check-unit: $(UNIT_BINS)
	@set -e; for t in $(UNIT_BINS); do echo "# $$t"; $$t; done

check-config: oompardon
	tests/config/run.sh ./oompardon

check-integration: oompardon helpers
	OOMPARDON=$(CURDIR)/oompardon HELPERS=$(CURDIR)/build/helpers prove -v tests/integration/

check-asan: build/asan/oompardon helpers
	ASAN_OPTIONS=detect_leaks=1 OOMPARDON=$(CURDIR)/build/asan/oompardon HELPERS=$(CURDIR)/build/helpers \
		prove tests/integration/

check-valgrind: oompardon
	tests/valgrind.sh ./oompardon

vmcheck: oompardon helpers
	tests/vm/run.sh

bench: deps-bench
	$(MAKE) bench-run

deps-bench:
	tools/deps.sh bench

bench-run: oompardon helpers
	bench/run.sh

install: oompardon
	install -D -m 0755 oompardon $(DESTDIR)$(SBINDIR)/oompardon
	install -D -m 0644 doc/oompardon.8 $(DESTDIR)$(MANDIR)/man8/oompardon.8
	install -D -m 0644 doc/oompardon.conf.5 $(DESTDIR)$(MANDIR)/man5/oompardon.conf.5
	install -D -m 0644 etc/oompardon.conf.example $(DESTDIR)$(DOCDIR)/oompardon.conf.example
	install -D -m 0644 etc/oompardon.service $(DESTDIR)$(UNITDIR)/oompardon.service
	sed -i 's|@SBINDIR@|$(SBINDIR)|g' $(DESTDIR)$(UNITDIR)/oompardon.service

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/oompardon $(DESTDIR)$(MANDIR)/man8/oompardon.8 \
	      $(DESTDIR)$(MANDIR)/man5/oompardon.conf.5 $(DESTDIR)$(DOCDIR)/oompardon.conf.example \
	      $(DESTDIR)$(UNITDIR)/oompardon.service

clean:
	rm -rf build oompardon
