#!/usr/bin/env bash
# The project's test command: installs what the tests need, then runs every test.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
scripts/setup.sh
cargo test --all-targets "$@"
cargo test --doc
