#!/usr/bin/env bash
# tools/gpu_mutation.sh: a mutation test on the device machine: builds the
# tree once, then each mutant of a folder (one patch each) in a copy of the
# built tree, and runs the mutant's test commands several at a time on the
# GPU, stopping at the first FAIL. The folder holds:
#   mutants/NN-name.patch  one bug each (a unified diff from the repository root)
#   mutants.txt            lines "NN-name|key key ...": a mutant and its test
#                          stages, in order (a later stage runs only where
#                          the earlier ones let the mutant survive and time is left)
#   commands.txt           lines "key|command[|cap s|guess s]": a test executable
#                          of build/tests and its arguments; cap: the most
#                          seconds it may run (default 300); guess: its
#                          expected seconds until its baseline has run
#                          (default 60). Baselines run in this order.
# Lines starting with # and blank lines are skipped in both lists.
#
# Run from the repository root on the device machine:
#   OUT=/some/dir bash tools/gpu_mutation.sh bench/results/gpu-mutation-2026-11-28
# It copies the tree to $MUT_WORK/base (default /tmp/tcmut), builds it once,
# then gives each mutant a copy of that built tree with the paths inside the
# build tree rewritten, applies the mutant's patch there and lets CMake
# rebuild what changed (the touched objects, the archive, the tests' links);
# runs each test command once on the unmodified build (the baseline) and on
# each mutant, several at a time on the one GPU, stopping a mutant's test at
# its first FAIL line; writes $OUT/summary.md and $OUT/logs.tgz.
#
# Options (environment):
#   MUT_NO_TESTS=1    build only (base and mutants), no test phase
#   MUT_ONLY=01,05    these mutants only (number prefixes)
#   MUT_BUDGET=520    seconds for the whole script; MUT_STOP_NEW=480: no test
#                     starts after this; running tests are cut at BUDGET - 15
#   MUT_PAR=4         mutant tests (and stage-1 baselines) at a time on the GPU;
#                     one more slot runs the later stages' baselines
#   MUT_OMP=4         OMP_NUM_THREADS of each test process
#   MUT_WORK=/tmp/tcmut  work folder (wiped)
#   MUT_TEST_PREFIX   a command put before every test (for dry runs without a GPU)
set -uo pipefail

