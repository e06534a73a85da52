#!/bin/sh
# Run every distribution check and print one closing line `N passed, N failed`.
#
#   tests/distribution/run-all.sh            # all checks
#   DEVPROJEX_DIST_CHECKS="packaging install" tests/distribution/run-all.sh
#
# Checks: packaging (manifests, schemas, update-packaging.sh, mcpb), install (install.sh against
# a loopback server), self-update (the real binary against a loopback releases API), dist (pinned
# cargo-dist, plan, artifact names), deb (cargo-deb, dpkg -i/-r).
# They use the devprojex binary in target/release or target/debug (or $DEVPROJEX_BIN): build it
# first. First run on a fresh machine installs cargo-dist and cargo-deb with cargo install.
set -u
dir=$(cd "$(dirname "$0")" && pwd)
checks=${DEVPROJEX_DIST_CHECKS:-packaging install self-update dist deb}
total_pass=0
total_fail=0
for check in $checks; do
    script="$dir/check-$check.sh"
    if [ ! -f "$script" ]; then
        echo "FAIL unknown check '$check'"
        total_fail=$((total_fail + 1))
        continue
    fi
    echo "== check-$check.sh"
    start=$(date +%s)
    log=$(mktemp)
    sh "$script" 2>&1 | tee "$log"
    rc=$(sed -n 's/^check-[a-z-]*\.sh: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$log" | tail -n1)
    if [ -n "$rc" ]; then
        set -- $rc
        total_pass=$((total_pass + $1))
        total_fail=$((total_fail + $2))
    else
        echo "FAIL check-$check.sh ended without a summary"
        total_fail=$((total_fail + 1))
    fi
    rm -f "$log"
    echo "   ($(( $(date +%s) - start )) s)"
done
echo "distribution: $total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
