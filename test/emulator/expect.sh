#!/usr/bin/env bash
# Emulator test checker: compiles one HIP program with `ldsan-cc --emulate`,
# runs it, and checks its ldsan report field by field against expectations
# written in the program as comments:
#   // EXPECT: no-report              clean: exit 0 (unless EXPECT-EXIT), no report, no emulator error
#   // EXPECT: build-error            ldsan-cc --emulate must fail (EXPECT-STDERR checks its messages,
#                                     EXPECT-ABSENT what it must not say)
#   // EXPECT: <bug-name>             the first report's headline bug, e.g. lds-buffer-overflow
#   // EXPECT-ACCESS: WRITE of size 4 substring of "<READ|WRITE> of size <n>" in the access line
#   // EXPECT-WORKITEM: (64,0,0)      exact work-item id of the first report
#   // EXPECT-WORKGROUP: (3,1,0)      exact workgroup id of the first report
#   // EXPECT-KERNEL: name            the reported kernel name starts with this
#   // EXPECT-VAR: tile               the first variable named in the address description
#   // EXPECT-LOCATION: text          substring of the address description line
#   // EXPECT-EXIT: n                 exact exit status (default: 0 clean, non-zero with a report)
#   // EXPECT-STDOUT: text / EXPECT-STDERR: text   substrings of the program's output
#   // EXPECT-REPORTS: n              number of full reports printed
#   // EXPECT-ABSENT: text            text printed neither on stdout nor on stderr
#   // EXPECT-EMU-ERROR: text         no-report: the first "ldsan-emu: error:" line contains text
#                                     (default: there is none)
#   // EXPECT-LAUNCH: in main f.hip:N first frame of "kernel ... launched by host code here:"
#   // EXPECT-FRAME: in f(int*) test/emulator/x.hip:17    frame #k of the first report (the k-th
#                                     EXPECT-FRAME line) after its pc: exactly this, or this and
#                                     ":<column>"; as many frames as EXPECT-FRAME lines.
#                                     "bare": the pc alone, "(<the executable>+0x<offset>)"
#   // CFLAGS: ...                    extra compile flags;  // ENV: VAR=value   run environment
#   // EXPECT-FIBERS: kernel          this kernel runs as fibers (every other kernel must get
#                                     work-item loops; the retarget tool says which and why)
#   // EXPECT-LDS-ONLY: value         with LDSAN_EXPECT_MODE=lds-only, what to expect instead of
#                                     EXPECT (a bug only full ASan sees: no-report)
# LDSAN_EXPECT_MODE=lds-only builds the program in the LDS-only mode (ldsan-cc -fsanitize=lds:
# no AddressSanitizer in the program) and also checks that no ASan runtime is linked.
# LDSAN_EXPECT_CFLAGS adds compile flags (an RDNA target: its wave32 on the emulator);
# LDSAN_EXPECT_STDOUT is one more substring the program's stdout must hold (as EXPECT-STDOUT).
# LDSAN_EXPECT_OPTIONS is appended to the run's LDSAN_OPTIONS (the program's ENV line's, or
# the default), e.g. the LDS checks on a program whose ENV sets options of its own.
# The program runs twice, with work-item loops and with LDSAN_EMU_FIBERS=1, and every
# expectation must hold both times: the two schedulers must agree. A bug program
# runs a third time with report_format=json, whose first report must agree too.
# Usage: test/emulator/expect.sh prog.hip   (from the repo root; BUILD= selects the build dir)
# Exits 0 when every expectation holds, 1 otherwise (printing got/want for each).
set -u
prog="${1:?usage: expect.sh prog.hip}"
BUILD="${BUILD:-build}"
cc="$BUILD/bin/ldsan-cc"
[[ -x "$cc" ]] || { echo "expect.sh: $cc is missing: run make"; exit 1; }
[[ -f "$prog" ]] || { echo "expect.sh: $prog does not exist"; exit 1; }

# expectation KEY -> every value, one per line (fields), or the last one (field; EXPECT
# must be present). EXPECT-STDERR may be given several times: each must hold.
fields() { sed -n "s|^[[:space:]]*// $1:[[:space:]]*\(.*[^[:space:]]\)[[:space:]]*$|\1|p" "$prog"; }
field() { fields "$1" | tail -n 1; }
want_bug=$(field EXPECT)
[[ -n "$want_bug" ]] || { echo "expect.sh: $prog has no '// EXPECT:' line"; exit 1; }
read -r -a cflags <<<"$(field CFLAGS)"
read -r -a more_cflags <<<"${LDSAN_EXPECT_CFLAGS:-}"  # e.g. --offload-arch=gfx1100 (wave32)
cflags+=(${more_cflags[@]+"${more_cflags[@]}"})
mode="${LDSAN_EXPECT_MODE:-full}"
case "$mode" in
  full) ;;
  lds-only) cflags+=(-fsanitize=lds); v=$(field EXPECT-LDS-ONLY); [[ -n "$v" ]] && want_bug="$v" ;;
  *) echo "expect.sh: LDSAN_EXPECT_MODE=$mode: want full or lds-only"; exit 1 ;;
