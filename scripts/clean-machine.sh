#!/usr/bin/env bash
# Frees the disk of a development machine that is reused from day to day: other clones of this
# repository (CI checks, experiments), their build trees, stale build trees and fuzz artifacts.
# Nothing that holds work is deleted: a clone goes only when it has no uncommitted change and its
# HEAD is already in this repository's history; otherwise only its build trees go. This
# repository's own build trees are kept unless --own-builds is given.
#
#   bash scripts/clean-machine.sh [--dry-run] [--own-builds] [--ccache] [ROOT ...]
#
# ROOTs are the folders searched (default: the folder above this repository, and /tmp).
# --ccache also empties the compiler cache (the next build is then a cold one).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd -P)"

dry_run=0 own_builds=0 clear_ccache=0 roots=()
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) dry_run=1 ;;
    --own-builds) own_builds=1 ;;
    --ccache) clear_ccache=1 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    -*) echo "clean-machine: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) roots+=("$(cd "$1" && pwd -P)") ;;
  esac
  shift
done
if [ ${#roots[@]} -eq 0 ]; then roots=("$(dirname "$repo")" /tmp); fi

root_commit="$(git -C "$repo" rev-list --max-parents=0 HEAD | tail -1)"
freed_kib=0
removed=()

remove() {  # remove PATH REASON (once, and nothing inside what was already removed)
  local kib done_path
  for done_path in "${removed[@]}"; do
    case "$1/" in "$done_path"/*) return 0 ;; esac
  done
  removed+=("$1")
  kib=$(du -sk "$1" 2>/dev/null | cut -f1)
  kib=${kib:-0}
  freed_kib=$((freed_kib + kib))
  printf '%8d MiB  %s  (%s)\n' $((kib / 1024)) "$1" "$2"
  if [ "$dry_run" = 0 ]; then rm -rf -- "$1"; fi
}

is_our_clone() {  # a git work tree of this project (same first commit), not this repository
  [ -d "$1/.git" ] || return 1
  [ "$(cd "$1" && pwd -P)" != "$repo" ] || return 1
  git -C "$1" rev-list --max-parents=0 HEAD 2>/dev/null | grep -qx "$root_commit"
}

holds_work() {  # uncommitted changes, or a HEAD this repository does not have
  [ -n "$(git -C "$1" status --porcelain 2>/dev/null)" ] && return 0
  ! git -C "$repo" cat-file -e "$(git -C "$1" rev-parse HEAD)^{commit}" 2>/dev/null
}

build_trees_in() {  # CMake build trees (a CMakeCache.txt) directly below a clone
  find "$1" -mindepth 2 -maxdepth 2 -name CMakeCache.txt -printf '%h\n' 2>/dev/null
}

for root in "${roots[@]}"; do
  [ -d "$root" ] || continue
  while IFS= read -r git_dir; do
    clone="$(dirname "$git_dir")"
    is_our_clone "$clone" || continue
    if holds_work "$clone"; then
      echo "keep $clone: it holds work this repository does not have; removing its builds only"
      while IFS= read -r tree; do remove "$tree" "build tree of a clone with work"; done \
        < <(build_trees_in "$clone")
    else
      remove "$clone" "clone whose HEAD is in this repository, no uncommitted change"
    fi
  done < <(find "$root" -xdev -maxdepth 3 -type d -name .git -prune 2>/dev/null)
  # Build trees of this project left outside any clone (e.g. `cmake -B /tmp/b`).
  while IFS= read -r cache; do
    tree="$(dirname "$cache")"
    [ -d "$tree" ] || continue
    case "$tree" in "$repo"/*) continue ;; esac
    home="$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$cache")"
    if [ ! -d "$home" ] || { [ -f "$home/coulomb/CMakeLists.txt" ] && [ "$(cd "$home" && pwd -P)" != "$repo" ]; }; then
      remove "$tree" "build tree whose sources are elsewhere or gone"
    fi
  done < <(find "$root" -xdev -maxdepth 3 -name CMakeCache.txt 2>/dev/null)
  # libFuzzer's artifacts written into the working folder of a run (crash-, leak-, oom-, ...).
  while IFS= read -r artifact; do remove "$artifact" "fuzz artifact"; done \
    < <(find "$root" -xdev -maxdepth 2 -type f \
          \( -name 'crash-*' -o -name 'leak-*' -o -name 'oom-*' -o -name 'timeout-*' \
             -o -name 'slow-unit-*' \) 2>/dev/null)
done

# This repository: fuzz artifacts of its build trees always (the regressions worth keeping are
# copied to fuzz/regressions/ by hand, docs/fuzzing.md); the trees themselves on request.
for tree in "$repo"/build*; do
  [ -f "$tree/CMakeCache.txt" ] || continue
  if [ "$own_builds" = 1 ]; then
    remove "$tree" "this repository's build tree (--own-builds)"
  elif [ -d "$tree/fuzz/artifacts" ] && [ -n "$(ls -A "$tree/fuzz/artifacts" 2>/dev/null)" ]; then
    remove "$tree/fuzz/artifacts" "fuzz artifacts of this repository's build"
  fi
done

if [ "$clear_ccache" = 1 ] && command -v ccache >/dev/null; then
  kib=$(du -sk "$(ccache -k cache_dir)" 2>/dev/null | cut -f1)
  freed_kib=$((freed_kib + ${kib:-0}))
  printf '%8d MiB  %s  (compiler cache, --ccache)\n' $((${kib:-0} / 1024)) "$(ccache -k cache_dir)"
  if [ "$dry_run" = 0 ]; then ccache -C >/dev/null; fi
fi

verb=$([ "$dry_run" = 1 ] && echo "would free" || echo "freed")
echo "clean-machine: $verb $((freed_kib / 1024)) MiB"
df -h "$repo" | tail -1 | awk '{print "clean-machine: " $4 " free on " $6}'
