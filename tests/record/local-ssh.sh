#!/bin/sh
# Stands in for ssh when mpirun starts its daemons (mpirun --mca plm_rsh_agent local-ssh.sh):
# runs the command on this machine whatever host it names, so that a rankfile naming nodes
# node0, node1, ... that do not exist runs here, each "node" with a daemon of its own. Each
# daemon gets a temporary directory of its own (TMPDIR/local-ssh.HOST): daemons sharing one race
# to create the same session directory.
# Usage as ssh: local-ssh.sh [-options] HOST COMMAND...
while [ $# -gt 0 ]; do
  case "$1" in
    -*) shift ;;
    *) break ;;
  esac
done
host=$1
shift
TMPDIR="${TMPDIR:-/tmp}/local-ssh.$host"
export TMPDIR
mkdir -p "$TMPDIR"
exec /bin/sh -c "$*"
