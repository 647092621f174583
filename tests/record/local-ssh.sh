#!/bin/sh
# Stands in for ssh when mpirun starts its daemons (mpirun --mca plm_rsh_agent local-ssh.sh):
# runs the command on this machine whatever host it names, so that a rankfile naming nodes
# node0, node1, ... that do not exist runs here, each "node" with a daemon of its own.
# Usage as ssh: local-ssh.sh [-options] HOST COMMAND...
while [ $# -gt 0 ]; do
  case "$1" in
    -*) shift ;;
    *) break ;;
  esac
done
shift  # the host
exec /bin/sh -c "$*"
