# pricewatch: build and install as a systemd service.
#
#   make install                  release build; binary, unit, example configuration, calendars,
#                                 man pages and shell completions
#   make install PREFIX=/usr      binary in /usr/bin (the unit's ExecStart follows)
#   make install DESTDIR=/tmp/x   stage into a directory (packaging, tests)
#   make uninstall                remove the binary and the unit; keep configuration and state
#   make deb                      the Debian package pricewatch_VERSION_ARCH.deb (docs/packaging.md)
#   make lint-deb                 lintian on it
#
# An existing configuration is never changed: with /etc/pricewatch/pricewatch.toml present, the
# example files are skipped (and listed). BINARY=path installs an already built binary instead
# of building one.

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
SYSCONFDIR ?= /etc
CONFDIR ?= $(SYSCONFDIR)/pricewatch
# The distribution's unit directory for a /usr install (where a package would put it), the
# administrator's otherwise.
UNITDIR ?= $(if $(filter /usr,$(PREFIX)),/lib/systemd/system,$(SYSCONFDIR)/systemd/system)
# The trading calendars (docs/markets.md): /usr/share/pricewatch/calendars for PREFIX=/usr.
CALENDARDIR ?= $(PREFIX)/share/pricewatch/calendars
# Man pages and shell completions, where the package puts them for PREFIX=/usr (zsh's Debian
# vendor directory there, its site-functions otherwise).
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(if $(filter /usr,$(PREFIX)),/usr/share/zsh/vendor-completions,$(PREFIX)/share/zsh/site-functions)
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
SWIFT ?= swift
# The toolchain where scripts/setup expects it, also under sudo (whose PATH lacks it).
export PATH := $(PATH):/opt/swift/usr/bin
INSTALL ?= install

# The unit in the repository names the default location; installing rewrites it.
UNIT_BINARY := /usr/local/bin/pricewatch
CREDENTIALS := smtp-password webhook-secret

.PHONY: all build install install-binary install-unit install-config install-calendars install-docs uninstall deb lint-deb

all: build

build:
	$(SWIFT) build -c release --product pricewatch

install: install-binary install-unit install-config install-calendars install-docs
	@echo "installed. Next: edit $(CONFDIR)/pricewatch.toml, run 'pricewatch check', then"
	@echo "  systemctl daemon-reload && systemctl enable --now pricewatch"

ifeq ($(BINARY),)
install-binary: build
	$(INSTALL) -d "$(DESTDIR)$(BINDIR)"
	$(INSTALL) -m 0755 "$$($(SWIFT) build -c release --show-bin-path)/pricewatch" "$(DESTDIR)$(BINDIR)/pricewatch"
else
install-binary:
	$(INSTALL) -d "$(DESTDIR)$(BINDIR)"
	$(INSTALL) -m 0755 "$(BINARY)" "$(DESTDIR)$(BINDIR)/pricewatch"
endif

install-unit:
	$(INSTALL) -d "$(DESTDIR)$(UNITDIR)"
	sed -e 's|$(UNIT_BINARY)|$(BINDIR)/pricewatch|g' -e 's|/etc/pricewatch|$(CONFDIR)|g' \
		systemd/pricewatch.service > "$(DESTDIR)$(UNITDIR)/pricewatch.service.tmp"
	chmod 0644 "$(DESTDIR)$(UNITDIR)/pricewatch.service.tmp"
	mv -f "$(DESTDIR)$(UNITDIR)/pricewatch.service.tmp" "$(DESTDIR)$(UNITDIR)/pricewatch.service"
	$(INSTALL) -m 0644 systemd/pricewatch-http.socket "$(DESTDIR)$(UNITDIR)/pricewatch-http.socket"

# The example configuration goes in only where there is none yet (no pricewatch.toml): an
# existing configuration is never changed, not even by adding example rule files to its
# rules.d, which would start watching them. Without one, files already there are kept. The
# credential files are created empty (mode 0600) when missing, because LoadCredential= fails
# the unit for a missing file; fill in the ones your configuration names. portfolios.d (0750,
# private data) is created for the same reason: the unit loads it as credentials.
install-config:
	@[ -d "$(DESTDIR)$(CONFDIR)/portfolios.d" ] || $(INSTALL) -d -m 0750 "$(DESTDIR)$(CONFDIR)/portfolios.d"
	@set -e; existing=no; \
	if [ -e "$(DESTDIR)$(CONFDIR)/pricewatch.toml" ]; then existing=yes; fi; \
	cd etc/pricewatch; \
	find . -type f | LC_ALL=C sort | while read -r file; do \
		target="$(DESTDIR)$(CONFDIR)/$${file#./}"; \
		if [ -e "$$target" ]; then \
			echo "kept existing $(CONFDIR)/$${file#./}"; \
		elif [ "$$existing" = yes ]; then \
			echo "skipped example $(CONFDIR)/$${file#./} (the existing configuration stays as it is)"; \
		else \
			$(INSTALL) -D -m 0644 "$$file" "$$target"; \
			echo "installed $(CONFDIR)/$${file#./}"; \
		fi; \
	done
	@set -e; $(INSTALL) -d -m 0700 "$(DESTDIR)$(CONFDIR)/credentials"; \
	for name in $(CREDENTIALS); do \
		target="$(DESTDIR)$(CONFDIR)/credentials/$$name"; \
		if [ -e "$$target" ]; then \
			echo "kept existing $(CONFDIR)/credentials/$$name"; \
		else \
			$(INSTALL) -m 0600 /dev/null "$$target"; \
			echo "created empty $(CONFDIR)/credentials/$$name (fill it in if the configuration names it)"; \
		fi; \
	done