esac
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
exe="$tmp/$(basename "$prog" .hip)"

if ! LDSAN_EMU_VERBOSE=1 "$cc" --emulate -O2 ${cflags[@]+"${cflags[@]}"} -I"$(dirname "$prog")" "$prog" -o "$exe" \
     2>"$tmp/cc.err"; then
  if [[ "$want_bug" == "build-error" ]]; then
    missing=0
    while IFS= read -r v; do
      grep -qF -- "$v" "$tmp/cc.err" || { echo "FAIL build error: missing '$v'"; missing=1; }
    done < <(fields EXPECT-STDERR)
    v=$(field EXPECT-ABSENT)
    if [[ -n "$v" ]] && grep -qF -- "$v" "$tmp/cc.err"; then echo "FAIL build error: '$v' was printed"; missing=1; fi
    [[ $missing -eq 0 ]] && { echo "ok   build failed as expected: $(fields EXPECT-STDERR | paste -sd'|')"; exit 0; }
    echo "in:"; cat "$tmp/cc.err"; exit 1
  fi
  echo "FAIL compile: ldsan-cc --emulate $prog"
  grep -v '^ldsan-cc --emulate: ' "$tmp/cc.err"
  exit 1
fi
if [[ "$want_bug" == "build-error" ]]; then echo "FAIL build: ldsan-cc --emulate $prog succeeded"; exit 1; fi

fails=0
if [[ "$mode" == lds-only && -z "${LDSAN_EMU_SANITIZED:-}" ]]; then
  # No ASan in an LDS-only program: no runtime linked, no instrumented host code.
  if nm "$exe" | grep -qE ' [TDB] __asan_init$' || ldd "$exe" | grep -q libasan; then
    echo "FAIL LDS-only: $exe links AddressSanitizer's runtime"; fails=$((fails + 1))
  else
    echo "ok   LDS-only: no AddressSanitizer runtime linked"
  fi
fi
check() {  # check <what> <got> <want> <mode: eq|prefix|substr>
  local ok=1
  case "$4" in
    eq) [[ "$2" == "$3" ]] || ok=0 ;;
    frame) [[ "$2" == "$3" || ( "$2" == "$3:"* && "${2#"$3:"}" =~ ^[0-9]+$ ) ]] || ok=0 ;;
    bare) [[ "$2" =~ ^\ \(.*\+0x[0-9a-f]+\)$ && "$2" == " ($3+0x"* ]] || ok=0 ;;
    prefix) [[ "$2" == "$3"* ]] || ok=0 ;;
    substr) [[ "$2" == *"$3"* ]] || ok=0 ;;
  esac
  if [[ $ok -eq 1 ]]; then echo "ok   $label$1: $2"
  else echo "FAIL $label$1: got '$2', want ${4/eq/exactly} '$3'"; fails=$((fails + 1)); fi
}

# Which kernels got work-item loops: exactly those not named by EXPECT-FIBERS.
label=""
want_fibers=$(sed -n 's|^[[:space:]]*// EXPECT-FIBERS:[[:space:]]*||p' "$prog" | sort | tr '\n' ' ')
got_fibers=$(sed -nE "s/^ldsan-emu-retarget: kernel '([^']*)': fibers(, waves in lockstep)?, because .*/\1/p" "$tmp/cc.err" | sort | tr '\n' ' ')
check "kernels on fibers" "${got_fibers:-none}" "${want_fibers:-none}" eq
if [[ -n "$got_fibers" ]]; then grep -E "': fibers(, waves in lockstep)?, because" "$tmp/cc.err"; fi

want_frames=()
while IFS= read -r f; do want_frames+=("$f"); done < <(sed -nE 's|^[[:space:]]*// EXPECT-FRAME:[[:space:]]*(.*[^[:space:]])[[:space:]]*$|\1|p' "$prog")
envs=()
while IFS= read -r e; do [[ -n "$e" ]] && envs+=("$e"); done < <(sed -n 's|^[[:space:]]*// ENV:[[:space:]]*||p' "$prog")
if [[ -n "${LDSAN_EXPECT_OPTIONS:-}" ]]; then
  found_options=
  for k in ${envs[@]+"${!envs[@]}"}; do
    [[ "${envs[$k]}" == LDSAN_OPTIONS=* ]] && envs[$k]+=":$LDSAN_EXPECT_OPTIONS" && found_options=1
  done
  [[ -n "$found_options" ]] || envs+=("LDSAN_OPTIONS=${LDSAN_OPTIONS:-color=never}:$LDSAN_EXPECT_OPTIONS")
