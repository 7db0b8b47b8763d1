#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
# The Python module's overhead, GIL release and input copies (bench/python_overhead.py).
set -euo pipefail
build=${1:-build/release}
PYTHONPATH="$build/python" /usr/bin/python3 "$(dirname "$0")/python_overhead.py" "$build/perfshap"
