#!/usr/bin/env bash
# Output checked (issue 35): standard output like an --out file (a failed
# write is one line and exit 2, not a silent exit 0); --out /dev/stdout and
# /dev/fd/N write to the descriptor itself, so a pipe works and `>>` appends;
# --out never writes over the command's own input, by any path; a config whose
# dotted key nests 35,000 deep is refused in one line instead of crashing.
# Usage: output_checks.sh ECMPSIM   (run from the source tree)
set -euo pipefail
bin=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "output_checks: $*" >&2; exit 1; }
cfg=configs/paper16.toml

"$bin" run "$cfg" -f json > "$tmp/want.json"
[ -s "$tmp/want.json" ] || fail "run wrote nothing"

# A full device: every command that prints, one line, exit 2.
# Help and lists too, whose text fills stdio's buffer before the end (D14: their errno was lost).
for cmd in "run $cfg -f json" "flows $cfg -f csv" "sweep $cfg --seeds 0:50 -f csv" "hash --algo crc32 --src 10.0.0.1 --dst 10.0.1.2 --sport 49152 --members 4" "init --out -" \
           "--help" "sweep --help" "run --help" "reproduce --list"; do
  rc=0
  "$bin" $cmd > /dev/full 2> "$tmp/err" || rc=$?
  [ "$rc" -eq 2 ] || fail "'$cmd > /dev/full' exited $rc, not 2"
  [ "$(wc -l < "$tmp/err")" -eq 1 ] || fail "'$cmd > /dev/full' printed $(wc -l < "$tmp/err") lines: $(cat "$tmp/err")"
  grep -qx "ecmpsim: standard output: cannot write output: No space left on device" "$tmp/err" ||
    fail "'$cmd > /dev/full' said: $(cat "$tmp/err")"
done
# The negative control: the same commands to /dev/null succeed silently.
"$bin" run "$cfg" -f json > /dev/null 2> "$tmp/err" || fail "run > /dev/null failed"
[ ! -s "$tmp/err" ] || fail "run > /dev/null printed: $(cat "$tmp/err")"

# --out /dev/stdout into a pipe, and through an appending redirection.
"$bin" run "$cfg" -f json --out /dev/stdout | cat > "$tmp/piped.json"
cmp -s "$tmp/piped.json" "$tmp/want.json" || fail "--out /dev/stdout through a pipe differs from stdout"
echo "a line already in the log" > "$tmp/log"
"$bin" run "$cfg" -f json --out /dev/stdout >> "$tmp/log"
{ echo "a line already in the log"; cat "$tmp/want.json"; } | cmp -s - "$tmp/log" || fail "--out /dev/stdout >> log did not append"
"$bin" run "$cfg" -f json --out /dev/fd/3 3>> "$tmp/log" > /dev/null
[ "$(grep -c "a line already in the log" "$tmp/log")" -eq 1 ] && [ "$(wc -c < "$tmp/log")" -eq $(( $(wc -c < "$tmp/want.json") * 2 + 26 )) ] ||
  fail "--out /dev/fd/3 3>> log did not append"
rc=0
"$bin" run "$cfg" -f json --out /dev/fd/9 2> "$tmp/err" || rc=$?
[ "$rc" -eq 2 ] && grep -qx "ecmpsim: /dev/fd/9: cannot write output file: Bad file descriptor" "$tmp/err" ||
  fail "--out to a closed descriptor: exit $rc, $(cat "$tmp/err")"

# A reader that stops early is no error of ecmpsim's.
"$bin" sweep "$cfg" --seeds 0:20000 -f csv 2> "$tmp/err" | head -c 10 > /dev/null || true
[ ! -s "$tmp/err" ] || fail "a closed pipe was reported: $(cat "$tmp/err")"

# 35,000 dotted parts: one line, exit 2, for every command that reads a config.
python3 -c "print('.'.join(['a'] * 35000) + ' = 1')" > "$tmp/deep.toml"
for cmd in run flows sweep; do
  rc=0
  "$bin" $cmd "$tmp/deep.toml" > /dev/null 2> "$tmp/err" || rc=$?
  [ "$rc" -eq 2 ] || fail "$cmd of a 35,000-part key exited $rc"
  grep -qx "ecmpsim: $tmp/deep.toml:1:1: a dotted key of 35000 parts nests deeper than the limit of 256" "$tmp/err" ||
    fail "$cmd of a 35,000-part key said: $(cat "$tmp/err")"
done
# --out over an input, by its name, ./name, a symlink or a hard link: refused, the input intact.
cp "$cfg" "$tmp/p.toml"
ln -s p.toml "$tmp/link.toml"
ln "$tmp/p.toml" "$tmp/hard.toml"
printf 'src,dst,proto,sport,dport\n10.0.0.1,10.0.1.2,17,49152,4791\n' > "$tmp/t.csv"
cp "$tmp/t.csv" "$tmp/t.orig"
# (The input's flag is named: the check before the work, sim/cli/file_flags.h.)
refused() {  # refused OUT INPUT-FLAG COMMAND...
  local out=$1 flag=$2 rc=0
  shift 2
  (cd "$tmp" && "$@" --out "$out") > /dev/null 2> "$tmp/err" || rc=$?
  [ "$rc" -eq 2 ] || fail "'$* --out $out' exited $rc, not 2"
  grep -qx "ecmpsim: $out: --out: this file is the command's input ($flag); choose another output file" "$tmp/err" ||
    fail "'$* --out $out' said: $(cat "$tmp/err")"
}
for out in p.toml ./p.toml link.toml hard.toml; do
  refused "$out" config "$bin" run p.toml -f json
done
refused p.toml config "$bin" flows p.toml
refused p.toml config "$bin" sweep p.toml --seeds 0:10
refused p.toml config "$bin" report p.toml --seeds 0:10
refused hard.toml --config "$bin" reproduce p.toml --seeds 0:10
refused t.csv --tuples "$bin" hash --algo crc32 --members 4 --tuples t.csv
cmp -s "$cfg" "$tmp/p.toml" || fail "the config was changed"
cmp -s "$tmp/t.csv" "$tmp/t.orig" || fail "the tuples file was changed"
# The negative control: another file is written.
(cd "$tmp" && "$bin" run p.toml -f json --out other.json) || fail "run --out other.json failed"
python3 -c "import json, sys; json.load(open(sys.argv[1]))" "$tmp/other.json" || fail "run --out other.json is not JSON"
# An --out that cannot be written stops a sweep and a fit before their work
# (issue 34 item 7): 50M seeds would take minutes, so a late check times out.
for cmd in "sweep $cfg --seeds 0:50000000 --algos xxh3 --force" "fit tests/data/fit/oversubscribed_traced.csv --members 4"; do
  rc=0
  # shellcheck disable=SC2086
  timeout 30 "$bin" $cmd --out "$tmp/no-such-dir/x.json" > /dev/null 2> "$tmp/err" || rc=$?
  [ "$rc" -eq 2 ] || fail "'$cmd' with an unwritable --out exited $rc, not 2"
  grep -qx "ecmpsim: $tmp/no-such-dir/x.json: cannot write output file: cannot create a file in $tmp/no-such-dir: No such file or directory" "$tmp/err" ||
    fail "'$cmd' with an unwritable --out said: $(cat "$tmp/err")"
done
echo "output_checks: passed"
