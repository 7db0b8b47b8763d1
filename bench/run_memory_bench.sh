#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
# The memory a 10,000,000 x 8 float64 table handed over in memory adds to the peak while TreeSHAP
# reads it (issue: less than 0.1 of one copy of its bytes), against the path before (a converted
# copy and a gathered block). One process per mode (the peak is the process's).
#   bash bench/run_memory_bench.sh [BUILD_DIR] [ROWS] [THREADS]
set -euo pipefail
build=${1:-build/release}
rows=${2:-10000000}
threads=${3:-2}
bin=$build/bench/perfshap_ingest_memory
for mode in columns arrow copy; do
  "$bin" "$mode" "$rows" "$threads"
done
