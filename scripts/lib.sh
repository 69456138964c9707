# Shared shell helpers for the scripts in this folder (sourced, not run).

# Installs the tools the suite needs when they are missing (CI machines are fresh; we run as root there).
ensure_tools() {
  local need=()
  command -v verilator >/dev/null 2>&1 || need+=(verilator)
  command -v yosys >/dev/null 2>&1 || need+=(yosys)
  command -v ghdl >/dev/null 2>&1 || need+=(ghdl)
  command -v g++ >/dev/null 2>&1 || need+=(g++)
  command -v make >/dev/null 2>&1 || need+=(make)
  command -v ccache >/dev/null 2>&1 || need+=(ccache)
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

# Builds the modules (no tests) and prints the runtime class path of the given module.
module_classpath() {
  local module="$1"
  mvn -B -q -Dstyle.color=never install -DskipTests >&2
  local cpfile
  cpfile="$(mktemp)"
  mvn -B -q -Dstyle.color=never -pl "$module" dependency:build-classpath -Dmdep.outputFile="$cpfile" >&2
  echo "$module/target/classes:$(cat "$cpfile")"
  rm -f "$cpfile"
}
