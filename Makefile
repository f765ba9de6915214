# SPDX-License-Identifier: GPL-2.0
#
# make            build every module for KDIR, in this tree
# make kernels    build for every tested kernel, each in build/<version>/
# make check      warning gates and the VM test suite on every tested kernel
# make soak       every set at once under load, SOAK_MIN minutes a kernel
# make plants     the code review's defects put back, each turning red the
#                 torture, a short soak or a guest test (the torture's half
#                 runs in check)
# make demo       boot a kernel in qemu, load the probes, run a workload
# make bench      cost per event against an empty probe, ftrace, perf and BPF
# make install    install the modules for KDIR (then modprobe works)
# make deb        tpstat-dkms_<version>_all.deb, the modules as DKMS builds them,
#                 and tpstat_<version>_<arch>.deb, the command
# make tools      the tpstat command, tools/tpstat/tpstat, linked statically
# make install-tools  tpstat, its man page, tpstat.8, and its bash completion, under PREFIX

# The running kernel's build tree if it has one, else the newest installed.
KDIR ?= $(firstword $(wildcard /lib/modules/$(shell uname -r)/build) \
	$(shell ls -d /lib/modules/*/build 2>/dev/null | sort -V | tail -n 1))

SHELL := /bin/bash

all: modules

modules:
	@test -n "$(KDIR)" || { echo "no kernel build tree: run scripts/install-deps or set KDIR"; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

install: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install

kernels:
	scripts/install-deps
	. scripts/lib.sh && for k in $$(tpstat_installed_kernels); do \
		scripts/build-kernel $$k || exit 1; done

tools:
	$(MAKE) -C tools/tpstat

install-tools:
	$(MAKE) -C tools/tpstat install

check:
	scripts/check

soak:
	TPSTAT_STAGES=soak scripts/check

plants:
	scripts/review-plants

demo:
	scripts/demo

bench:
	scripts/bench

deb:
	scripts/build-deb

clean:
	test -z "$(KDIR)" || $(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C tools/tpstat clean
	rm -rf build tpstat-dkms_*.deb tpstat_*.deb

.PHONY: all modules install kernels tools install-tools check soak plants demo bench deb clean
