#!/usr/bin/env bash
# Cost of the static metrics (issue 6): analyses the 16,400 codegen-16B HumanEval samples
# (program = prompt + completion) and the 164 references, in release mode, and prints the
# generated-versus-reference table and samples/s (target: under 10 s on 2 cores).
# Usage: bench/analysis.sh [--jobs N]
set -euo pipefail
cd "$(dirname "$0")/.."
data=${DATASETS:-../shared/datasets}
cargo build --release --locked -p wasmeval
./target/release/wasmeval analyze \
  --tasks "$data/humaneval/HumanEval.jsonl.gz" \
  --samples "$data/codegen16b-humaneval/samples_n100.jsonl.gz" "$@"
