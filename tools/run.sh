#!/bin/sh
# make run: for now, build and show who the OOM killer takes next.
exec ./oompardon ls
