#!/bin/bash
# Issue 37, the memory half: runs each input under /usr/bin/time -v and prints table rows (exit
# code, first stderr line, or stdout's when stderr is empty, peak RSS, wall time).
# Usage, from the repository root after
#   cargo build --release -p resound && cargo build --release -p resound-datformat --example pad_entry
#   cargo build --release -p resound-engine --example declared_waves
#   docs/reliability/issue37_memory.sh WORKDIR
# WORKDIR gets the fixture world (fx), P (its cell dat with LandBlock 0xA9B4FFFF followed by
# 256 MiB of zeros, zlib-compressed: a 275 KB file), W (its portal dat with every Wave declaring
# 2^26 frames of 16-bit PCM, compressed), slab.json and expected62.json.
set -u
ROOT=$(pwd)
R="${RESOUND:-$ROOT/target/release/resound}"
PAD="$ROOT/target/release/examples/pad_entry"
WAVES="$ROOT/target/release/examples/declared_waves"
WALK="$ROOT/crates/ambient/examples-data/walk.json"
mkdir -p "$1" && cd "$1" || exit 1
rm -rf fx P && "$R" fixture write fx > /dev/null
mkdir P && cp fx/client_portal.dat P/ && "$PAD" fx/client_cell_1.dat 0xA9B4FFFF 256 P/client_cell_1.dat
rm -rf W && mkdir W && cp fx/client_cell_1.dat W/ && "$WAVES" fx/client_portal.dat W/client_portal.dat
ROOT=$ROOT python3 - <<'P'
import json, os
open('slab.json', 'w').write('{"name":"slab","boxes":[{"min":[0,0,0],"max":[4095,0,4095],'
                             '"material":"stone"}],"source":[0,2,0],"listener":[4,2,0]}')
g = json.load(open(os.environ['ROOT'] + '/crates/acoustics-core/scenes/G.json'))
g.pop('expected', None)
t = json.dumps(g)
open('expected62.json', 'w').write(t[:-1] + ', "expected": [' + ','.join(['0.123456'] * 7_000_000) + ']}')
P
row() {
  local name="$1"; shift
  timeout 600 /usr/bin/time -v -o t.txt bash -c "$*" > out.txt 2> err.txt
  local rc=$?
  local line; line=$(head -1 err.txt | cut -c1-160 | sed 's/|/\\|/g')
  [ -z "$line" ] && line="(stdout) $(head -c 120 out.txt | tr -d '\000' | head -1 | sed 's/|/\\|/g')"
  local rss; rss=$(grep "Maximum resident" t.txt | awk '{print $NF}')
  local wall; wall=$(grep "Elapsed (wall" t.txt | awk '{print $NF}')
  echo "| $name | $rc | \`$line\` | $((rss/1024)) MB | $wall |"
}
echo "| case | exit | the line | peak RSS | wall |"
echo "|---|---|---|---|---|"
row '`render slab.json` (4096 × 1 × 4096 box, 116 B)' "$R render slab.json --out x.wav"
row '`acoustics --scene slab.json`' "$R acoustics --scene slab.json"
row '`acoustics --scene expected62.json` (63 MB)' "$R acoustics --scene expected62.json"
row '`render expected62.json`' "$R render expected62.json --out x.wav"
row '`dat check P` (275 KB cell dat)' "$R dat check P"
row '`ambient --dat-dir P --at …`' "$R ambient --dat-dir P --at 0xA9B40025:100,100,72"
row '`acoustics --dat-dir P`' "$R acoustics --dat-dir P --listener 0xA9B40025:100,100,72 --source 0xA9B40025:110,100,72"
row '`ambient --walk walk.json --seconds 600 --out w.wav`' "$R ambient --dat-dir fx --walk $WALK --seconds 600 --out w.wav"
row '`demo --seconds 90 --no-play`' "$R demo --seconds 90 --no-play --out demo"
row '`demo --seconds 600 --no-play`' "$R demo --seconds 600 --no-play --out demo"
row '`ambient --dat-dir W --walk walk.json --seconds 60 --out w.wav`' "$R ambient --dat-dir W --walk $WALK --seconds 60 --out w.wav"
row '`demo --dat-dir W --seconds 90 --no-play`' "$R demo --dat-dir W --seconds 90 --no-play --out demoW"
