# Shared shell helpers for the scripts in this folder (sourced, not run). They work from any directory: Maven runs
# on the repository's POM and class paths are absolute.

SUE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# Installs the tools the suite needs when they are missing (CI machines are fresh; we run as root there).
ensure_tools() {
  local need=()
  command -v verilator >/dev/null 2>&1 || need+=(verilator)
  command -v yosys >/dev/null 2>&1 || need+=(yosys)
  command -v ghdl >/dev/null 2>&1 || need+=(ghdl)
  command -v g++ >/dev/null 2>&1 || need+=(g++)
  command -v make >/dev/null 2>&1 || need+=(make)
  command -v ccache >/dev/null 2>&1 || need+=(ccache)
  command -v tshark >/dev/null 2>&1 || need+=(tshark)
  command -v npm >/dev/null 2>&1 || need+=(npm)
  [ -f /usr/include/tree_sitter/api.h ] || need+=(libtree-sitter-dev) # the SystemRDL syntax check's runtime
  command -v mvn >/dev/null 2>&1 || need+=(maven)
  command -v javac >/dev/null 2>&1 || need+=(openjdk-17-jdk-headless)
  if ((${#need[@]})); then
    echo "installing: ${need[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
  fi
}

# Runs mvn quietly: its output (and the terminal escapes some Maven versions print even with colour off) is shown
# only when it fails.
quiet_mvn() {
  local log
  log="$(mktemp)"
  if ! mvn -B -q -Dstyle.color=never -f "$SUE_ROOT/pom.xml" "$@" >"$log" 2>&1; then
    sed 's/\x1b\[[0-9;]*m//g' "$log" >&2
    rm -f "$log"
    return 1
  fi
  rm -f "$log"
}

# Builds the modules (no tests) and prints the runtime class path of the given module, absolute.
module_classpath() {
  local module="$1"
  [ -t 2 ] && echo "building the modules (mvn install, quiet)..." >&2
  quiet_mvn install -DskipTests
  local cpfile
  cpfile="$(mktemp)"
  quiet_mvn -pl "$module" dependency:build-classpath -Dmdep.outputFile="$cpfile"
  echo "$SUE_ROOT/$module/target/classes:$(cat "$cpfile")"
  rm -f "$cpfile"
}