T0=$(date +%s)
ROOT=$PWD
if [ $# -ne 1 ] || [ ! -d "$1" ]; then
    echo "usage: tools/gpu_mutation.sh MUTANT_FOLDER (with mutants/, mutants.txt, commands.txt)" >&2
    exit 2
fi
HERE=$(cd "$1" && pwd)
OUT=${OUT:-/tmp/mutation-out}
W=${MUT_WORK:-/tmp/tcmut}
BUDGET=${MUT_BUDGET:-520}
STOP_NEW=${MUT_STOP_NEW:-480}
HARD=$((BUDGET - 15))
PAR=${MUT_PAR:-4}
OMP=${MUT_OMP:-4}
NO_TESTS=${MUT_NO_TESTS:-0}
ONLY=${MUT_ONLY:-}
PREFIX=${MUT_TEST_PREFIX:-}
JOBS=$(nproc)

mkdir -p "$OUT"
LOGS=$W/logs
el() { echo $(( $(date +%s) - T0 )); }
say() { echo "[$(el) s] $*" | tee -a "$LOGS/progress.log"; }

if [ ! -d "$HERE/mutants" ] || [ ! -f "$HERE/mutants.txt" ] || [ ! -f "$HERE/commands.txt" ] ||
   [ ! -f "$ROOT/CMakeLists.txt" ]; then
    echo "run from the repository root (no CMakeLists.txt), on a folder with mutants/," \
        "mutants.txt and commands.txt ($HERE)" >&2
    exit 2
fi
case "$W" in /tmp/*) ;; *) echo "MUT_WORK must lie under /tmp (it is wiped)" >&2; exit 2 ;; esac
rm -rf "$W"
mkdir -p "$W/base" "$LOGS"

# ------------------------------------------------------------------
# The mutants (mutants.txt: id | test stages, each a command key) and the
# commands (commands.txt: key | command [| cap | guess]). A later stage runs
# only where the earlier ones let the mutant survive and time is left.
# CAP: a test that runs longer than this is stopped (a mutant: killed by
# timeout). GUESS: seconds (before the baseline has run) when deciding
# whether a later stage still fits.
list_lines() { grep -v '^[[:space:]]*\(#\|$\)' "$1"; }
MUTANTS=()
while IFS= read -r line; do MUTANTS+=("$line"); done < <(list_lines "$HERE/mutants.txt")
declare -A CMD CAP GUESS
all_keys="" # baseline order: that of commands.txt (the first stages first)
while IFS='|' read -r k c cap guess; do
    CMD[$k]=$c
    CAP[$k]=${cap:-300}
    GUESS[$k]=${guess:-60}
    all_keys="$all_keys $k"
done < <(list_lines "$HERE/commands.txt")
for m in "${MUTANTS[@]}"; do
    for k in ${m#*|}; do
        if [ -z "${CMD[$k]:-}" ]; then echo "mutant ${m%%|*}: no command for key $k" >&2; exit 2; fi
    done
    if [ ! -f "$HERE/mutants/${m%%|*}.patch" ]; then echo "no mutants/${m%%|*}.patch" >&2; exit 2; fi
done

# The order mutants build in: the slow sp24_wgmma.cu compiles first.
ids=()
for m in "${MUTANTS[@]}"; do
    id=${m%%|*}
    if [ -n "$ONLY" ] && [[ ",$ONLY," != *",${id%%-*},"* ]]; then continue; fi
    ids+=("$id")
done
declare -A STAGES FILE
for m in "${MUTANTS[@]}"; do STAGES[${m%%|*}]=${m#*|}; done
for id in "${ids[@]}"; do
    FILE[$id]=$(sed -n 's|^+++ b/||p' "$HERE/mutants/$id.patch" | head -1)
done
build_order=()
for id in "${ids[@]}"; do case ${FILE[$id]} in *sp24_wgmma.cu|*c_store.h) build_order+=("$id") ;; esac; done
for id in "${ids[@]}"; do case ${FILE[$id]} in *sp24_wgmma.cu|*c_store.h) ;; *) build_order+=("$id") ;; esac; done

# The executables every mutant's stages need (built in its tree).
targets_for() {
    local t="" k
    for k in $1; do t="$t ${CMD[$k]%% *}"; done
    echo $t | tr ' ' '\n' | sort -u | tr '\n' ' '
}
need_keys=""
for id in "${ids[@]}"; do need_keys="$need_keys ${STAGES[$id]}"; done
base_keys=""
for k in $all_keys; do [[ " $need_keys " == *" $k "* ]] && base_keys="$base_keys $k"; done
BASE_TARGETS=$(targets_for "$base_keys")

# ------------------------------------------------------------------
# Device and tree.
GPU=$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -1)
{
    echo "gpu: ${GPU:-none found}"
    echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "commit: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
    nvcc --version 2>&1 | tail -1
    cmake --version 2>&1 | head -1
    echo "cores: $JOBS"
    echo "working tree changes:"; git -C "$ROOT" status --short 2>/dev/null | sed 's/^/  /'
} > "$LOGS/device.txt"
say "gpu: ${GPU:-none found}; $JOBS cores; mutants: ${#ids[@]}; budget $BUDGET s"

COMMIT=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
# The tree without build folders, .git and the measured results.
tar -C "$ROOT" --exclude='./build*' --exclude='./.git' --exclude='./.devdata' \
    --exclude='./bench/results' -cf - . | tar -C "$W/base" -xf -
say "configure and build the unmodified tree (targets: $BASE_TARGETS)"
if ! cmake -S "$W/base" -B "$W/base/build" -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_BUILD_TESTS=ON \
        -DTCSPMM_GIT_COMMIT="$COMMIT" > "$LOGS/base-configure.log" 2>&1 ||
   ! cmake --build "$W/base/build" -j"$JOBS" --target $BASE_TARGETS > "$LOGS/base-build.log" 2>&1; then
    say "BASE BUILD FAILED"
    tail -30 "$LOGS/base-build.log" "$LOGS/base-configure.log" 2>/dev/null
    { echo "# Mutation test: the unmodified tree did not build"; echo; echo "See logs.tgz."; } > "$OUT/summary.md"
    tar -C "$W" -czf "$OUT/logs.tgz" logs
    exit 1
fi
BASE_BUILD_S=$(el)
say "base built"

# ------------------------------------------------------------------
# Mutant builds (background). Each gets $W/mNN: a copy of the base tree and
# its build folder, with every absolute path to $W/base in the build
# folder's text files rewritten to $W/mNN and the files' times kept (so make
# and CMake see nothing new but the patched file and rebuild only what
# depends on it).
declare -A BPID BSTART BEND BRC BCUT
mdir() { echo "$W/m${1%%-*}"; }
build_mutant() {
    local id=$1 d f
    d=$(mdir "$id")
    set -e
    cp -a --reflink=auto "$W/base" "$d"
    touch "$d/.ref"
    grep -rlIZ -F "$W/base" "$d/build" | while IFS= read -r -d '' f; do
        touch -r "$f" "$d/.ref"
        sed -i "s|$W/base|$d|g" "$f"
        touch -r "$d/.ref" "$f"
    done
    if command -v git > /dev/null; then (cd "$d" && git apply --verbose "$HERE/mutants/$id.patch")
    else patch -d "$d" -p1 < "$HERE/mutants/$id.patch"; fi
    cmake --build "$d/build" -j4 --target $(targets_for "${STAGES[$id]}")
}
for id in "${build_order[@]}"; do
    ( renice -n 5 -p $BASHPID > /dev/null 2>&1; build_mutant "$id" ) > "$LOGS/build-$id.log" 2>&1 &
    BPID[$id]=$!
    BSTART[$id]=$(el)
done
say "started ${#build_order[@]} mutant builds"

# ------------------------------------------------------------------
# Tests. A job is "who:key" (who: base or a mutant id); up to PAR main jobs
# run at once (stage-1 baselines first, then mutant stages in the order their
# builds and earlier stages finish) and one side job (the later stages'
# baselines).
declare -A JPID JSTART JEND JRC JHOW JLIM
queue=()      # main jobs waiting
side_queue=() # baselines of later stages
running=()    # jobs running
declare -A STAGE_AT # mutant id -> index of its next stage
for k in $base_keys; do
    first=0
    for id in "${ids[@]}"; do s=(${STAGES[$id]}); [ "${s[0]}" = "$k" ] && first=1; done
    if [ $first = 1 ]; then queue+=("base:$k"); else side_queue+=("base:$k"); fi
done

bin_dir() { if [ "$1" = base ]; then echo "$W/base/build/tests"; else echo "$(mdir "$1")/build/tests"; fi; }
log_of() { echo "$LOGS/test-${1%%:*}-${1#*:}.log"; }

start_job() {
    local j=$1 who=${1%%:*} key=${1#*:} now lim log
    now=$(el)
    lim=${CAP[$key]}
    [ $((now + lim)) -gt $HARD ] && lim=$((HARD - now))
    [ $lim -lt 1 ] && lim=1
    log=$(log_of "$j")
    set -- ${CMD[$key]}
    local exe=$1; shift
    ( cd "$W/base" && exec env TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA="$W/base/data" OMP_NUM_THREADS=$OMP \
        timeout -k 10 "$lim" $PREFIX "$(bin_dir "$who")/$exe" "$@" ) > "$log" 2>&1 &
    JPID[$j]=$!
    JSTART[$j]=$now
    JLIM[$j]=$lim
    running+=("$j")
    say "start $j (${CMD[$key]}; limit $lim s)"
}

# The base duration of key, or its guess, for whether a stage still fits.
expect() {
    local b="base:$1"
    if [ -n "${JEND[$b]:-}" ]; then echo $(( (JEND[$b] - JSTART[$b]) * 13 / 10 + 5 )); else echo "${GUESS[$1]}"; fi
}

finish_job() { # j rc how
    local j=$1
    JEND[$j]=$(el)
    JRC[$j]=$2
    JHOW[$j]=$3
    say "end   $j: rc $2, $3, $((JEND[$j] - JSTART[$j])) s"
    local who=${j%%:*}
    [ "$who" = base ] && return
    # a mutant that survived this stage goes on to its next one
    if [ "$2" = 0 ]; then
        local s=(${STAGES[$who]}) i=$((STAGE_AT[$who] + 1))
        STAGE_AT[$who]=$i
        if [ $i -lt ${#s[@]} ]; then queue+=("$who:${s[$i]}"); fi
    fi
}

poll_jobs() {
    local j keep=() rc
    for j in "${running[@]}"; do
        if ! kill -0 "${JPID[$j]}" 2>/dev/null; then
            wait "${JPID[$j]}"; rc=$?
            if [ $rc = 0 ] && grep -q '^FAIL' "$(log_of "$j")"; then rc=1; fi
            local how=exit
            if [ $rc = 124 ] || [ $rc = 137 ]; then
                if [ "${JLIM[$j]}" -lt "${CAP[${j#*:}]}" ]; then how=cut; else how=timeout; fi
            fi
            [ -n "${JHOW[$j]:-}" ] && how=${JHOW[$j]}
            finish_job "$j" "$rc" "$how"
            continue
        fi
        # a mutant's test stops at its first failure line, or when it runs
        # past 3x the baseline's time + 30 s (a hang: killed by timeout)
        if [ "${j%%:*}" != base ] && [ -z "${JHOW[$j]:-}" ]; then
            local b=base:${j#*:} over=0
            if [ -n "${JEND[$b]:-}" ] && [ "${JRC[$b]}" = 0 ] &&
               [ $(( $(el) - JSTART[$j] )) -gt $(( 3 * (JEND[$b] - JSTART[$b]) + 30 )) ]; then
                over=1
            fi
            if grep -q '^FAIL' "$(log_of "$j")"; then JHOW[$j]=fail-line
            elif [ $over = 1 ]; then JHOW[$j]=timeout; fi
            if [ -n "${JHOW[$j]:-}" ]; then
                kill -TERM "${JPID[$j]}" 2>/dev/null
                pkill -TERM -P "${JPID[$j]}" 2>/dev/null
            fi
        fi
        keep+=("$j")
    done
    running=("${keep[@]}")
}

poll_builds() {
    local id rc
    for id in "${!BPID[@]}"; do
        [ -n "${BRC[$id]:-}" ] && continue
        kill -0 "${BPID[$id]}" 2>/dev/null && continue
        wait "${BPID[$id]}"; rc=$?
        BRC[$id]=$rc
        BEND[$id]=$(el)
        local objs
        objs=$(grep -c 'Building CUDA object\|Building C object' "$LOGS/build-$id.log")
        say "built $id: rc $rc, $((BEND[$id] - BSTART[$id])) s, $objs object(s) compiled"
        if [ $rc = 0 ] && [ "$NO_TESTS" != 1 ]; then
            STAGE_AT[$id]=0
            local s=(${STAGES[$id]})
            queue+=("$id:${s[0]}")
        fi
    done
}

count_main() { local j n=0; for j in "${running[@]}"; do [ "${JSIDE[$j]:-0}" = 1 ] || n=$((n + 1)); done; echo $n; }
count_side() { local j n=0; for j in "${running[@]}"; do [ "${JSIDE[$j]:-0}" = 1 ] && n=$((n + 1)); done; echo $n; }
declare -A JSIDE

schedule() {
    local now j rest=() key who s
    now=$(el)
    [ "$NO_TESTS" = 1 ] && return
    [ $now -ge $STOP_NEW ] && return
    for j in "${queue[@]}"; do
        if [ "$(count_main)" -ge "$PAR" ]; then rest+=("$j"); continue; fi
        key=${j#*:}; who=${j%%:*}
        # a later stage starts only if it should end in time (judged by the
        # baseline's time once it has one: until then the job waits)
        if [ "$who" != base ]; then
            s=(${STAGES[$who]})
            if [ "${s[0]}" != "$key" ] && [ $((now + $(expect "$key"))) -gt $HARD ]; then
                if [ -z "${JEND[base:$key]:-}" ] && { [ -n "${JSTART[base:$key]:-}" ] ||
                        [[ " ${side_queue[*]} " == *" base:$key "* ]]; }; then
                    rest+=("$j")
                    continue
                fi
                JHOW[$j]=no-time
                say "skip  $j: expected $(expect "$key") s, past the budget"
                continue
            fi
        fi
        start_job "$j"
    done
    queue=("${rest[@]}")
    if [ ${#side_queue[@]} -gt 0 ] && [ "$(count_side)" -lt 1 ]; then
        j=${side_queue[0]}
        side_queue=("${side_queue[@]:1}")
        JSIDE[$j]=1
        start_job "$j"
    fi
}

# Whether a baseline still waiting in the side queue is needed: some
# mutant's test of its key has run, runs or waits.
side_needed() {
    local j k m
    for j in "${side_queue[@]}"; do
        k=${j#*:}
        for m in "${!JSTART[@]}" "${queue[@]}"; do
            [ "${m%%:*}" != base ] && [ "${m#*:}" = "$k" ] && return 0
        done
    done
    return 1
}

while :; do
    poll_builds
    poll_jobs
    schedule
    builds_left=0
    for id in "${!BPID[@]}"; do [ -z "${BRC[$id]:-}" ] && builds_left=$((builds_left + 1)); done
    if [ $builds_left = 0 ] && [ ${#running[@]} = 0 ]; then
        [ "$NO_TESTS" = 1 ] && break
        [ "$(el)" -ge $STOP_NEW ] && break
        [ ${#queue[@]} = 0 ] && ! side_needed && break
    fi
    if [ "$(el)" -ge $HARD ]; then
        say "budget reached: stopping what still runs"
        for j in "${running[@]}"; do
            JHOW[$j]=cut
            kill -TERM "${JPID[$j]}" 2>/dev/null
            pkill -TERM -P "${JPID[$j]}" 2>/dev/null
        done
        for id in "${!BPID[@]}"; do
            [ -n "${BRC[$id]:-}" ] && continue
            BCUT[$id]=1
            pkill -TERM -P "${BPID[$id]}" 2>/dev/null
            kill -TERM "${BPID[$id]}" 2>/dev/null
        done
        sleep 2
        poll_jobs
        poll_builds
        for j in "${running[@]}"; do finish_job "$j" 143 cut; done
        running=()
        break
    fi
    sleep 1
done
say "test phase over"

# ------------------------------------------------------------------
# Summary.
base_ok() { [ "${JRC[base:$1]:-x}" = 0 ]; }
checks_of() { grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" 2>/dev/null | tail -1; }
first_fail() { grep -m1 '^FAIL' "$1" 2>/dev/null | cut -c1-150; }
{
    echo "# Mutation test ($(basename "$HERE")): results"
    echo
    echo "$(sed -n 1,3p "$LOGS/device.txt" | tr '\n' ';' | sed 's/;/; /g')more in device.txt (logs.tgz)."
    echo "Base build ${BASE_BUILD_S} s after the start; script ended at $(el) s of a $BUDGET s budget; $PAR tests at a time (+1 for later baselines), OMP_NUM_THREADS=$OMP."
    [ "$NO_TESTS" = 1 ] && echo && echo "**MUT_NO_TESTS=1: builds only, no test ran.**"
    echo
    echo "## Baseline (unmodified build)"
    echo
    echo "| test | result | checks | seconds |"
    echo "|---|---|---|---|"
    for k in $base_keys; do
        j=base:$k
        if [ -z "${JRC[$j]:-}" ]; then echo "| \`${CMD[$k]}\` | NOT RUN | | |"; continue; fi
        r=PASS; base_ok $k || r="**FAIL** (rc ${JRC[$j]}, ${JHOW[$j]})"
        echo "| \`${CMD[$k]}\` | $r | $(checks_of "$(log_of "$j")") | $((JEND[$j] - JSTART[$j])) |"
    done
    echo
    echo "## Mutants"
    echo
    echo "A mutant is KILLED when one of its tests exits non-zero, prints a FAIL line or runs past its"
    echo "limit, and the same test passed on the unmodified build; SURVIVED when every test that ran"
    echo "passed. Stages: the tests in the order they ran (a later one only for survivors)."
    echo
    echo "| mutant | file | build s | verdict | stages (result, s) | first failure |"
    echo "|---|---|---|---|---|---|"
    n_killed=0 n_surv=0 n_other=0
    for id in "${ids[@]}"; do
        b="${BRC[$id]:-x}"
        bs=$(( ${BEND[$id]:-$(el)} - ${BSTART[$id]:-0} ))
        verdict="" stages="" ff=""
        if [ "$b" != 0 ]; then
            verdict="BUILD FAILED"; { [ "$b" = x ] || [ -n "${BCUT[$id]:-}" ]; } && verdict="NOT BUILT (time)"
        else
            any=0 surv_all=1
            for k in ${STAGES[$id]}; do
                j=$id:$k
                if [ -z "${JRC[$j]:-}" ]; then
                    [ "${JHOW[$j]:-}" = no-time ] && stages="$stages \`$k\` skipped (time);"
                    continue
                fi
                any=1
                d=$((JEND[$j] - JSTART[$j]))
                if [ "${JHOW[$j]}" = cut ]; then
                    stages="$stages \`$k\` CUT $d;"; surv_all=0; verdict=${verdict:-"CUT (budget)"}; continue
                fi
                if [ "${JRC[$j]}" = 0 ]; then stages="$stages \`$k\` pass $d;"; continue; fi
                surv_all=0
                how=${JHOW[$j]}; [ "$how" = exit ] && how="rc ${JRC[$j]}"
                stages="$stages \`$k\` fail ($how) $d;"
                if [ -z "$verdict" ] || [ "$verdict" = "CUT (budget)" ]; then
                    if base_ok $k; then verdict="**KILLED** by \`${CMD[$k]}\`"
                    else verdict="killed? (\`${CMD[$k]}\` failed or did not run on the baseline)"; fi
                    ff=$(first_fail "$(log_of "$j")")
                    [ -z "$ff" ] && ff=$(grep -m1 -iE 'error|fault|illegal' "$(log_of "$j")" | cut -c1-150)
                fi
            done
            if [ $any = 0 ]; then verdict="NOT RUN (time)"
            elif [ -z "$verdict" ] && [ $surv_all = 1 ]; then verdict="SURVIVED"; fi
        fi
        case $verdict in *KILLED*) n_killed=$((n_killed + 1)) ;; SURVIVED) n_surv=$((n_surv + 1)) ;; *) n_other=$((n_other + 1)) ;; esac
        echo "| $id | ${FILE[$id]#src/} | $bs | $verdict |$stages | ${ff//|/\\|} |"
    done
    echo
    echo "Killed $n_killed, survived $n_surv, other $n_other, of ${#ids[@]}."
    echo
    echo "Keys: $(for k in $all_keys; do printf '`%s` = `%s`; ' $k "${CMD[$k]}"; done)"
    echo
    echo "logs.tgz: progress.log, device.txt, base and mutant build logs, test-<who>-<key>.log per test."
} > "$OUT/summary.md"
cp "$OUT/summary.md" "$LOGS/summary.md"
tar -C "$W" -czf "$OUT/logs.tgz" logs
say "wrote $OUT/summary.md and $OUT/logs.tgz"
cat "$OUT/summary.md"
