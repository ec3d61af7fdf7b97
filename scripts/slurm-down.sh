#!/usr/bin/env bash
# Stop the one-node Slurm cluster that scripts/slurm-up.sh started.
exec "$(dirname "$0")/slurm-up.sh" stop