# The shipped calendars are data of the program, replaced on every install; operators change
# them with files in $(CONFDIR)/calendars.d (docs/markets.md).
install-calendars:
	$(INSTALL) -d "$(DESTDIR)$(CALENDARDIR)"
	$(INSTALL) -m 0644 calendars/*.toml "$(DESTDIR)$(CALENDARDIR)/"

# pricewatch(1) and the completions are generated from the installed binary (scripts/
# generate-docs: swift-argument-parser's description of every option), as the package does, so
# they match the binary that was installed; pricewatch.toml(5) is written by hand.
install-docs: install-binary
	@set -e; generated=$$(mktemp -d); trap 'rm -rf "$$generated"' EXIT; \
	scripts/generate-docs "$(DESTDIR)$(BINDIR)/pricewatch" "$$generated"; \
	$(INSTALL) -d "$(DESTDIR)$(MANDIR)/man1" "$(DESTDIR)$(MANDIR)/man5" "$(DESTDIR)$(BASHCOMPDIR)" \
		"$(DESTDIR)$(ZSHCOMPDIR)" "$(DESTDIR)$(FISHCOMPDIR)"; \
	gzip -9n -c "$$generated/pricewatch.1" > "$(DESTDIR)$(MANDIR)/man1/pricewatch.1.gz"; \
	gzip -9n -c docs/man/pricewatch.toml.5 > "$(DESTDIR)$(MANDIR)/man5/pricewatch.toml.5.gz"; \
	chmod 0644 "$(DESTDIR)$(MANDIR)/man1/pricewatch.1.gz" "$(DESTDIR)$(MANDIR)/man5/pricewatch.toml.5.gz"; \
	sed '1{/^#!/d}' "$$generated/pricewatch.bash" > "$(DESTDIR)$(BASHCOMPDIR)/pricewatch"; \
	chmod 0644 "$(DESTDIR)$(BASHCOMPDIR)/pricewatch"; \
	$(INSTALL) -m 0644 "$$generated/_pricewatch" "$(DESTDIR)$(ZSHCOMPDIR)/_pricewatch"; \
	$(INSTALL) -m 0644 "$$generated/pricewatch.fish" "$(DESTDIR)$(FISHCOMPDIR)/pricewatch.fish"; \
	for file in $(MANDIR)/man1/pricewatch.1.gz $(MANDIR)/man5/pricewatch.toml.5.gz $(BASHCOMPDIR)/pricewatch \
		$(ZSHCOMPDIR)/_pricewatch $(FISHCOMPDIR)/pricewatch.fish; do echo "installed $$file"; done

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/pricewatch" "$(DESTDIR)$(UNITDIR)/pricewatch.service"
	rm -rf "$(DESTDIR)$(CALENDARDIR)"
	rm -f "$(DESTDIR)$(MANDIR)/man1/pricewatch.1.gz" "$(DESTDIR)$(MANDIR)/man5/pricewatch.toml.5.gz" \
		"$(DESTDIR)$(BASHCOMPDIR)/pricewatch" "$(DESTDIR)$(ZSHCOMPDIR)/_pricewatch" "$(DESTDIR)$(FISHCOMPDIR)/pricewatch.fish"
	@echo "removed $(BINDIR)/pricewatch and $(UNITDIR)/pricewatch.service, the man pages and completions"
	@echo "kept the configuration in $(CONFDIR) and the state in /var/lib/pricewatch; remove them by hand if you want them gone"

# The Debian package, from the release build with the Swift runtime linked statically
# (BINARY=path packages an already built one; DEB_VERSION=V overrides the version).
deb:
	scripts/setup-deb
	scripts/build-deb

lint-deb: deb
	lintian --fail-on error --suppress-tags-from-file packaging/debian/lintian-suppressed pricewatch_*_$$(dpkg --print-architecture).deb
