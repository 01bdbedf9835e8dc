#!/bin/bash
# Issue 37 at the CLI: runs each hostile case under /usr/bin/time -v with a 20 s guard and prints
# the table of docs/reliability.md (exit code, first stderr line, peak RSS, wall time).
# Usage, from the repository root after `cargo build --release -p resound`:
#   docs/reliability/issue37_measure.sh WORKDIR
# WORKDIR gets the fixture world (fx), damaged copies of its portal dat, a FIFO and scene files.
set -u
ROOT=$(pwd)
R="$ROOT/target/release/resound"
mkdir -p "$1" && cd "$1" || exit 1
rm -rf fx && "$R" fixture write fx > /dev/null
python3 - <<'P'
import struct
b = bytearray(open('fx/client_portal.dat', 'rb').read())
i = b.find(bytes.fromhex('2101000a12000000'))  # Wave 0x0A000121: id, header length 18
c = bytearray(b); c[i+14:i+16] = b'\0\0'; open('ch0.dat', 'wb').write(c)          # channels
r = bytearray(b); r[i+16:i+20] = b'\0\0\0\0'; open('rate0.dat', 'wb').write(r)  # sample rate
P
rm -f pipe; mkfifo pipe
rm -rf D; mkdir D; cp fx/client_cell_1.dat D/; ln -s "$PWD/pipe" D/client_portal.dat
ROOT=$ROOT python3 - <<'P'
import json, os
ROOT = os.environ['ROOT']
s=json.load(open(ROOT + '/crates/acoustics-core/scenes/G.json'))
s['name']='\x1b[2J\x1b[31mEVIL'; json.dump(s,open('evil.json','w'))
open('far.json','w').write('{"name":"far","boxes":[{"min":[2147483647,0,0],"max":[2147483647,0,0],"material":"stone"}],"source":[0,0,0],"listener":[1,0,0]}')
open('range.json','w').write('{"name":"r","boxes":[],"source":[0,0,0],"listener":[1,0,0],"range":1e308}')
open('vol.json','w').write('{"name":"v","boxes":[],"source":[0,0,0],"listener":[1,0,0],"voices":[{"position":[2,0,0],"volume":1e308,"range":10,"kind":"click"}]}')
w=open(ROOT + '/crates/ambient/examples-data/walk.json').read().replace('"frame_rate": 30','"frame_rate": 1e300',1)
open('walk300.json','w').write(w)
P
row() { # name, shell command (stdout of resound to $OUT unless the command redirects)
  local name="$1"; shift
  timeout 20 /usr/bin/time -v -o t.txt bash -c "$*" > out.txt 2> err.txt
  local rc=$?
  [ $rc = 124 ] && rc="124 (hung)"
  local line; line=$(head -1 err.txt | sed 's/|/\\|/g')
  [ -z "$line" ] && line="(stdout) $(head -c 120 out.txt | tr -d '\000' | head -1 | cat -v | sed 's/|/\\|/g')"
  local rss; rss=$(grep "Maximum resident" t.txt | awk '{print $NF}')
  local wall; wall=$(grep "Elapsed (wall" t.txt | awk '{print $NF}')
  echo "| $name | $rc | \`$line\` | $((rss/1024)) MB | $wall |"
}
echo "| case | exit | the line (stderr; stdout where stderr is empty) | peak RSS | wall |"
echo "|---|---|---|---|---|"
row '`render pipe` (FIFO)' "$R render pipe --out x.wav"
row '`acoustics --scene pipe`' "$R acoustics --scene pipe"
row '`ambient --dat-dir fx --walk pipe`' "$R ambient --dat-dir fx --walk pipe --seconds 1"
row '`ambient --dat-dir D` (portal.dat → FIFO)' "$R ambient --dat-dir D --at 0xA9B40025:100,100,72"
row '`demo --dat-dir D`' "$R demo --dat-dir D --seconds 1 --no-play --out demo"
row '`acoustics --dat-dir D`' "$R acoustics --dat-dir D --listener 0xA9B40025:100,100,72 --source 0xA9B40025:110,100,72"
row '`dat dump --raw region pipe`' "$R dat dump --raw region pipe"
row '`dat ls pipe`' "$R dat ls pipe"
row '`render G --out /dev/stdout \| cat`' "$R render G --out /dev/stdout | cat > piped.wav"
row '`dat wave … /dev/stdout \| cat`' "$R dat wave fx/client_portal.dat 0x0A000121 /dev/stdout | cat > wave.wav"
row '`render evil.json` (name with ESC)' "$R render evil.json --seconds 0.1 --out evil.wav | grep -a '^scene'"
row '`acoustics --scene evil.json`' "$R acoustics --scene evil.json | grep -a -m1 'EVIL'"
row '`render far.json` (box at 2^31−1)' "$R render far.json --out x.wav"
row '`acoustics --scene far.json`' "$R acoustics --scene far.json"
row '`demo --out /dev/full`' "$R demo --seconds 1 --no-play --out /dev/full"
row '`render G --out /dev/full`' "$R render G --out /dev/full"
row 'walk `frame_rate` 1e300' "$R ambient --dat-dir fx --walk walk300.json --seconds 1"
row '`dat wave` 0 channels' "$R dat wave ch0.dat 0x0A000121 o.wav"
row '`dat wave` 0 Hz' "$R dat wave rate0.dat 0x0A000121 o.wav"
row '`render G --seconds 1e-9`' "$R render G --seconds 1e-9 --out x.wav"
row '`ambient --walk … --seconds 0 --out z.wav`' "$R ambient --dat-dir fx --walk $ROOT/crates/ambient/examples-data/walk.json --seconds 0 --out z.wav"
row '`acoustics --scene` range 1e308' "$R acoustics --scene range.json"
row '`render` range 1e308' "$R render range.json --out x.wav"
row '`acoustics --scene` volume 1e308' "$R acoustics --scene vol.json"
row '`render` volume 1e308' "$R render vol.json --out x.wav"
row '`--help > /dev/full`' "$R --help > /dev/full"