fi

# run_and_check <label> [VAR=value...]: runs the program and checks every expectation.
run_and_check() {
  label="$1 "
  shift
  env LDSAN_OPTIONS="${LDSAN_OPTIONS:-color=never}" ${envs[@]+"${envs[@]}"} "$@" \
    timeout -k 5 120 "$exe" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  headline=$(grep -m1 -E '^==[0-9]+==ERROR: AddressSanitizer: ' "$tmp/err")
  emu_error=$(grep -m1 -E '^ldsan-emu: error:' "$tmp/err")
  if [[ "$want_bug" == "no-report" ]]; then
    v=$(field EXPECT-EXIT)
    check "exit status" "$rc" "${v:-0}" eq
    check "report" "${headline:-none}" none eq
    v=$(field EXPECT-EMU-ERROR)  # an error the emulated HIP runtime must print (a refused call)
    if [[ -n "$v" ]]; then check "emulator error" "${emu_error:-none}" "$v" substr
    else check "emulator error" "${emu_error:-none}" none eq; fi
  else
    bug=$(sed -E 's/^==[0-9]+==ERROR: AddressSanitizer: ([^ ]+) .*/\1/' <<<"$headline")
    check "bug" "${bug:-no report}" "$want_bug" eq
    # The access line and the address description of the first report.
    access=$(sed -n '/ERROR: AddressSanitizer: /,$p' "$tmp/err" | grep -m1 -E '^(READ|WRITE) of size ')
    describe=$(sed -n '/ERROR: AddressSanitizer: /,$p' "$tmp/err" |
               grep -m1 -E '^0x[0-9a-f]+ is (located|at LDS offset|not in|in memory|in ldsan.s LDS backing store)')
    op=$(sed -nE 's/^((READ|WRITE) of size [0-9]+).*/\1/p' <<<"$access")
    item=$(sed -nE 's/.*thread \(work-item\) (\([0-9]+,[0-9]+,[0-9]+\)).*/\1/p' <<<"$access")
    group=$(sed -nE 's/.* of workgroup (\([0-9]+,[0-9]+,[0-9]+\)).*/\1/p' <<<"$access")
    kernel=$(sed -nE 's/.* in kernel (.*)$/\1/p' <<<"$access")
    var=$(sed -nE "s/^[^']*'([^']*)'.*/\1/p" <<<"$describe")
    v=$(field EXPECT-ACCESS);    [[ -n "$v" ]] && check "access" "$op" "$v" substr
    v=$(field EXPECT-WORKITEM);  [[ -n "$v" ]] && check "work-item" "$item" "$v" eq
    v=$(field EXPECT-WORKGROUP); [[ -n "$v" ]] && check "workgroup" "$group" "$v" eq
    v=$(field EXPECT-KERNEL);    [[ -n "$v" ]] && check "kernel" "$kernel" "$v" prefix
    v=$(field EXPECT-VAR);       [[ -n "$v" ]] && check "variable" "$var" "$v" eq
    v=$(field EXPECT-LOCATION);  [[ -n "$v" ]] && check "location" "$describe" "$v" substr
    if [[ ${#want_frames[@]} -gt 0 ]]; then  # the first report's frames, each without its pc
      got_frames=()
      while IFS= read -r f; do got_frames+=("$f"); done < <(sed -n '/ERROR: AddressSanitizer: /,$p' "$tmp/err" |
        awk '/^    #[0-9]+ /{print; seen=1; next} seen{exit}' | sed -E 's/^    #[0-9]+ 0x[0-9a-f]+ //')
      check "frames" "${#got_frames[@]}" "${#want_frames[@]}" eq
      for k in "${!want_frames[@]}"; do
        if [[ "${want_frames[$k]}" == bare ]]; then check "frame #$k" "${got_frames[$k]:-}" "$exe" bare
        else check "frame #$k" "${got_frames[$k]:-}" "${want_frames[$k]}" frame; fi
      done
    fi
    summary=$(grep -m1 '^SUMMARY: AddressSanitizer: ' "$tmp/err")
    check "summary" "$summary" "SUMMARY: AddressSanitizer: $want_bug" prefix
    v=$(field EXPECT-EXIT)
    if [[ -n "$v" ]]; then check "exit status" "$rc" "$v" eq
    elif [[ $rc -eq 0 ]]; then echo "FAIL ${label}exit status: 0, want non-zero"; fails=$((fails + 1)); fi
  fi
  v=$(field EXPECT-LAUNCH)
  if [[ -n "$v" ]]; then  # the first frame of where the host launched the reported dispatch
    launch=$(sed -n '/ launched by host code here:$/{n;p;q}' "$tmp/err" | sed -E 's/^ *#0 0x[0-9a-f]+ //')
    check "launch" "$launch" "$v" frame
  fi
  v=$(field EXPECT-REPORTS); [[ -n "$v" ]] && check "reports" "$(grep -cE '^==[0-9]+==ERROR: AddressSanitizer: ' "$tmp/err")" "$v" eq
  v=$(field EXPECT-STDOUT); [[ -n "$v" ]] && check "stdout" "$(cat "$tmp/out")" "$v" substr
  v="${LDSAN_EXPECT_STDOUT:-}"; [[ -n "$v" ]] && check "stdout" "$(cat "$tmp/out")" "$v" substr
  while IFS= read -r v; do check "stderr" "$(cat "$tmp/err")" "$v" substr; done < <(fields EXPECT-STDERR)
  v=$(field EXPECT-ABSENT)
  if [[ -n "$v" ]] && grep -qF -- "$v" "$tmp/out" "$tmp/err"; then
    echo "FAIL ${label}absent: '$v' was printed"; fails=$((fails + 1))
  elif [[ -n "$v" ]]; then echo "ok   ${label}absent: $v"; fi
  if [[ $fails -gt 0 && -z "${shown:-}" ]]; then
    shown=1
    echo "---- program stdout ($label) ----"; cat "$tmp/out"
    echo "---- program stderr ($label, exit $rc) ----"; head -n 80 "$tmp/err"
  fi
}
run_and_check "[work-item loops]" LDSAN_EMU_FIBERS=0
run_and_check "[fibers]" LDSAN_EMU_FIBERS=1

# The same first report as JSON (report_format=json, README "JSON reports"):
# every field the text report was checked on must say the same.
if [[ "$want_bug" != "no-report" && "$want_bug" != "build-error" ]]; then
  label="[json] "
  json_envs=()
  has_opts=0
  for e in ${envs[@]+"${envs[@]}"}; do
    if [[ "$e" == LDSAN_OPTIONS=* ]]; then json_envs+=("$e:report_format=json"); has_opts=1; else json_envs+=("$e"); fi
  done
  [[ $has_opts -eq 1 ]] || json_envs+=("LDSAN_OPTIONS=color=never:report_format=json")
  env ${json_envs[@]+"${json_envs[@]}"} timeout -k 5 120 "$exe" >"$tmp/out" 2>"$tmp/err"
  first=$(grep -m1 '^{' "$tmp/err")
  got=$(python3 -c '
import json, sys
r = json.loads(sys.argv[1])
assert r["ldsan_report"] == 1
t = r["threads"][0]
print("\x1f".join([r["type"], r["kernel"] or "", r["variable"] or "", "(%d,%d,%d)" % tuple(r["workgroup"]),
                 "(%d,%d,%d)" % tuple(t), "%s of size %d" % ((r["access"] or "").upper(), r["size"]),
                 r["location"] or "null"]))' "$first" 2>&1) || got="unparsable JSON: ${first:-no JSON line} ($got)"
  IFS=$'\x1f' read -r j_type j_kernel j_var j_group j_item j_access j_location <<<"$got"
  check "type" "$j_type" "$want_bug" eq
  v=$(field EXPECT-KERNEL);    [[ -n "$v" ]] && check "kernel" "$j_kernel" "$v" prefix
  v=$(field EXPECT-VAR);       [[ -n "$v" ]] && check "variable" "$j_var" "$v" eq
  v=$(field EXPECT-WORKGROUP); [[ -n "$v" ]] && check "workgroup" "$j_group" "$v" eq
  v=$(field EXPECT-WORKITEM);  [[ -n "$v" ]] && check "work-item" "$j_item" "$v" eq
  v=$(field EXPECT-ACCESS);    [[ -n "$v" ]] && check "access" "$j_access" "$v" prefix
  # A symbolized first frame is the JSON location, file:line:col.
  if [[ ${#want_frames[@]} -gt 0 && "${want_frames[0]}" != bare* ]]; then
    want_loc=$(sed -E 's/^in [^ ]*(\([^)]*\))? //; s/^.* ([^ ]+:[0-9]+(:[0-9]+)?)$/\1/' <<<"${want_frames[0]}")
    check "location" "$j_location" "$want_loc" prefix
  fi
fi

if [[ $fails -gt 0 ]]; then
  echo "expect.sh: $prog: $fails expectation(s) failed"
  exit 1
fi
echo "expect.sh: $prog: all expectations hold"
